package expr_test

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor"
	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/varshape"
)

// TestInvalidOptions: every evaluation refuses an invalid option value
// before it starts, with an *expr.Error wrapping fstensor.ErrOption and
// arrow.ErrInvalid, for view and computing expressions, fixed- and
// variable-shape.
func TestInvalidOptions(t *testing.T) {
	mem := testvec.CheckedMem(t)
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{2, 3}, nil, nil))
	in := testvec.Column[float32](t, mem, typ, []bool{false, true}, 0)
	defer in.Release()

	vtyp := varshape.MustNewType(arrow.PrimitiveTypes.Float32, 2, varshape.Options{})
	vb, err := varshape.NewBuilder[float32](mem, vtyp)
	if err != nil {
		t.Fatal(err)
	}
	if err := vb.Append([]int{2, 2}, make([]float32, 4)); err != nil {
		t.Fatal(err)
	}
	vin := vb.NewArray()
	defer vin.Release()

	x := expr.Input(typ)
	view := expr.MustCompilePlan(expr.MustParse("x.T", x))
	compute := expr.MustCompilePlan(expr.MustParse("x * 2", x))
	vschema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: vtyp, Nullable: true}}, nil)
	dst := make([]byte, 2*6*4)
	entries := []struct {
		name string
		call func(opts ...expr.Option) error
	}{
		{"Eval view", func(opts ...expr.Option) error { return release(view.Eval(in, opts...)) }},
		{"Eval compute", func(opts ...expr.Option) error { return release(compute.Eval(in, opts...)) }},
		{"EvalInto view", func(opts ...expr.Option) error { return view.EvalInto(dst, in, opts...) }},
		{"EvalInto compute", func(opts ...expr.Option) error { return compute.EvalInto(dst, in, opts...) }},
		{"Compile over a variable-shape column", func(opts ...expr.Option) error {
			p, err := expr.Compile("x.T", vschema, opts...)
			if err != nil {
				return err
			}
			return release(p.EvalColumn(vin))
		}},
	}
	tests := []struct {
		name string
		opt  expr.Option
	}{
		{"nil allocator", expr.WithAllocator(nil)},
		{"zero workers", expr.WithWorkers(0)},
		{"negative workers", expr.WithWorkers(-1)},
	}
	for _, e := range entries {
		t.Run(e.name+"/valid", func(t *testing.T) {
			if err := e.call(expr.WithAllocator(mem), expr.WithWorkers(1)); err != nil {
				t.Fatal(err)
			}
		})
		for _, tt := range tests {
			t.Run(e.name+"/"+tt.name, func(t *testing.T) {
				err := e.call(expr.WithAllocator(mem), tt.opt)
				var ee *expr.Error
				if !errors.Is(err, fstensor.ErrOption) || !errors.Is(err, arrow.ErrInvalid) || !errors.As(err, &ee) {
					t.Errorf("error %v, want an *expr.Error wrapping fstensor.ErrOption and arrow.ErrInvalid", err)
				}
			})
		}
	}
}

// release releases a when err is nil and returns err.
func release[T interface{ Release() }](a T, err error) error {
	if err == nil {
		a.Release()
	}
	return err
}
