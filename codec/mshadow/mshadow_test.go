package mshadow_test

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/codec/internal/codectest"
	"github.com/fstensor/fstensor/codec/mshadow"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
)

func decode(t *testing.T, raw json.RawMessage, v any) {
	t.Helper()
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatal(err)
	}
}

// beyondInt32 lists the vector cases whose shape mshadow reads with a
// dimension above math.MaxInt32: on a 32-bit platform an int cannot hold
// it, and ReadText fails (holding the empty shape) where mshadow succeeds.
var beyondInt32 = map[string]bool{
	"mshadow-parse-15": true, // (-1,2) wraps to (4294967295,2)
}

// TestVectors runs every mshadow case of seed_systems.json.
func TestVectors(t *testing.T) {
	for _, c := range testvec.Seeds(t, "mshadow") {
		t.Run(c.ID, func(t *testing.T) {
			var in struct {
				Text      *string `json:"text"`
				Shape     []int   `json:"shape"`
				Axis      *int    `json:"axis"`
				AxisBegin *int    `json:"axis_begin"`
				AxisEnd   *int    `json:"axis_end"`
			}
			var want struct {
				Printed string `json:"printed"`
				Failbit bool   `json:"failbit"`
				NDim    int    `json:"ndim"`
				Hex     string `json:"hex"`
				Result  []int  `json:"result"`
				Flat2D  []int  `json:"flat2d"`
				Size    *int   `json:"size"`
			}
			decode(t, c.Input, &in)
			decode(t, c.Expected, &want)
			if strconv.IntSize == 32 && beyondInt32[c.ID] {
				want.Failbit, want.Printed, want.NDim = true, "()", 0
			}
			switch {
			case in.Text != nil:
				shape, _, err := mshadow.ReadText(*in.Text)
				if got := err != nil; got != want.Failbit {
					t.Fatalf("ReadText(%q) error = %v, want failbit %v", *in.Text, err, want.Failbit)
				}
				if err != nil && !errors.Is(err, arrow.ErrInvalid) {
					t.Errorf("error %v does not wrap arrow.ErrInvalid", err)
				}
				if diff := cmp.Diff(want.Printed, metadata.FormatShape(shape)); diff != "" {
					t.Errorf("printed (-want +got):\n%s", diff)
				}
				if len(shape) != want.NDim {
					t.Errorf("ndim = %d, want %d", len(shape), want.NDim)
				}
			case want.Hex != "":
				got, err := mshadow.AppendShape(nil, in.Shape, mshadow.Index32)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want.Hex, hex.EncodeToString(got)); diff != "" {
					t.Errorf("Save (-want +got):\n%s", diff)
				}
				back, n, err := mshadow.ReadShape(got, mshadow.Index32)
				if err != nil || n != len(got) {
					t.Fatalf("ReadShape = %v, %d, %v", back, n, err)
				}
				if diff := cmp.Diff(want.Printed, metadata.FormatShape(back)); diff != "" {
					t.Errorf("printed (-want +got):\n%s", diff)
				}
			case want.Flat2D != nil:
				got, err := mshadow.FlatTo2D(in.Shape)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want.Flat2D, got[:]); diff != "" {
					t.Errorf("FlatTo2D (-want +got):\n%s", diff)
				}
				size, err := mshadow.Size(in.Shape)
				if err != nil || size != *want.Size {
					t.Errorf("Size = %d, %v, want %d", size, err, *want.Size)
				}
			case in.AxisBegin != nil || in.Axis != nil:
				b, e := 0, 0
				if in.Axis != nil {
					b, e = *in.Axis, *in.Axis
				} else {
					b, e = *in.AxisBegin, *in.AxisEnd
				}
				got, err := mshadow.FlatTo3D(in.Shape, b, e)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want.Result, got[:]); diff != "" {
					t.Errorf("FlatTo3D (-want +got):\n%s", diff)
				}
			default:
				got, err := mshadow.FlatTo2D(in.Shape)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want.Result, got[:]); diff != "" {
					t.Errorf("FlatTo2D (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestShapeBinary(t *testing.T) {
	type test struct {
		name    string
		shape   []int
		layout  mshadow.Layout
		hex     string
		wantErr bool
	}
	tests := []test{
		{name: "0-D/index32", shape: []int{}, layout: mshadow.Index32, hex: "00000000"},
		{name: "0-D/int64", shape: []int{}, layout: mshadow.Int64, hex: "00000000"},
		{name: "size-0 dim/index32", shape: []int{3, 0}, layout: mshadow.Index32, hex: "020000000300000000000000"},
		{name: "non-square/int64", shape: []int{2, 3}, layout: mshadow.Int64, hex: "0200000002000000000000000300000000000000"},
		{name: "max int32/int64", shape: []int{math.MaxInt32}, layout: mshadow.Int64, hex: "01000000ffffff7f00000000"},
		{name: "max int32/index32", shape: []int{math.MaxInt32}, layout: mshadow.Index32, hex: "01000000ffffff7f"},
		{name: "negative", shape: []int{-1}, layout: mshadow.Int64, wantErr: true},
		{name: "unknown layout", shape: []int{1}, layout: mshadow.Layout(7), wantErr: true},
		{name: "too many dims", shape: make([]int, mshadow.MaxDims+1), layout: mshadow.Int64, wantErr: true},
	}
	if strconv.IntSize == 64 {
		// Dimensions beyond 32 bits exist only where an int has 64.
		large := math.MaxInt>>30 + 1 // 1<<33
		tests = append(tests,
			test{name: "large dim/int64", shape: []int{large}, layout: mshadow.Int64, hex: "010000000000000002000000"},
			test{name: "large dim/index32", shape: []int{large}, layout: mshadow.Index32, wantErr: true},
			test{name: "max uint32/index32", shape: []int{large/2 - 1}, layout: mshadow.Index32, hex: "01000000ffffffff"},
		)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := mshadow.AppendShape([]byte{0xaa}, tt.shape, tt.layout)
			if codectest.WantInvalid(t, "AppendShape", err, tt.wantErr) {
				return
			}
			if diff := cmp.Diff("aa"+tt.hex, hex.EncodeToString(got)); diff != "" {
				t.Errorf("AppendShape (-want +got):\n%s", diff)
			}
			if n := tt.layout.ShapeSize(len(tt.shape)); n != len(got)-1 {
				t.Errorf("ShapeSize = %d, want %d", n, len(got)-1)
			}
			back, n, err := mshadow.ReadShape(append(got[1:], 0xbb), tt.layout)
			if err != nil {
				t.Fatal(err)
			}
			if n != len(got)-1 {
				t.Errorf("ReadShape read %d bytes, want %d", n, len(got)-1)
			}
			if diff := cmp.Diff(tt.shape, back); diff != "" {
				t.Errorf("ReadShape (-want +got):\n%s", diff)
			}
		})
	}
}

func TestReadShapeErrors(t *testing.T) {
	type test struct {
		name   string
		hex    string
		layout mshadow.Layout
	}
	tests := []test{
		{name: "empty", hex: "", layout: mshadow.Index32},
		{name: "short count", hex: "0100", layout: mshadow.Index32},
		{name: "short dims", hex: "0200000003000000", layout: mshadow.Index32},
		{name: "huge ndim", hex: "ffffff7f", layout: mshadow.Index32},
		{name: "unknown rank", hex: "ffffffff", layout: mshadow.Int64},
		{name: "negative ndim", hex: "feffffff", layout: mshadow.Int64},
		{name: "unknown dim", hex: "01000000ffffffffffffffff", layout: mshadow.Int64},
		{name: "negative dim", hex: "01000000feffffffffffffff", layout: mshadow.Int64},
		{name: "overflowing shape", hex: "02000000ffffffffffffff3fffffffffffffff3f", layout: mshadow.Int64},
		{name: "unknown layout", hex: "00000000", layout: mshadow.Layout(-1)},
	}
	if strconv.IntSize == 32 {
		// Valid shapes whose dimension an int of 32 bits cannot hold
		// (TestShapeBinary reads them back on 64-bit).
		tests = append(tests,
			test{name: "dim 2**32 on 32-bit", hex: "010000000000000001000000", layout: mshadow.Int64},
			test{name: "dim 2**31 on 32-bit", hex: "0100000000000080", layout: mshadow.Index32},
		)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, _ := hex.DecodeString(tt.hex)
			_, _, err := mshadow.ReadShape(b, tt.layout)
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("ReadShape error = %v, want arrow.ErrInvalid", err)
			}
		})
	}
}

func TestReadText(t *testing.T) {
	type test struct {
		name    string
		text    string
		want    []int
		n       int
		wantErr bool
	}
	// mshadow's largest index_t: a 32-bit int cannot hold it, so ReadText
	// fails there after reading the number, holding the empty shape.
	maxIndex := test{name: "max index", text: "(4294967295)", want: []int{}, n: 11, wantErr: true}
	if strconv.IntSize == 64 {
		// math.MaxUint32 (the mask, a no-op here, lets 32-bit compile it).
		maxIndex = test{name: "max index", text: "(4294967295)", want: []int{math.MaxUint32 & math.MaxInt}, n: 12}
	}
	tests := []test{
		{name: "max int32", text: "(2147483647,2)", want: []int{math.MaxInt32, 2}, n: 14},
		{name: "0-D fails as upstream", text: "()", want: []int{}, n: 1, wantErr: true},
		{name: "1-D trailing comma", text: "(3,)", want: []int{3}, n: 4},
		{name: "non-square", text: "(3,5) rest", want: []int{3, 5}, n: 5},
		{name: "size-0 dim", text: "(3,0)", want: []int{3, 0}, n: 5},
		{name: "plus sign", text: "(+3)", want: []int{3}, n: 4},
		maxIndex,
		{name: "overflow", text: "(4294967296)", want: []int{}, n: 11, wantErr: true},
		{name: "bare overflow", text: "99999999999", want: []int{}, n: 11, wantErr: true},
		{name: "partial list", text: "(3,4,a)", want: []int{3, 4}, n: 5, wantErr: true},
		{name: "letter", text: "a", want: []int{}, n: 1, wantErr: true},
		{name: "empty", text: "", want: []int{}, n: 0, wantErr: true},
		{name: "unterminated", text: "(3,4", want: []int{}, n: 4, wantErr: true},
		{name: "bare minus", text: "-1", want: []int{}, n: 1, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, n, err := mshadow.ReadText(tt.text)
			if (err != nil) != tt.wantErr {
				t.Fatalf("ReadText(%q) error = %v, want error %v", tt.text, err, tt.wantErr)
			}
			if err != nil && !errors.Is(err, arrow.ErrInvalid) {
				t.Errorf("error %v does not wrap arrow.ErrInvalid", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("shape (-want +got):\n%s", diff)
			}
			if n != tt.n {
				t.Errorf("consumed %d bytes, want %d", n, tt.n)
			}
		})
	}
}

func TestFlat(t *testing.T) {
	big := math.MaxInt/2 + 1
	tests := []struct {
		name       string
		shape      []int
		flat2D     []int
		begin, end int
		flat3D     []int
		prod       int // ProdShape(shape, begin, end)
		wantErr    bool
	}{
		{name: "0-D", shape: []int{}, flat2D: []int{0, 0}, flat3D: []int{0, 0, 0}, prod: 1},
		{name: "size-0 dim", shape: []int{3, 0, 4}, flat2D: []int{0, 4}, begin: 1, end: 1, flat3D: []int{3, 0, 4}, prod: 1},
		{name: "non-square", shape: []int{2, 3, 4}, flat2D: []int{6, 4}, begin: 0, end: 1, flat3D: []int{1, 6, 4}, prod: 2},
		{name: "overflowing", shape: []int{big, 2, 2}, begin: 0, end: 2, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f2, err2 := mshadow.FlatTo2D(tt.shape)
			f3, err3 := mshadow.FlatTo3D(tt.shape, tt.begin, tt.end)
			p, errp := mshadow.ProdShape(tt.shape, tt.begin, tt.end)
			if tt.wantErr {
				if !errors.Is(err2, arrow.ErrInvalid) || !errors.Is(err3, arrow.ErrInvalid) {
					t.Fatalf("errors = %v, %v; want arrow.ErrInvalid", err2, err3)
				}
				return
			}
			if err2 != nil || err3 != nil || errp != nil {
				t.Fatal(err2, err3, errp)
			}
			if diff := cmp.Diff(tt.flat2D, f2[:]); diff != "" {
				t.Errorf("FlatTo2D (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.flat3D, f3[:]); diff != "" {
				t.Errorf("FlatTo3D (-want +got):\n%s", diff)
			}
			if p != tt.prod {
				t.Errorf("ProdShape = %d, want %d", p, tt.prod)
			}
		})
	}
	for _, bad := range []struct {
		name       string
		begin, end int
	}{{"reversed", 2, 1}, {"past end", 0, 3}, {"negative", -1, 0}} {
		t.Run("range/"+bad.name, func(t *testing.T) {
			if _, err := mshadow.FlatTo3D([]int{2, 3, 4}, bad.begin, bad.end); !errors.Is(err, arrow.ErrInvalid) {
				t.Errorf("FlatTo3D error = %v", err)
			}
			if bad.name != "past end" {
				if _, err := mshadow.ProdShape([]int{2, 3, 4}, bad.begin, bad.end); !errors.Is(err, arrow.ErrInvalid) {
					t.Errorf("ProdShape error = %v", err)
				}
			}
		})
	}
}

func TestReshape(t *testing.T) {
	tests := []struct {
		name    string
		shape   []int
		perm    []int
		to      []int
		wantErr bool
	}{
		{name: "to 2-D", shape: []int{2, 3, 4}, to: []int{6, 4}},
		{name: "identity permutation", shape: []int{2, 3}, perm: []int{0, 1}, to: []int{3, 2}},
		{name: "to 0-D", shape: []int{1}, to: []int{}},
		{name: "from 0-D", shape: []int{}, to: []int{1, 1}},
		{name: "3-cycle refused", shape: []int{2, 3, 4}, perm: []int{2, 0, 1}, to: []int{24}, wantErr: true},
		{name: "size mismatch", shape: []int{2, 3}, to: []int{7}, wantErr: true},
		{name: "size-0 dim", shape: []int{2, 3}, to: []int{0, 6}, wantErr: true},
		{name: "overflowing", shape: []int{2, 3}, to: []int{math.MaxInt/2 + 1, 4}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Int32, metadata.MustNew(tt.shape, nil, tt.perm))
			b, err := fixedshape.NewBuilder[int32](mem, typ)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Release()
			vals := make([]int32, typ.ListSize())
			for i := range vals {
				vals[i] = int32(i)
			}
			if err := b.Append(vals); err != nil {
				t.Fatal(err)
			}
			b.AppendNull()
			arr := b.NewArray()
			defer arr.Release()
			got, err := mshadow.Reshape(arr, tt.to)
			if codectest.WantInvalid(t, "Reshape", err, tt.wantErr) {
				return
			}
			defer got.Release()
			if diff := cmp.Diff(tt.to, got.TensorType().Metadata().Shape()); diff != "" {
				t.Errorf("shape (-want +got):\n%s", diff)
			}
			if !got.IsNull(1) || got.IsNull(0) {
				t.Errorf("nulls not kept")
			}
			col, err := fixedshape.ColumnOf[int32](got)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(vals, col.Tensor(0).AppendLogical(nil)); diff != "" {
				t.Errorf("values (-want +got):\n%s", diff)
			}
		})
	}
}
