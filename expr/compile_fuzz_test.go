package expr_test

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/varshape"
)

// FuzzCompile compiles any text for a small schema of a fixed-shape, a
// plain, a variable-shape and a column whose name is not an identifier:
// it never panics, its errors wrap arrow.ErrInvalid or
// arrow.ErrNotImplemented, the expression it compiled over a fixed-shape
// or plain column (a Plan's chain, or the engine's graph, read back with
// x and the columns unbound) prints and parses back to an equal one, and
// evaluating a batch with a null row gives
// Schema's type or an error.
func FuzzCompile(f *testing.F) {
	for _, s := range []string{
		"x", "a * 2", "norm(a, axis=-1)", "a.mean()", `col("a b").T`, "n + 1", "v.max()", "v[:1]",
		"x.sum(axis=0)", "a + n", `col('a b')[0]`, "dot(a, [1.0, 0, 2])", "n * [1, 2]", "col(", `col("`,
		"unknown", "np.x", "v.astype(float32).mean(axis=(0, 1))",
		"a - a.mean()", "a @ a.T", "where(a > 0, a, n)", "concatenate((a, col('a b').T), axis=0)",
		"einsum('ij,kj->ik', a, a)", "norm(a - col('a b').T, axis=-1)", "(a * n).sum(axis=0).max()",
		// Folded integers beyond the literals' MaxInt print as sums.
		"7**20 % a", "n * (0 - 7**20)", "n + (2**62 - 1 + 2**62)", "n + (0 - 2**62 - 2**62)", "n - 2**53 - 1",
	} {
		f.Add(s, true)
		f.Add(s, false)
	}
	a := mustFixed(f, f32, 2, 3)
	ab := mustFixed(f, i16, 3, 2)
	vt := mustVar(f, u8, varshape.Varies, 2)
	schema := schemaOf(arrow.Field{Name: "a", Type: a, Nullable: true}, arrow.Field{Name: "n", Type: i64, Nullable: true},
		arrow.Field{Name: "v", Type: vt, Nullable: true}, arrow.Field{Name: "a b", Type: ab, Nullable: true})
	rec := fuzzBatch(f, schema)
	defer rec.Release()
	f.Fuzz(func(t *testing.T, text string, withInput bool) {
		var opts []expr.Option
		if withInput {
			opts = append(opts, expr.WithInput("a"))
		}
		p, err := expr.Compile(text, schema, opts...)
		if err != nil {
			if !errors.Is(err, arrow.ErrInvalid) && !errors.Is(err, arrow.ErrNotImplemented) {
				t.Fatalf("Compile(%q): %v wraps neither ErrInvalid nor ErrNotImplemented", text, err)
			}
			return
		}
		if e := expr.ProgramExpr(p); e != nil {
			var in expr.Expr // a graph's text: x and the columns unbound
			for _, fd := range schema.Fields() {
				if fd.Name == p.Input() && !p.Graph() {
					if ft, ok := fixedshape.TypeOf(fd.Type); ok {
						in = expr.Input(ft)
					} else {
						in = expr.Input(mustFixed(t, fd.Type)) // a plain column: 0-D tensors
					}
				}
			}
			s := e.String()
			e2, err := expr.Parse(s, in)
			if err != nil {
				t.Fatalf("%q prints as %q, which does not parse: %v", text, s, err)
			}
			if !expr.Equal(e, e2) || e2.String() != s {
				t.Fatalf("%q prints as %q, which parses to %q", text, s, e2)
			}
		}
		out, err := p.Eval(rec)
		if err != nil {
			if !errors.Is(err, arrow.ErrInvalid) && !errors.Is(err, arrow.ErrNotImplemented) {
				t.Fatalf("Eval(%q): %v", text, err)
			}
			return
		}
		defer out.Release()
		if !arrow.TypeEqual(out.Column(0).DataType(), p.Schema().Field(0).Type) || out.NumRows() != rec.NumRows() {
			t.Fatalf("%q: Eval gives %d rows of %v, Schema is %v", text, out.NumRows(), out.Column(0).DataType(), p.Schema())
		}
		if !out.Column(0).IsNull(1) {
			t.Errorf("%q: the null row's result is not null", text)
		}
	})
}

// fuzzBatch returns 3 rows of schema, row 1 null in every column.
func fuzzBatch(t testing.TB, schema *arrow.Schema) arrow.RecordBatch {
	valid := []bool{true, false, true}
	mem := memory.DefaultAllocator
	a, err := fixedshape.FromSlice(schema.Field(0).Type.(*fixedshape.Type), []float32{1, 2, 3, 4, 5, 6, 0, 0, 0, 0, 0, 0, -1, 0.5, 7, 8, 9, 10}, valid)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	b := array.NewInt64Builder(mem)
	defer b.Release()
	b.AppendValues([]int64{3, 0, -4}, valid)
	n := b.NewArray()
	defer n.Release()
	vt, _ := varshape.TypeOf(schema.Field(2).Type)
	v, err := varshape.FromSlices(mem, vt, [][]int{{2, 2}, nil, {1, 2}}, [][]uint8{{1, 2, 3, 4}, nil, {5, 6}})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Release()
	ab, err := fixedshape.FromSlice(schema.Field(3).Type.(*fixedshape.Type), []int16{1, 2, 3, 4, 5, 6, 0, 0, 0, 0, 0, 0, 7, 8, 9, 10, 11, 12}, valid)
	if err != nil {
		t.Fatal(err)
	}
	defer ab.Release()
	return array.NewRecordBatch(schema, []arrow.Array{a, n, v, ab}, 3)
}
