package npy_test

import (
	"bytes"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/codec/npy"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

func ExampleWriteColumn() {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{2, 3}, nil, nil))
	col, _ := fixedshape.FromSlice(typ, []float32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, nil)
	defer col.Release()
	var b bytes.Buffer
	if err := npy.WriteColumn(&b, col); err != nil {
		fmt.Println(err)
		return
	}
	h, _ := npy.ParseHeader(b.Bytes(), 0)
	fmt.Println(h.Descr(), h.Shape, h.DataOffset, b.Len())
	// Output: <f4 [2 2 3] 128 176
}

func ExampleDecodeColumn() {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Int16, metadata.MustNew([]int{2}, nil, nil))
	col, _ := fixedshape.FromSlice(typ, []int16{1, 2, 3, 4, 5, 6}, nil)
	defer col.Release()
	var b bytes.Buffer
	_ = npy.WriteColumn(&b, col, npy.WithBigEndian(true))

	back, err := npy.DecodeColumn(b.Bytes())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer back.Release()
	c, _ := fixedshape.ColumnOf[int16](back)
	fmt.Println(back.Len(), back.TensorType().Shape(), c.Values())
	// Output: 3 [2] [1 2 3 4 5 6]
}

func ExampleReadColumn() {
	// A numpy.save file with shape (2, 2) in Fortran order.
	var b bytes.Buffer
	h, _ := npy.AppendHeader(nil, npy.Header{Type: arrow.PrimitiveTypes.Uint8, FortranOrder: true, Shape: []int{2, 2}})
	b.Write(h)
	b.Write([]byte{1, 3, 2, 4}) // [[1, 2], [3, 4]] column-major
	col, err := npy.ReadColumn(&b)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer col.Release()
	c, _ := fixedshape.ColumnOf[uint8](col)
	fmt.Println(c.Tensor(0).AppendLogical(nil), c.Tensor(1).AppendLogical(nil))
	// Output: [1 2] [3 4]
}

func ExampleDecodeTensor() {
	// A tensor with the reversed permutation is written in Fortran order
	// and decoded without copying, permutation included.
	m := metadata.MustNew([]int{2, 3}, nil, []int{1, 0})
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float64, m)
	col, _ := fixedshape.FromSlice(typ, []float64{0, 3, 1, 4, 2, 5}, nil)
	defer col.Release()
	var b bytes.Buffer
	_ = npy.WriteTensor(&b, col, 0)
	t, err := npy.DecodeTensor(b.Bytes())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer t.Release()
	c, _ := fixedshape.ColumnOf[float64](t)
	fmt.Println(t.TensorType().Metadata(), c.Tensor(0).AppendLogical(nil))
	// Output: (2,3) permutation=[1 0] [0 1 2 3 4 5]
}

func ExampleAppendHeader() {
	h, _ := npy.AppendHeader(nil, npy.Header{Type: arrow.PrimitiveTypes.Int64, Shape: []int{}})
	fmt.Printf("%d %q\n", len(h), h[10:58])
	// Output: 128 "{'descr': '<i8', 'fortran_order': False, 'shape'"
}
