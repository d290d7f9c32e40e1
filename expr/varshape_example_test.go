package expr_test

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/varshape"
)

// A center crop of images of different sizes. Compile alone makes it a
// variable-shape column (a smaller image would give a smaller crop); a
// caller who knows the images are all large enough asks for a
// fixed-shape column with WithResultType.
func ExampleWithResultType() {
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

	schema := arrow.NewSchema([]arrow.Field{{Name: "images", Type: typ, Nullable: true}}, nil)
	fixed := fixedshape.MustNewType(arrow.PrimitiveTypes.Uint8, metadata.MustNew([]int{224, 224, 3}, []string{"h", "w", "c"}, nil))
	p, err := expr.Compile("x[:224, :224]", schema, expr.WithResultType(fixed))
	if err != nil {
		panic(err)
	}
	crops, err := p.EvalColumn(images)
	if err != nil {
		panic(err)
	}
	defer crops.Release()
	fmt.Println(crops.(*fixedshape.Array).TensorType().Metadata(), crops.Len())
	// Output: (224,224,3) names=["h" "w" "c"] 3
}

// A writer's schema is fixed before its first batch: a Program over a
// variable-shape column decides its result type from the expression and
// the column type alone. A crop of images of any size is variable-shape
// (a smaller image gives a smaller crop), a pixel is fixed-shape; every
// batch is evaluated into the Schema's type, and a row that does not fit
// it fails.
func ExampleProgram_Schema() {
	typ := varshape.MustNewType(arrow.PrimitiveTypes.Uint8, 3, varshape.Options{
		DimNames:     []string{"h", "w", "c"},
		UniformShape: []int{varshape.Varies, varshape.Varies, 3},
	})
	schema := arrow.NewSchema([]arrow.Field{{Name: "images", Type: typ, Nullable: true}}, nil)
	for _, text := range []string{"x[:224, :224]", "x[0, 0]", "x.transpose(2, 0, 1)"} {
		p, err := expr.Compile(text, schema)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%-22s %v\n", text, p.Schema().Field(0).Type)
	}

	b, _ := varshape.NewBuilder[uint8](memory.DefaultAllocator, typ)
	for _, hw := range [][2]int{{240, 320}, {100, 300}} {
		if err := b.Append([]int{hw[0], hw[1], 3}, make([]uint8, hw[0]*hw[1]*3)); err != nil {
			panic(err)
		}
	}
	images := b.NewArray()
	defer images.Release()
	fixed, _ := fixedshape.NewType(arrow.PrimitiveTypes.Uint8, metadata.MustNew([]int{224, 224, 3}, []string{"h", "w", "c"}, nil))
	p, err := expr.Compile("x[:224, :224]", schema, expr.WithResultType(fixed))
	if err != nil {
		panic(err)
	}
	_, err = p.EvalColumn(images)
	fmt.Println(err)
	// Output:
	// x[:224, :224]          extension<arrow.variable_shape_tensor[value_type=uint8, ndim=3, dim_names=[h,w,c], uniform_shape=[null,null,3]]>
	// x[0, 0]                extension<arrow.fixed_shape_tensor[value_type=uint8, shape=[3], dim_names=[c]]>
	// x.transpose(2, 0, 1)   extension<arrow.variable_shape_tensor[value_type=uint8, ndim=3, dim_names=[c,h,w], uniform_shape=[3,null,null]]>
	// expr: row 1 (column "images" of shape (100,300,3)): the result's shape (100,224,3) differs from the column's (224,224,3), decided before data
}
