package expr_test

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

func Example() {
	// Two 2x3 int32 tensors; take column 1..2 reversed, transposed.
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Int32, metadata.MustNew([]int{2, 3}, []string{"h", "w"}, nil))
	in, _ := fixedshape.FromSlice(typ, []int32{1, 2, 3, 4, 5, 6, 10, 20, 30, 40, 50, 60}, nil)
	defer in.Release()

	e, err := expr.Parse("x[:, :0:-1].T", expr.Input(typ))
	if err != nil {
		panic(err)
	}
	fmt.Println(e, e.Metadata())
	p, err := expr.CompilePlan(e)
	if err != nil {
		panic(err)
	}
	out, err := p.Eval(in, expr.WithAllocator(memory.DefaultAllocator))
	if err != nil {
		panic(err)
	}
	defer out.Release()
	fmt.Println(out)
	// Output:
	// x[:, :0:-1].T (2,2) names=["w" "h"]
	// [[[3,6],[2,5]] [[30,60],[20,50]]]
}

func ExampleParse() {
	x := expr.InputOf(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{8, 3, 224, 224}, nil, nil))
	for _, text := range []string{"x[..., 16:-16, ::2]", "x.transpose(0, 2, 3, 1)", "x[None, 0].reshape(3, -1)", "x[8]"} {
		e, err := expr.Parse(text, x)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(e, metadata.FormatShape(e.Metadata().Shape()))
	}
	// Output:
	// x[..., 16:-16, ::2] (8,3,192,112)
	// x.transpose(0, 2, 3, 1) (8,224,224,3)
	// x[None, 0].reshape(3, -1) (3,50176)
	// expr: index 8 is out of bounds for axis 0 with size 8 at offset 4 of "x[8]"
}

func ExampleCompilePlan() {
	// A 3-cycle permuted input (physical shape (3,4,2)): the planner folds
	// its layout into the view, and transpose(1, 2, 0) undoes it, so the
	// result is the physical buffer as it is (identity permutation).
	x := expr.InputOf(arrow.PrimitiveTypes.Float64, metadata.MustNew([]int{2, 3, 4}, nil, []int{2, 0, 1}))
	p, err := expr.CompilePlan(expr.MustParse("x[1].reshape(-1)", x))
	if err != nil {
		panic(err)
	}
	fmt.Println(p)
	perm, ok := expr.MustCompilePlan(expr.MustParse("x.transpose(1, 2, 0)", x)).Relabel()
	fmt.Println(perm, ok)
	// Output:
	// x[1].reshape(-1)
	// stage 0: shape (12,) strides [2] offset 1 kernel gather
	// [] true
}

func ExampleApply() {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Int16, metadata.MustNew([]int{2, 2}, nil, nil))
	in, _ := fixedshape.FromSlice(typ, []int16{1, 2, 3, 4}, nil)
	defer in.Release()
	col, _ := fixedshape.ColumnOf[int16](in)
	p := expr.MustCompilePlan(expr.Transpose(expr.Input(typ)))
	var buf []int16
	t, err := expr.Apply(p, buf, col.Tensor(0))
	if err != nil {
		panic(err)
	}
	fmt.Println(t.PhysicalData(), t.At(0, 1))
	// Output: [1 3 2 4] 3
}

// Open-ended slices in Go, without sentinels: the crop x[4:-4, 2:] and the
// flip x[::-1, :].
func ExampleFrom() {
	x := expr.InputOf(arrow.PrimitiveTypes.Uint8, metadata.MustNew([]int{32, 32, 3}, []string{"H", "W", "C"}, nil))
	crop := expr.Subscript(x, expr.Range(4, -4), expr.From(2))
	flip := expr.Subscript(x, expr.Step(-1), expr.All())
	odd := expr.Subscript(x, expr.From(1).By(2), expr.To(-1).By(3))
	for _, e := range []expr.Expr{crop, flip, odd} {
		fmt.Println(e, e.Metadata())
	}
	// Output:
	// x[4:-4, 2:] (24,30,3) names=["H" "W" "C"]
	// x[::-1, :] (32,32,3) names=["H" "W" "C"]
	// x[1::2, :-1:3] (16,11,3) names=["H" "W" "C"]
}

// The type of the result column before any data, for an output schema.
func ExamplePlan_ResultType() {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{3, 224, 224}, []string{"C", "H", "W"}, nil))
	p, err := expr.CompilePlan(expr.Transpose(expr.Subscript(expr.Input(typ), expr.All(), expr.Range(16, -16), expr.Range(16, -16)), 1, 2, 0))
	if err != nil {
		panic(err)
	}
	out, err := p.ResultType()
	if err != nil {
		panic(err)
	}
	fmt.Println(out)
	// Output:
	// extension<arrow.fixed_shape_tensor[value_type=float, shape=[192,192,3], dim_names=[H,W,C]]>
}

// The first rows of each tensor: x[:2].
func ExampleTo() {
	x := expr.InputOf(arrow.PrimitiveTypes.Int8, metadata.MustNew([]int{4, 5}, nil, nil))
	e := expr.Subscript(x, expr.To(2))
	fmt.Println(e, metadata.FormatShape(e.Metadata().Shape()))
	// Output: x[:2] (2,5)
}

// Every other column: x[:, ::2].
func ExampleStep() {
	x := expr.InputOf(arrow.PrimitiveTypes.Int8, metadata.MustNew([]int{4, 5}, nil, nil))
	e := expr.Subscript(x, expr.All(), expr.Step(2))
	fmt.Println(e, metadata.FormatShape(e.Metadata().Shape()))
	// Output: x[:, ::2] (4,3)
}

// Rows 1 to 3 in reverse order: x[3:0:-1].
func ExampleRange() {
	x := expr.InputOf(arrow.PrimitiveTypes.Int8, metadata.MustNew([]int{4, 5}, nil, nil))
	e := expr.Subscript(x, expr.Range(3, 0).By(-1))
	fmt.Println(e, metadata.FormatShape(e.Metadata().Shape()))
	// Output: x[3:0:-1] (3,5)
}

// A step on an open-ended slice: x[1::2].
func ExampleItem_By() {
	x := expr.InputOf(arrow.PrimitiveTypes.Int8, metadata.MustNew([]int{4, 5}, nil, nil))
	e := expr.Subscript(x, expr.From(1).By(2))
	fmt.Println(e, metadata.FormatShape(e.Metadata().Shape()))
	// Output: x[1::2] (2,5)
}
