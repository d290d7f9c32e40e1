package expr_test

import (
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
)

// TestPlanReuse evaluates each plan on one column and then on another,
// and checks the second result against a fresh plan's: nothing of the
// first evaluation (the workers a plan keeps between evaluations) may
// leak into the next.
func TestPlanReuse(t *testing.T) {
	mem := testvec.CheckedMem(t)
	r := rand.New(rand.NewPCG(11, 12))
	f32 := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{4, 32, 3}, nil, nil))
	u8 := fixedshape.MustNewType(arrow.PrimitiveTypes.Uint8, metadata.MustNew([]int{5, 7, 3}, nil, nil))
	column := func(typ *fixedshape.Type, rows int, nulls bool) *fixedshape.Array {
		valid := make([]bool, rows)
		for i := range valid {
			valid[i] = !nulls || i%3 != 1
		}
		var a *fixedshape.Array
		var err error
		if typ == u8 {
			data := make([]uint8, rows*typ.ListSize())
			for i := range data {
				data[i] = uint8(r.Uint32())
			}
			a, err = fixedshape.FromSlice(typ, data, valid)
		} else {
			data := make([]float32, rows*typ.ListSize())
			for i := range data {
				data[i] = float32(r.IntN(2000)-1000) / 8
			}
			a, err = fixedshape.FromSlice(typ, data, valid)
		}
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	for _, tc := range []struct {
		name string
		typ  *fixedshape.Type
		text string
	}{
		{"sum", f32, "x.sum()"},
		{"mean axis 0", f32, "x.mean(axis=0)"},
		{"max", f32, "x.max(axis=(0, 1))"},
		{"argmax", f32, "x.argmax(axis=1)"},
		{"norm", f32, "norm(x, axis=-1)"},
		{"dot", f32, "dot(x, float32([0.5]))"},
		{"crop sum", f32, "x[:, 1:3].sum(axis=(0, 1))"},
		{"program then sum", f32, "(x * 2 + 1).sum(axis=1)"},
		{"sum then program", f32, "x.sum(axis=0) * 2"},
		{"channel mean", u8, "x.astype(float32).mean(axis=(0, 1))"},
		{"channel sum", u8, "x.sum(axis=(0, 1))"},
		{"byte mean", u8, "x.mean()"},
		{"normalize", u8, "x.astype(float32) / 255 - float32([0.5, 0.25, 0.125])"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := expr.MustCompilePlan(expr.MustParse(tc.text, expr.Input(tc.typ)))
			a, b := column(tc.typ, 7, false), column(tc.typ, 9, true)
			defer a.Release()
			defer b.Release()
			for _, in := range []*fixedshape.Array{a, b, a} {
				got, err := p.Eval(in, expr.WithWorkers(1), expr.WithAllocator(mem))
				if err != nil {
					t.Fatal(err)
				}
				fresh := expr.MustCompilePlan(expr.MustParse(tc.text, expr.Input(tc.typ)))
				want, err := fresh.Eval(in, expr.WithWorkers(1), expr.WithAllocator(mem))
				if err != nil {
					t.Fatal(err)
				}
				if !array.Equal(want, got) {
					t.Errorf("after earlier evaluations:\n got %v\nwant %v", got, want)
				}
				got.Release()
				want.Release()
			}
		})
	}
}
