package parquetconv_test

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/fstensor/fstensor/parquetconv"
	"github.com/google/go-cmp/cmp"
)

// decodeRLE decodes an RLE/bit-packed hybrid stream of RLE runs only (the
// writer emits no bit-packed runs) with values of ceil(bits/8) bytes.
func decodeRLE(t *testing.T, b []byte, maxLevel int16) []int16 {
	t.Helper()
	width := 0
	for v := maxLevel; v > 0; v >>= 1 {
		width++
	}
	width = (width + 7) / 8
	var out []int16
	for len(b) > 0 {
		h, n := binary.Uvarint(b)
		if n <= 0 {
			t.Fatalf("bad varint in % x", b)
		}
		b = b[n:]
		if h&1 != 0 {
			t.Fatalf("bit-packed run header %#x", h)
		}
		if len(b) < width {
			t.Fatalf("short run value")
		}
		v := int16(0)
		for k := range width {
			v |= int16(b[k]) << (8 * k)
		}
		b = b[width:]
		for range h >> 1 {
			out = append(out, v)
		}
	}
	return out
}

func TestLevelEncoder(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	random := make([]int16, 1000)
	for i := range random {
		random[i] = int16(rng.IntN(4))
	}
	tests := []struct {
		name   string
		levels []int16
		max    int16
	}{
		{name: "empty", levels: nil, max: 3},
		{name: "one", levels: []int16{3}, max: 3},
		{name: "tensor rows", levels: []int16{0, 1, 1, 1, 0, 1, 1, 1, 0, 0, 1, 1, 1}, max: 1},
		{name: "0-D rows", levels: []int16{0, 0, 0, 0, 0}, max: 1},
		{name: "random", levels: random, max: 3},
		{name: "wide", levels: []int16{300, 300, 0, 511}, max: 511},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := decodeRLE(t, parquetconv.EncodeLevels(tc.levels, tc.max), tc.max)
			if diff := cmp.Diff(tc.levels, got); diff != "" {
				t.Errorf("levels (-want +got):\n%s", diff)
			}
		})
	}
	// Runs merge: a page of 1000 tensors of 768 elements has 1000 runs of
	// 0 and of 1, a few bytes each.
	var runs [][2]int
	for range 1000 {
		runs = append(runs, [2]int{0, 1}, [2]int{1, 767})
	}
	enc := parquetconv.EncodeLevelRuns(runs, 1)
	if len(enc) > 6*1000 {
		t.Errorf("%d bytes of repetition levels for 1000 rows", len(enc))
	}
	if got := decodeRLE(t, enc, 1); len(got) != 768_000 {
		t.Errorf("%d levels, want 768000", len(got))
	}
	if enc := parquetconv.EncodeLevelRuns([][2]int{{3, 500}, {3, 268}, {3, 1}}, 3); len(enc) != 3 {
		t.Errorf("one merged run takes %d bytes, want 3", len(enc))
	}
}

// TestPutValues checks widening on aligned and unaligned destinations
// (the native and the byte-wise paths).
func TestPutValues(t *testing.T) {
	src := make([]byte, 258)
	for i := range src {
		src[i] = byte(i*37 + 11)
	}
	want := func(kind string, i int) uint32 {
		switch kind {
		case "int8":
			return uint32(int32(int8(src[i])))
		case "uint8":
			return uint32(src[i])
		case "int16":
			return uint32(int32(int16(binary.LittleEndian.Uint16(src[2*i:]))))
		}
		return uint32(binary.LittleEndian.Uint16(src[2*i:]))
	}
	for _, kind := range []string{"int8", "uint8", "int16", "uint16"} {
		n := len(src)
		if kind == "int16" || kind == "uint16" {
			n /= 2
		}
		for _, off := range []int{0, 1, 2, 3} {
			buf := make([]byte, 4*n+8)
			dst := buf[off : off+4*n]
			parquetconv.PutValues(dst, src, kind)
			for i := range n {
				if got := binary.LittleEndian.Uint32(dst[4*i:]); got != want(kind, i) {
					t.Fatalf("%s offset %d: value %d = %#x, want %#x", kind, off, i, got, want(kind, i))
				}
			}
		}
	}
	dst := make([]byte, len(src))
	parquetconv.PutValues(dst, src, "copy")
	if diff := cmp.Diff(src, dst); diff != "" {
		t.Errorf("copy (-want +got):\n%s", diff)
	}
}

func TestSplitStreams(t *testing.T) {
	for _, w := range []int{2, 4, 8} {
		src := make([]byte, 13*w)
		for i := range src {
			src[i] = byte(i)
		}
		dst := make([]byte, len(src))
		parquetconv.SplitStreams(dst, src, w)
		n := len(src) / w
		for i := range n {
			for k := range w {
				if dst[k*n+i] != src[i*w+k] {
					t.Fatalf("width %d: byte %d of value %d misplaced", w, k, i)
				}
			}
		}
	}
}
