package varshape_test

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/varshape"
)

// Rows of different shapes, read through typed zero-copy views.
func Example() {
	typ := varshape.MustNewType(arrow.PrimitiveTypes.Float32, 2, varshape.Options{DimNames: []string{"t", "f"}})
	arr, err := varshape.FromSlices(memory.DefaultAllocator, typ,
		[][]int{{2, 3}, nil, {1, 2}},
		[][]float32{{1, 2, 3, 4, 5, 6}, nil, {7, 8}})
	if err != nil {
		panic(err)
	}
	defer arr.Release()
	col, err := varshape.ColumnOf[float32](arr)
	if err != nil {
		panic(err)
	}
	for i := range col.Len() {
		if col.IsNull(i) {
			fmt.Println(i, "null")
			continue
		}
		x := col.Tensor(i)
		fmt.Println(i, x.Shape(), x.At(x.Dim(0)-1, x.Dim(1)-1))
	}
	fmt.Println(typ.Serialize())
	// Output:
	// 0 [2 3] 6
	// 1 null
	// 2 [1 2] 8
	// {"dim_names":["t","f"]}
}
