package expr_test

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

// Variance and standard deviation per row and per column, with NumPy's
// ddof; the Go form of x.std(axis=0, ddof=1) is ReduceDdof.
func Example_varStd() {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Int16, metadata.MustNew([]int{2, 3}, nil, nil))
	in, _ := fixedshape.FromSlice(typ, []int16{1, 2, 3, 4, 5, 6, 9, -1, 9, 0, 0, 0}, nil)
	defer in.Release()

	for _, e := range []expr.Expr{
		expr.MustParse("x.var()", expr.Input(typ)),
		expr.MustParse("var(x, axis=1, ddof=1)", expr.Input(typ)),
		expr.ReduceDdof(expr.Input(typ), expr.Std, 1, false, 0),
	} {
		out, err := expr.MustCompilePlan(e).Eval(in)
		if err != nil {
			panic(err)
		}
		fmt.Println(e, out)
		out.Release()
	}
	// Output:
	// x.var() [2.9166666666666665 19.13888888888889]
	// x.var(axis=1, ddof=1) [[1,1] [33.33333333333333,0]]
	// x.std(axis=0, ddof=1) [[2.1213203435596424,2.1213203435596424,2.1213203435596424] [6.363961030678928,0.7071067811865476,6.363961030678928]]
}
