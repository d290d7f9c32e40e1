package parquetconv_test

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/parquetconv"
	"github.com/google/go-cmp/cmp"
)

func TestWalkRepLevels(t *testing.T) {
	tests := []struct {
		name   string
		pages  [][]byte
		counts []int
		n      int
		rows   int64
		pos    int
		ok     bool
	}{
		{"packed rows of 3", [][]byte{hyPacked(hyRep(2, 3), 1)}, []int{6}, 3, 2, 0, true},
		{"rle runs", [][]byte{hyCat(hyRLE(1, 0, 1), hyRLE(767, 1, 1), hyRLE(1, 0, 1), hyRLE(767, 1, 1))}, []int{1536}, 768, 2, 0, true},
		{"0-D tensors: one RLE run of zeros", [][]byte{hyRLE(5, 0, 1)}, []int{5}, 1, 5, 0, true},
		{"bit-packed 0xff groups", [][]byte{hyPacked(hyRep(3, 17), 1)}, []int{51}, 17, 3, 0, true},
		{"row across pages", [][]byte{hyPacked([]uint64{0, 1}, 1), hyPacked([]uint64{1, 0, 1, 1}, 1)}, []int{2, 4}, 3, 2, 0, true},
		{"page ends inside a row", [][]byte{hyPacked([]uint64{0, 1, 1, 0, 1}, 1)}, []int{5}, 3, 1, 2, true},
		{"count shorter than the run", [][]byte{hyRLE(10, 0, 1)}, []int{4}, 1, 4, 0, true},
		{"short row", [][]byte{hyPacked([]uint64{0, 1, 0, 1, 1}, 1)}, []int{5}, 3, 0, 0, false},
		{"long row", [][]byte{hyPacked([]uint64{0, 1, 1, 1}, 1)}, []int{4}, 3, 0, 0, false},
		{"long RLE run", [][]byte{hyCat(hyRLE(1, 0, 1), hyRLE(3, 1, 1))}, []int{4}, 3, 0, 0, false},
		{"zeros for 2-element tensors", [][]byte{hyRLE(2, 0, 1)}, []int{2}, 2, 0, 0, false},
		{"starts inside a row", [][]byte{hyRLE(2, 1, 1)}, []int{2}, 3, 0, 0, false},
		{"RLE value 2 in 1 bit", [][]byte{hyRLE(1, 2, 1)}, []int{1}, 1, 0, 0, false},
		{"truncated run value", [][]byte{{2}}, []int{1}, 1, 0, 0, false},
		{"fewer levels than stated", [][]byte{hyRLE(3, 0, 1)}, []int{4}, 1, 0, 0, false},
		{"empty run", [][]byte{hyRLE(0, 0, 1)}, []int{1}, 1, 0, 0, false},
		{"empty", [][]byte{nil}, []int{1}, 1, 0, 0, false},
		{"overlong varint", [][]byte{{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}}, []int{1}, 1, 0, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows, pos, err := parquetconv.WalkRepLevels(tt.pages, tt.counts, tt.n)
			if !testvec.WantErr(t, err, testvec.InvalidIf(!tt.ok)) {
				return
			}
			if diff := cmp.Diff([2]int64{tt.rows, int64(tt.pos)}, [2]int64{rows, int64(pos)}); diff != "" {
				t.Errorf("rows, pos (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAllEqual(t *testing.T) {
	max3 := []uint64{3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3}
	oneOff := append([]uint64(nil), max3...)
	oneOff[9] = 1
	tests := []struct {
		name  string
		b     []byte
		width int
		count int
		want  bool
		ok    bool
	}{
		{"RLE", hyRLE(100, 3, 2), 2, 100, true, true},
		{"RLE other value", hyRLE(100, 2, 2), 2, 100, false, true},
		{"packed", hyPacked(max3, 2), 2, 11, true, true},
		{"packed, one off in the tail", hyPacked(oneOff, 2), 2, 11, false, true},
		{"packed, padding ignored", hyPacked(max3[:9], 2), 2, 9, true, true},
		{"mixed", hyCat(hyRLE(5, 3, 2), hyPacked(max3[:8], 2), hyRLE(7, 3, 2)), 2, 20, true, true},
		{"mixed, one off", hyCat(hyRLE(5, 3, 2), hyPacked(oneOff[2:10], 2), hyRLE(7, 3, 2)), 2, 20, false, true},
		{"width 1", hyPacked([]uint64{1, 1, 1, 1, 1, 1, 1, 1, 1}, 1), 1, 9, true, true},
		{"truncated", hyRLE(5, 3, 2), 2, 6, false, false},
		{"packed run past the end", hyCat(hyUvarint(nil, 9<<1|1), []byte{0xff}), 2, 72, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parquetconv.AllEqual(tt.b, tt.width, tt.count, 3&(1<<tt.width-1))
			if !testvec.WantErr(t, err, testvec.InvalidIf(!tt.ok)) {
				return
			}
			if got != tt.want {
				t.Errorf("AllEqual = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestDecodeHybrid(t *testing.T) {
	vals := []uint64{0, 1, 2, 3, 3, 2, 1, 0} // a bit-packed run in the middle holds whole groups of 8
	b := hyCat(hyRLE(3, 2, 2), hyPacked(vals, 2), hyRLE(2, 1, 2))
	got, err := parquetconv.DecodeHybrid(b, 2, 13)
	if err != nil {
		t.Fatal(err)
	}
	want := []uint8{2, 2, 2, 0, 1, 2, 3, 3, 2, 1, 0, 1, 1}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, err := parquetconv.DecodeHybrid(b, 2, 14); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("one value too many: err = %v", err)
	}
}

func TestNarrow(t *testing.T) {
	i32 := func(vs ...int32) []byte {
		b := make([]byte, 4*len(vs))
		for i, v := range vs {
			binary.LittleEndian.PutUint32(b[4*i:], uint32(v))
		}
		return b
	}
	// 19 values: the 8-wide loop and the tail both run.
	seq := func(lo, hi int32) []int32 {
		var v []int32
		for i := range 19 {
			v = append(v, lo+int32(i)*(hi-lo)/18)
		}
		return v
	}
	tests := []struct {
		name   string
		w      int
		signed bool
		vals   []int32
		ok     bool
	}{
		{"int8", 1, true, seq(-128, 127), true},
		{"uint8", 1, false, seq(0, 255), true},
		{"int16", 2, true, seq(-32768, 32767), true},
		{"uint16", 2, false, seq(0, 65535), true},
		{"int8 above", 1, true, append(seq(-128, 127), 128), false},
		{"int8 below in the wide loop", 1, true, append([]int32{-129}, seq(0, 1)...), false},
		{"uint8 negative", 1, false, append(seq(0, 255), -1), false},
		{"uint8 256", 1, false, append([]int32{256}, seq(0, 255)...), false},
		{"int16 above", 2, true, append(seq(0, 1), 32768), false},
		{"uint16 negative", 2, false, append(seq(0, 1), -1), false},
		{"uint16 65536", 2, false, append([]int32{65536}, seq(0, 1)...), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parquetconv.Narrow(i32(tt.vals...), tt.w, tt.signed)
			if !testvec.WantErr(t, err, testvec.InvalidIf(!tt.ok)) {
				return
			}
			want := make([]byte, len(tt.vals)*tt.w)
			for i, v := range tt.vals {
				if tt.w == 1 {
					want[i] = byte(v)
				} else {
					binary.LittleEndian.PutUint16(want[2*i:], uint16(v))
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestWalkLevels(t *testing.T) {
	// Optional list of optional elements: def 0 null tensor, 1 empty
	// list, 2 null element, 3 element.
	rep := func(v ...uint64) []byte { return hyPacked(v, 1) }
	def := func(v ...uint64) []byte { return hyPacked(v, 2) }
	tests := []struct {
		name     string
		rep, def []byte
		count, n int
		rows     int64
		k        int64
		nulls    []int64
		ok       bool
	}{
		{"null in the middle", rep(0, 1, 0, 0, 1), def(3, 3, 0, 3, 3), 5, 2, 3, 4, []int64{1}, true},
		{"nulls only", rep(0, 0, 0), def(0, 0, 0), 3, 4, 3, 0, []int64{0, 1, 2}, true},
		{"0-D tensors", rep(0, 0, 0), def(3, 0, 3), 3, 1, 3, 2, []int64{1}, true},
		{"empty list", rep(0, 1, 0), def(3, 3, 1), 3, 2, 2, 0, nil, false},
		{"null element", rep(0, 1), def(3, 2), 2, 2, 1, 0, nil, false},
		{"definition level above the maximum", rep(0), hyRLE(1, 4, 3), 1, 1, 1, 0, nil, false},
		{"null inside a row", rep(0, 1), def(3, 0), 2, 3, 1, 0, nil, false},
		{"short row before a null", rep(0, 0), def(3, 0), 2, 2, 2, 0, nil, false},
		{"more rows than the row group", rep(0, 0, 0), def(0, 0, 0), 3, 2, 2, 0, nil, false},
		{"long row", rep(0, 1, 1), def(3, 3, 3), 3, 2, 1, 0, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k, nulls, err := parquetconv.WalkLevels(tt.rep, tt.def, tt.count, tt.n, 3, 1, tt.rows)
			if !testvec.WantErr(t, err, testvec.InvalidIf(!tt.ok)) {
				return
			}
			if diff := cmp.Diff(tt.k, k); diff != "" {
				t.Errorf("values (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.nulls, nulls); diff != "" {
				t.Errorf("null rows (-want +got):\n%s", diff)
			}
		})
	}
}
