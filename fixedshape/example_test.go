package fixedshape_test

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

// Build a column of 2x3 tensors with a builder, then read one back.
func Example() {
	m := metadata.MustNew([]int{2, 3}, []string{"row", "col"}, nil)
	typ, err := fixedshape.NewType(arrow.PrimitiveTypes.Float32, m)
	if err != nil {
		panic(err)
	}
	b, err := fixedshape.NewBuilder[float32](memory.DefaultAllocator, typ)
	if err != nil {
		panic(err)
	}
	defer b.Release()
	_ = b.Append([]float32{1, 2, 3, 4, 5, 6})
	b.AppendNull()
	_ = b.Append([]float32{7, 8, 9, 10, 11, 12})
	arr := b.NewArray()
	defer arr.Release()

	fmt.Println(arr.DataType())
	fmt.Println(arr)

	col, err := fixedshape.ColumnOf[float32](arr)
	if err != nil {
		panic(err)
	}
	t := col.Tensor(2) // a view: no copy, no allocation
	fmt.Println(t.Shape(), t.ElemStrides(), t.At(1, 2))
	// Output:
	// extension<arrow.fixed_shape_tensor[value_type=float, shape=[2,3], dim_names=[row,col]]>
	// [[[1,2,3],[4,5,6]] (null) [[7,8,9],[10,11,12]]]
	// [2 3] [3 1] 12
}

// A column over an existing Go slice, without copying it. The permutation
// says the slice holds each tensor transposed: logical (2,3), physical (3,2).
func ExampleFromSlice() {
	m := metadata.MustNew([]int{2, 3}, nil, []int{1, 0})
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Int64, m)
	data := []int64{
		1, 4, 2, 5, 3, 6, // tensor 0, column by column
		0, 0, 0, 0, 0, 0, // tensor 1 (null)
	}
	arr, err := fixedshape.FromSlice(typ, data, []bool{true, false})
	if err != nil {
		panic(err)
	}
	defer arr.Release()
	col, _ := fixedshape.ColumnOf[int64](arr)
	t := col.Tensor(0)
	fmt.Println("strides:", t.ElemStrides())
	fmt.Println("logical:", t.AppendLogical(nil))
	fmt.Println("wire:   ", typ.Serialize())
	// Output:
	// strides: [1 2]
	// logical: [1 2 3 4 5 6]
	// wire:    {"shape":[3,2],"permutation":[1,0]}
}

// A single tensor's elements in logical order, whatever the layout.
func ExampleTensor_All() {
	m := metadata.MustNew([]int{2, 2}, nil, []int{1, 0})
	t, err := fixedshape.NewTensor([]uint8{1, 3, 2, 4}, m)
	if err != nil {
		panic(err)
	}
	for v := range t.All() {
		fmt.Print(v, " ")
	}
	fmt.Println()
	// Output:
	// 1 2 3 4
}
