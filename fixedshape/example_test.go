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

// Physical against logical order: a transposed layout stores each tensor
// column by column. PhysicalData is the storage, in that order; All (and
// At, AppendLogical) is the logical order. Use PhysicalData only where the
// order does not matter, as in a sum.
func ExampleTensor_PhysicalData() {
	m := metadata.MustNew([]int{2, 3}, nil, []int{1, 0}) // logical (2,3), stored (3,2)
	t, err := fixedshape.NewTensor([]int32{1, 4, 2, 5, 3, 6}, m)
	if err != nil {
		panic(err)
	}
	fmt.Println("physical:", t.PhysicalData())
	fmt.Println("logical: ", t.AppendLogical(nil))
	var sum int32
	for _, v := range t.PhysicalData() { // order-free: the storage is fine
		sum += v
	}
	fmt.Println("sum:     ", sum)
	// Output:
	// physical: [1 4 2 5 3 6]
	// logical:  [1 2 3 4 5 6]
	// sum:      21
}

// The tensor type of a schema's field without a type assertion.
func ExampleTypeOfField() {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Uint8, metadata.MustNew([]int{32, 32, 3}, []string{"H", "W", "C"}, nil))
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "label", Type: arrow.PrimitiveTypes.Int64},
		{Name: "image", Type: typ, Nullable: true},
	}, nil)
	for _, f := range schema.Fields() {
		if t, ok := fixedshape.TypeOfField(f); ok {
			fmt.Println(f.Name, t.ElemType(), t.Shape(), t.DimNames())
		} else {
			fmt.Println(f.Name, "is not a tensor column")
		}
	}
	// Output:
	// label is not a tensor column
	// image uint8 [32 32 3] [H W C]
}

// TypeOf on a data type, such as an array's.
func ExampleTypeOf() {
	arr, _ := fixedshape.FromSlice(fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{2}, nil, nil)), []float32{1, 2}, nil)
	defer arr.Release()
	t, ok := fixedshape.TypeOf(arr.DataType())
	fmt.Println(ok, t.Shape())
	_, ok = fixedshape.TypeOf(arrow.PrimitiveTypes.Float32)
	fmt.Println(ok)
	// Output:
	// true [2]
	// false
}
