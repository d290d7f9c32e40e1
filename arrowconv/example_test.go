package arrowconv_test

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/arrow/tensor"
	"github.com/fstensor/fstensor/arrowconv"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

func ExampleToTensor() {
	// Two 2x3 tensors stored transposed (physical shape [3,2]).
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{2, 3}, nil, []int{1, 0}))
	arr, _ := fixedshape.FromSlice(typ, []float32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, nil)
	defer arr.Release()
	t, err := arrowconv.ToTensor(arr)
	if err != nil {
		panic(err)
	}
	defer t.Release()
	fmt.Println(t.Shape(), t.Strides())
	// Output: [2 2 3] [24 4 8]
}

func ExampleFromTensor() {
	// A batch of two 2x3 tensors whose axes are stored in reverse order.
	data := []int64{0, 3, 1, 4, 2, 5, 6, 9, 7, 10, 8, 11}
	t := tensorOf(nil, data, []int{2, 2, 3}, []int{48, 8, 16})
	defer t.Release()
	arr, err := arrowconv.FromTensor(t)
	if err != nil {
		panic(err)
	}
	defer arr.Release()
	fmt.Println(arr.TensorType())
	fmt.Println(arr)
	// Output:
	// extension<arrow.fixed_shape_tensor[value_type=int64, shape=[3,2], permutation=[1,0]]>
	// [[[0,1,2],[3,4,5]] [[6,7,8],[9,10,11]]]
}

func ExampleFromNested() {
	// FSL<FSL<int32, 2>, 2>: one 2x2 matrix per row.
	b := array.NewFixedSizeListBuilder(memory.DefaultAllocator, 2, arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Int32))
	defer b.Release()
	rows := b.ValueBuilder().(*array.FixedSizeListBuilder)
	vals := rows.ValueBuilder().(*array.Int32Builder)
	b.Append(true)
	rows.Append(true)
	vals.AppendValues([]int32{1, 2}, nil)
	rows.Append(true)
	vals.AppendValues([]int32{3, 4}, nil)
	nested := b.NewArray()
	defer nested.Release()
	arr, err := arrowconv.FromNested(nested, []string{"r", "c"})
	if err != nil {
		panic(err)
	}
	defer arr.Release()
	fmt.Println(arr.TensorType().Shape(), arr)
	// Output: [2 2] [[[1,2],[3,4]]]
}

func ExampleSlotTensor() {
	// Two 2x3 tensors stored transposed (physical shape [3,2]).
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{2, 3}, []string{"row", "col"}, []int{1, 0}))
	arr, _ := fixedshape.FromSlice(typ, []float32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, nil)
	defer arr.Release()
	t, err := arrowconv.SlotTensor(arr, 1)
	if err != nil {
		panic(err)
	}
	defer t.Release()
	fmt.Println(t.Shape(), t.Strides(), t.DimNames())
	f := t.(*tensor.Float32)
	for i := range int64(2) {
		fmt.Println(f.Value([]int64{i, 0}), f.Value([]int64{i, 1}), f.Value([]int64{i, 2}))
	}
	// Output:
	// [2 3] [4 8] [row col]
	// 6 8 10
	// 7 9 11
}

func ExampleFromSlotTensor() {
	// One column-major (Fortran order) 2x3 matrix: element [i,j] at i+2j.
	data := []int64{0, 3, 1, 4, 2, 5}
	t := tensorOf(nil, data, []int{2, 3}, []int{8, 16})
	defer t.Release()
	arr, err := arrowconv.FromSlotTensor(t)
	if err != nil {
		panic(err)
	}
	defer arr.Release()
	fmt.Println(arr.Len(), arr.TensorType())
	fmt.Println(arr)
	// Output:
	// 1 extension<arrow.fixed_shape_tensor[value_type=int64, shape=[3,2], permutation=[1,0]]>
	// [[[0,1,2],[3,4,5]]]
}

func ExampleWrap() {
	// A plain FixedSizeList<uint8, 6> column, as another library wrote it.
	b := array.NewFixedSizeListBuilder(memory.DefaultAllocator, 6, arrow.PrimitiveTypes.Uint8)
	defer b.Release()
	vals := b.ValueBuilder().(*array.Uint8Builder)
	b.AppendValues([]bool{true, true})
	vals.AppendValues([]uint8{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, nil)
	list := b.NewArray()
	defer list.Release()

	arr, err := arrowconv.Wrap(list, metadata.MustNew([]int{2, 3}, []string{"h", "w"}, nil))
	if err != nil {
		panic(err)
	}
	defer arr.Release()
	fmt.Println(arr.TensorType())
	fmt.Println(arr)
	// Output:
	// extension<arrow.fixed_shape_tensor[value_type=uint8, shape=[2,3], dim_names=[h,w]]>
	// [[[1,2,3],[4,5,6]] [[7,8,9],[10,11,12]]]
}

func ExampleUnwrap() {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Int16, metadata.MustNew([]int{2, 2}, nil, []int{1, 0}))
	arr, _ := fixedshape.FromSlice(typ, []int16{1, 2, 3, 4}, nil)
	defer arr.Release()
	list, m := arrowconv.Unwrap(arr)
	defer list.Release()
	// The storage holds the physical order; m says how to read it.
	fmt.Println(list.DataType(), list)
	fmt.Println(m.Shape(), m.Permutation(), m.PhysicalShape())
	// Output:
	// fixed_size_list<item: int16, nullable>[4] [[1 2 3 4]]
	// [2 2] [1 0] [2 2]
}
