package expr_test

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
)

// evalPlan compiles e's Plan and evaluates it over in.
func evalPlan(e expr.Expr, in *fixedshape.Array, opts ...expr.Option) (arrow.Array, error) {
	p, err := expr.CompilePlan(e)
	if err != nil {
		return nil, err
	}
	return p.Eval(in, opts...)
}

// evalTensors is evalPlan for an expression whose result is a tensor
// column.
func evalTensors(e expr.Expr, in *fixedshape.Array, opts ...expr.Option) (*fixedshape.Array, error) {
	out, err := evalPlan(e, in, opts...)
	if err != nil {
		return nil, err
	}
	a, ok := out.(*fixedshape.Array)
	if !ok {
		out.Release()
		return nil, fmt.Errorf("a result of %v, not a tensor column", out.DataType())
	}
	return a, nil
}

// planType returns the result type of e's Plan.
func planType(e expr.Expr) (arrow.DataType, error) {
	p, err := expr.CompilePlan(e)
	if err != nil {
		return nil, err
	}
	return p.ResultType()
}
