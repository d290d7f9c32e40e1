package expr_test

import (
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/expr"
)

// FuzzGraphVsPlan evaluates chain texts twice over the batch of
// graphBatch: through the Plan Compile picks and through the engine
// (expr.CompileGraph). Both compile or neither does; the result types,
// null rows and values agree (integers and bools exactly, floats within
// 1e-4 of their magnitude: the two accumulate sums differently).
func FuzzGraphVsPlan(f *testing.F) {
	for _, s := range []string{
		"a * 2 + 1", "a.T[::-1, 1:]", "c.sum(axis=(0, 1))", "c[0, ::-1] - 3", "p.T * 2", "p[:, None, 1:]", "u.astype(float32) / 255",
		"i.max(axis=1)", "i.argmin()", "norm(a, axis=-1)", "a.var(axis=0, ddof=1)", "dot(v, [1.0, -2.0, 0.5])", "abs(i - 3).clip(1, 4)",
		"c.reshape(4, 2).T.reshape(-1)", "s * 2", "z.reshape(1, 1) + 1", "sqrt(abs(p)).mean(axis=0)", "u[..., 1].sum()", "x",
	} {
		f.Add(s)
	}
	mem := memory.NewGoAllocator()
	rec := graphBatch(f, mem)
	defer rec.Release()
	f.Fuzz(func(t *testing.T, text string) {
		p, err := expr.Compile(text, rec.Schema())
		if err != nil || p.Graph() {
			return
		}
		g, err := expr.CompileGraph(text, rec.Schema())
		if err != nil {
			t.Fatalf("%q compiles as a chain, not as a graph: %v", text, err)
		}
		if !arrow.TypeEqual(p.Schema().Field(0).Type, g.Schema().Field(0).Type) {
			t.Fatalf("%q: chain type %v, graph type %v", text, p.Schema().Field(0).Type, g.Schema().Field(0).Type)
		}
		want, err1 := p.Eval(rec)
		got, err2 := g.Eval(rec)
		if (err1 == nil) != (err2 == nil) {
			t.Fatalf("%q: chain error %v, graph error %v", text, err1, err2)
		}
		if err1 != nil {
			return
		}
		defer want.Release()
		defer got.Release()
		wv, wvalid := resultValues(t, want.Column(0))
		gv, gvalid := resultValues(t, got.Column(0))
		if len(wv) != len(gv) || len(wvalid) != len(gvalid) {
			t.Fatalf("%q: chain %v, graph %v", text, wv, gv)
		}
		for i := range wvalid {
			if wvalid[i] != gvalid[i] {
				t.Fatalf("%q: row %d valid %v in the chain, %v in the graph", text, i, wvalid[i], gvalid[i])
			}
		}
		for i := range wv {
			a, b := wv[i], gv[i]
			if a == b || math.IsNaN(a) && math.IsNaN(b) || math.Abs(a-b) <= 1e-4*math.Max(1, math.Max(math.Abs(a), math.Abs(b))) {
				continue
			}
			t.Fatalf("%q: element %d is %v in the chain, %v in the graph", text, i, a, b)
		}
	})
}
