package expr_test

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

// Normalize uint8 HWC images to float32 with per-channel mean and
// standard deviation, as torchvision's Normalize after ToTensor does
// (typed constants keep the result float32).
func Example_normalize() {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Uint8, metadata.MustNew([]int{1, 2, 3}, []string{"h", "w", "c"}, nil))
	in, _ := fixedshape.FromSlice(typ, []uint8{0, 128, 255, 255, 0, 64}, nil)
	defer in.Release()

	e, err := expr.Parse("(x.astype(float32) / 255 - float32([0.485, 0.456, 0.406])) / float32([0.229, 0.224, 0.225])", expr.Input(typ))
	if err != nil {
		panic(err)
	}
	p, err := expr.CompilePlan(e)
	if err != nil {
		panic(err)
	}
	t, _ := p.ResultType()
	fmt.Println(t)
	out, err := p.Eval(in)
	if err != nil {
		panic(err)
	}
	defer out.Release()
	fmt.Println(out)
	// Output:
	// extension<arrow.fixed_shape_tensor[value_type=float, shape=[1,2,3], dim_names=[h,w,c]]>
	// [[[[-2.117904,0.2051822,2.64],[2.2489083,-2.0357141,-0.68897593]]]]
}

// One value per row: the mean and the position of the largest element of
// each tensor, and a per-channel mean as a tensor column.
func Example_reduce() {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Int16, metadata.MustNew([]int{2, 3}, nil, nil))
	in, _ := fixedshape.FromSlice(typ, []int16{1, 2, 3, 4, 5, 6, 9, -1, 9, 0, 0, 0}, []bool{true, true})
	defer in.Release()

	for _, text := range []string{"x.mean()", "x.argmax()", "x.max(axis=0)", "norm(x, axis=1)"} {
		p := expr.MustCompilePlan(expr.MustParse(text, expr.Input(typ)))
		out, err := p.Eval(in)
		if err != nil {
			panic(err)
		}
		fmt.Println(text, out.DataType(), out)
		out.Release()
	}
	// Output:
	// x.mean() float64 [3.5 2.8333333333333335]
	// x.argmax() int64 [5 0]
	// x.max(axis=0) extension<arrow.fixed_shape_tensor[value_type=int16, shape=[3]]> [[4,5,6] [9,0,9]]
	// norm(x, axis=1) extension<arrow.fixed_shape_tensor[value_type=double, shape=[2]]> [[3.7416573867739413,8.774964387392123] [12.767145334803704,0]]
}
