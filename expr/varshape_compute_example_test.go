package expr_test

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/varshape"
)

// Computing over images of different sizes: the per-image channel means
// are a fixed-shape (3) column whatever the sizes, the normalized images
// keep each row's shape, and the mean of each image is one value per row.
func ExampleProgram_EvalColumn() {
	typ := varshape.MustNewType(arrow.PrimitiveTypes.Uint8, 3, varshape.Options{
		DimNames:     []string{"h", "w", "c"},
		UniformShape: []int{varshape.Varies, varshape.Varies, 3},
	})
	b, _ := varshape.NewBuilder[uint8](memory.DefaultAllocator, typ)
	for _, hw := range [][2]int{{2, 3}, {4, 1}} {
		pixels := make([]uint8, hw[0]*hw[1]*3)
		for k := range pixels {
			pixels[k] = uint8(10 * (k % 3)) // channels 0, 10, 20
		}
		if err := b.Append([]int{hw[0], hw[1], 3}, pixels); err != nil {
			panic(err)
		}
	}
	images := b.NewArray()
	defer images.Release()

	schema := arrow.NewSchema([]arrow.Field{{Name: "images", Type: typ, Nullable: true}}, nil)
	for _, text := range []string{
		"x.astype(float32).mean(axis=(0, 1))",
		"(x.astype(float32) / 255 - float32([0.485, 0.456, 0.406])) / float32([0.229, 0.224, 0.225])",
		"x.mean()",
	} {
		p, err := expr.Compile(text, schema)
		if err != nil {
			panic(err)
		}
		out, err := p.EvalColumn(images)
		if err != nil {
			panic(err)
		}
		switch o := out.(type) {
		case *fixedshape.Array:
			c, err := fixedshape.ColumnOf[float32](o)
			if err != nil {
				panic(err)
			}
			fmt.Println("fixed", o.TensorType().Shape(), c.Tensor(1).PhysicalData())
		case *varshape.Array:
			fmt.Println("variable", o.Shape(nil, 0), o.Shape(nil, 1))
		default:
			fmt.Println(out.DataType(), out)
		}
		out.Release()
	}
	// Output:
	// fixed [3] [0 10 20]
	// variable [2 3 3] [4 1 3]
	// float64 [10 10]
}
