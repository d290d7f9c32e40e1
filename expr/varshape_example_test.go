package expr_test

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/varshape"
)

// A center crop of images of different sizes: every result has the same
// shape, so the result is a fixed-shape column.
func ExampleParseVar() {
	typ := varshape.MustNewType(arrow.PrimitiveTypes.Uint8, 3, varshape.Options{
		DimNames:     []string{"h", "w", "c"},
		UniformShape: []int{varshape.Varies, varshape.Varies, 3},
	})
	b, _ := varshape.NewBuilder[uint8](memory.DefaultAllocator, typ)
	for _, hw := range [][2]int{{240, 320}, {224, 224}, {300, 250}} {
		pixels := make([]uint8, hw[0]*hw[1]*3)
		if err := b.Append([]int{hw[0], hw[1], 3}, pixels); err != nil {
			panic(err)
		}
	}
	images := b.NewArray()
	defer images.Release()

	crops, err := expr.ParseVar("x[:224, :224]", typ).Eval(images)
	if err != nil {
		panic(err)
	}
	defer crops.Release()
	fmt.Println(crops.(*fixedshape.Array).TensorType().Metadata(), crops.Len())
	// Output: (224,224,3) names=["h" "w" "c"] 3
}
