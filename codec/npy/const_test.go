package npy_test

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/codec/npy"
	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

// TestReadConst reads .npy arrays as expression constants in logical
// order: a C-order float32 matrix, a Fortran-order int16 matrix (written
// from a permuted tensor), a 0-D float64.
func TestReadConst(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	f32 := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{2, 3}, nil, nil))
	i16 := fixedshape.MustNewType(arrow.PrimitiveTypes.Int16, metadata.MustNew([]int{2, 3}, nil, []int{1, 0}))
	f64 := fixedshape.MustNewType(arrow.PrimitiveTypes.Float64, metadata.MustNew(nil, nil, nil))
	a, _ := fixedshape.FromSlice(f32, []float32{1, 2, 3, 4, 5, 6}, nil)
	b, _ := fixedshape.FromSlice(i16, []int16{1, 4, 2, 5, 3, 6}, nil) // physical (3,2): logical [[1,2,3],[4,5,6]]
	c, _ := fixedshape.FromSlice(f64, []float64{2.5}, nil)
	for _, tc := range []struct {
		name string
		arr  *fixedshape.Array
		want expr.Const
	}{
		{"float32", a, expr.Array([]int{2, 3}, []float32{1, 2, 3, 4, 5, 6})},
		{"permuted int16", b, expr.Array([]int{2, 3}, []int16{1, 2, 3, 4, 5, 6})},
		{"0-D", c, expr.Array([]int{}, []float64{2.5})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer tc.arr.Release()
			var buf bytes.Buffer
			if err := npy.WriteTensor(&buf, tc.arr, 0); err != nil {
				t.Fatal(err)
			}
			got, err := npy.ReadConst(&buf, npy.WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
	if _, err := npy.ReadConst(bytes.NewReader([]byte("\x93NUMPY garbage")), npy.WithAllocator(mem)); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("garbage: %v, want ErrInvalid", err)
	}
}
