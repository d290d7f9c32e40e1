package arrowconv_test

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/arrowconv"
)

// FuzzFromTensor builds tensors with arbitrary shapes and byte strides
// over a small buffer: FromTensor must refuse or convert without
// panicking, and a conversion must read back the source's elements.
func FuzzFromTensor(f *testing.F) {
	f.Add([]byte{2, 3, 4}, []byte{48, 16, 4}, false)
	f.Add([]byte{2, 2, 3, 4}, []byte{96, 4, 32, 8}, false)
	f.Add([]byte{3, 2, 2}, []byte{0, 4, 8}, true)
	f.Fuzz(func(t *testing.T, shapeB, strideB []byte, copyIt bool) {
		if len(shapeB) > 6 || len(strideB) > 6 {
			return
		}
		shape := make([]int, len(shapeB))
		for i, b := range shapeB {
			shape[i] = int(b % 8)
		}
		strides := make([]int, len(strideB))
		for i, b := range strideB {
			strides[i] = int(int8(b)) * 4
		}
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		src := newTensor(t, mem, arrow.PrimitiveTypes.Int32, 64, shape, strides, nil)
		defer src.Release()
		opts := []arrowconv.Option{arrowconv.WithAllocator(mem)}
		if copyIt {
			opts = append(opts, arrowconv.WithCopy())
		}
		got, err := arrowconv.FromTensor(src, opts...)
		if err != nil {
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("error does not wrap arrow.ErrInvalid: %v", err)
			}
			return
		}
		defer got.Release()
		if got.Len() == 0 {
			return
		}
		back, err := arrowconv.ToTensor(got)
		if err != nil {
			t.Fatal(err)
		}
		defer back.Release()
		for _, idx := range indices(shape) {
			if g, w := tensorAt(back, idx), tensorAt(src, idx); g != w {
				t.Fatalf("shape %v strides %v: element %v = %v, want %v", shape, strides, idx, g, w)
			}
		}
	})
}
