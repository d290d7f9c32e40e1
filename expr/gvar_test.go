package expr_test

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/varshape"
)

// TestVarGraphSchema checks the result types of graphs over
// variable-shape columns, decided before data: plain for a result of no
// axis, fixed-shape when no axis depends on the rows' free sizes,
// variable-shape with the fixed axes as its uniform shape otherwise.
func TestVarGraphSchema(t *testing.T) {
	const V = varshape.Varies
	emb := mustVar(t, f32, V)
	img := mustVar(t, u8, V, V, 3)
	mat := mustVar(t, f32, V, V)
	perm, err := varshape.NewType(f32, 3, varshape.Options{Permutation: []int{1, 2, 0}, UniformShape: []int{V, 2, V}})
	if err != nil {
		t.Fatal(err)
	}
	free := func(elem arrow.DataType, ndim int) arrow.DataType {
		return varshape.MustNewType(elem, ndim, varshape.Options{})
	}
	schema := schemaOf(arrow.Field{Name: "emb", Type: emb}, arrow.Field{Name: "img", Type: img}, arrow.Field{Name: "mat", Type: mat},
		arrow.Field{Name: "perm", Type: perm}, arrow.Field{Name: "q", Type: mustFixed(t, f32, 4)}, arrow.Field{Name: "scale", Type: f64})
	cases := []struct {
		name string
		text string
		want arrow.DataType
		err  error
	}{
		{name: "normalize", text: "emb / norm(emb, axis=-1, keepdims=True)", want: free(f32, 1)},
		{name: "0-D: a reduction of a computed tensor", text: "(emb - emb.mean()).sum()", want: f32},
		{name: "per-row number", text: "emb.mean() * scale", want: f64},
		{name: "channel sums of images", text: "(img - img.min()).sum(axis=(0, 1))", want: mustFixed(t, arrow.PrimitiveTypes.Uint64, 3)},
		{name: "standardize keeps the channel axis", text: "img - img.mean(axis=(0, 1), keepdims=True)", want: mustVar(t, f64, V, V, 3)},
		{name: "projection by a constant", text: "emb @ [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]", want: mustFixed(t, f64, 2)},
		{name: "non-square matmul", text: "mat @ mat.T", want: free(f32, 2)},
		{name: "slice of a free axis", text: "(emb * 2)[:3] + emb.max()", want: free(f32, 1)},
		{name: "size-0 axis", text: "(emb * 2)[:0]", want: mustVar(t, f32, 0)},
		{name: "reshape after computing", text: "(mat + 1).reshape(2, -1)", want: mustVar(t, f32, 2, V)},
		{name: "3-cycle permutation", text: "perm.transpose(2, 0, 1) + perm.max()", want: mustVar(t, f32, V, V, 2)},
		{name: "var with fixed", text: "emb[:4] - q", want: mustFixed(t, f32, 4)},
		{name: "two columns", text: "emb + mat", want: free(f32, 2)},
		{name: "bool tensors of free shape", text: "emb > 0", want: free(arrow.FixedWidthTypes.Boolean, 1)},
		{name: "bool tensors, a fixed axis kept", text: "isnan(img) | (img == 0)", want: mustVar(t, arrow.FixedWidthTypes.Boolean, V, V, 3)},
		{name: "bool tensors of a view", text: "~(mat[:, 1:] == 0)", want: free(arrow.FixedWidthTypes.Boolean, 2)},
		{name: "bool tensors counted", text: "(emb > 0).sum()", want: arrow.PrimitiveTypes.Int64},
		{name: "bool tensors of a fixed shape", text: "img.max(axis=(0, 1)) > 3", want: mustFixed(t, arrow.FixedWidthTypes.Boolean, 3)},
		{name: "unknown column", text: "emb + nope", err: arrow.ErrInvalid},
		{name: "type error", text: "(emb > 0) - (emb > 1)", err: arrow.ErrInvalid},
		{name: "index out of bounds of a fixed axis", text: "(img * 2)[..., 5]", err: arrow.ErrInvalid},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := expr.Compile(c.text, schema)
			if c.err != nil {
				if !errors.Is(err, c.err) {
					t.Fatalf("Compile(%q) = %v, want an error wrapping %v", c.text, err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Compile(%q): %v", c.text, err)
			}
			if !p.Graph() {
				t.Errorf("Compile(%q).Graph() = false", c.text)
			}
			if diff := cmp.Diff(c.want.String(), p.Schema().Field(0).Type.String()); diff != "" {
				t.Errorf("Compile(%q) type (-want +got):\n%s", c.text, diff)
			}
		})
	}
	// Built in Go, as its text.
	e := expr.Binary(expr.Sub, expr.Col("emb"), expr.Reduce(expr.Col("emb"), expr.Mean, false))
	p, err := expr.CompileExpr(e, schema)
	if err != nil {
		t.Fatalf("CompileExpr(%v): %v", e, err)
	}
	if diff := cmp.Diff(free(f32, 1).String(), p.Schema().Field(0).Type.String()); diff != "" {
		t.Errorf("CompileExpr(%v) type (-want +got):\n%s", e, diff)
	}
}

// varGraphRef evaluates text over row i of the batch's columns reads alone, each
// variable-shape column read as a one-row fixed-shape column of its
// row's shape, and returns the bytes of the result and its shape ("" for
// a row of no element, which no fixed-shape column holds).
func varGraphRef(t *testing.T, rec arrow.RecordBatch, reads []int, i int, text string, opts []expr.Option) ([]byte, string) {
	t.Helper()
	var fields []arrow.Field
	var cols []arrow.Array
	for _, k := range reads {
		f := rec.Schema().Field(k)
		var a arrow.Array
		if va, ok := rec.Column(k).(*varshape.Array); ok {
			row, err := va.Row(i)
			if errors.Is(err, arrow.ErrNotImplemented) {
				return nil, "" // a row of no element: no one-row fixed-shape column
			}
			if err != nil {
				t.Fatal(err)
			}
			a = row
		} else {
			a = array.NewSlice(rec.Column(k), int64(i), int64(i+1))
		}
		defer a.Release()
		fields, cols = append(fields, arrow.Field{Name: f.Name, Type: a.DataType(), Nullable: true}), append(cols, a)
	}
	one := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, 1)
	defer one.Release()
	p, err := expr.Compile(text, one.Schema(), opts...)
	if err != nil {
		t.Fatalf("row %d alone: Compile(%q): %v", i, text, err)
	}
	out, err := p.Eval(one)
	if err != nil {
		t.Fatalf("row %d alone: Eval(%q): %v", i, text, err)
	}
	defer out.Release()
	shape := "()"
	if ft, ok := fixedshape.TypeOf(out.Column(0).DataType()); ok {
		shape = fmt.Sprint(ft.Shape())
	}
	return bytes.Clone(testvec.ResultBytes(out.Column(0), 0)), shape
}

// varGraphShape returns the shape of row i of a result column.
func varGraphShape(a arrow.Array, i int) string {
	if va, ok := a.(*varshape.Array); ok {
		return fmt.Sprint(va.Shape(nil, i))
	}
	if ft, ok := fixedshape.TypeOf(a.DataType()); ok {
		return fmt.Sprint(ft.Shape())
	}
	return "()"
}

// TestVarGraphEval evaluates graphs over variable-shape columns (a
// 3-cycle permuted type, rows of no element, null rows, more distinct
// row shapes than the programs kept, two variable-shape columns, fixed
// and plain columns) on one and two workers, and checks each valid row
// against the same text over that row alone as fixed-shape columns, and
// a slice of the batch against the same rows of the whole result.
func TestVarGraphEval(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	const rows = 150
	emb := mustVar(t, f32, varshape.Varies)
	perm, err := varshape.NewType(arrow.PrimitiveTypes.Int16, 3, varshape.Options{Permutation: []int{1, 2, 0}})
	if err != nil {
		t.Fatal(err)
	}
	var embShapes, permShapes [][]int
	for i := range rows {
		n := []int{i % 70, 3, 3, 3, 5, 0}[min(i%9, 5)] // 70 sizes: more than the programs kept
		embShapes = append(embShapes, []int{n})
		permShapes = append(permShapes, []int{1 + i%2, 2 + i%3, 3})
		if i%11 == 4 {
			embShapes[i] = nil
		}
		if i%13 == 6 {
			permShapes[i] = nil
		}
	}
	e := numColumn(t, mem, emb, embShapes)
	defer e.Release()
	p := numColumn(t, mem, perm, permShapes)
	defer p.Release()
	bShapes := make([][]int, rows)
	for i := range rows {
		bShapes[i] = []int{1}
		if i%5 == 0 && embShapes[i] != nil {
			bShapes[i] = embShapes[i]
		}
	}
	b := numColumn(t, mem, emb, bShapes)
	defer b.Release()
	scale := testvec.SeqColumn(t, mem, mustFixed(t, f32), rows, nil)
	defer scale.Release()
	schema := schemaOf(arrow.Field{Name: "e", Type: emb, Nullable: true}, arrow.Field{Name: "p", Type: perm, Nullable: true},
		arrow.Field{Name: "b", Type: emb, Nullable: true}, arrow.Field{Name: "s", Type: scale.DataType(), Nullable: true})
	rec := array.NewRecordBatch(schema, []arrow.Array{e, p, b, scale}, rows)
	defer rec.Release()
	cases := []struct {
		text  string
		reads []int // the columns read
	}{
		{"e / norm(e, axis=-1, keepdims=True)", []int{0}},
		{"e - e.mean() + s", []int{0, 3}},
		{"where(e > 0, e, b)", []int{0, 2}},
		{"(e * b).sum()", []int{0, 2}},
		{"p.transpose(2, 0, 1)[0] * 3 - p.sum(axis=2)", []int{1}},
		{"(p // 2)[..., 1:].max(axis=0).sum()", []int{1}},
		{"p.reshape(-1)[::2].astype(float32) + s", []int{1, 3}},
	}
	for _, c := range cases {
		text := c.text
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprintf("text=%s/workers=%d", text, workers), func(t *testing.T) {
				prog, err := expr.Compile(text, schema, expr.WithAllocator(mem), expr.WithWorkers(workers))
				if err != nil {
					t.Fatalf("Compile: %v", err)
				}
				out, err := prog.Eval(rec)
				if err != nil {
					t.Fatalf("Eval: %v", err)
				}
				defer out.Release()
				if got := prog.VarPrograms(); got < 1 || got > 64 {
					t.Errorf("%d programs kept, want 1 to 64", got)
				}
				res := out.Column(0)
				if !arrow.TypeEqual(res.DataType(), prog.Schema().Field(0).Type) {
					t.Fatalf("result type %v, Schema %v", res.DataType(), prog.Schema().Field(0).Type)
				}
				// A slice of the batch gives the slice of the result.
				part := rec.NewSlice(7, 131)
				defer part.Release()
				sub, err := prog.Eval(part)
				if err != nil {
					t.Fatalf("Eval of a slice: %v", err)
				}
				defer sub.Release()
				whole := array.NewSlice(res, 7, 131)
				defer whole.Release()
				if !array.Equal(whole, sub.Column(0)) {
					t.Errorf("Eval of rows 7 to 130 differs from those rows of the whole batch's result")
				}
				for i := range rows {
					null := slices.ContainsFunc(c.reads, func(k int) bool { return rec.Column(k).IsNull(i) })
					if res.IsNull(i) != null {
						t.Fatalf("row %d: null %v, want %v", i, res.IsNull(i), null)
					}
					if null {
						continue
					}
					want, wantShape := varGraphRef(t, rec, c.reads, i, text, []expr.Option{expr.WithAllocator(mem)})
					if wantShape == "" {
						continue
					}
					if diff := cmp.Diff(wantShape, varGraphShape(res, i)); diff != "" {
						t.Fatalf("row %d shape (-want +got):\n%s", i, diff)
					}
					if diff := cmp.Diff(want, testvec.ResultBytes(res, i)); diff != "" {
						t.Fatalf("row %d (-want +got):\n%s", i, diff)
					}
				}
			})
		}
	}
}

// TestVarGraphErrors checks the errors of evaluations: a row whose
// shapes do not broadcast fails naming the row and both shapes in
// NumPy's words, a column of another type fails, an integer to a
// negative power fails (the engine's runtime error), and EvalColumn
// refuses a program reading two columns.
func TestVarGraphErrors(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	emb := mustVar(t, f32, varshape.Varies)
	a := numColumn(t, mem, emb, [][]int{{3}, nil, {2}, {4}})
	defer a.Release()
	b := numColumn(t, mem, emb, [][]int{{3}, {5}, {1}, {3}})
	defer b.Release()
	schema := schemaOf(arrow.Field{Name: "a", Type: emb, Nullable: true}, arrow.Field{Name: "b", Type: emb, Nullable: true})
	rec := array.NewRecordBatch(schema, []arrow.Array{a, b}, 4)
	defer rec.Release()
	p, err := expr.Compile("a - b", schema, expr.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Eval(rec)
	if !errors.Is(err, arrow.ErrInvalid) {
		t.Fatalf("Eval = %v, want an error wrapping arrow.ErrInvalid", err)
	}
	// NumPy's words, and the row (row 1 is null, row 2 broadcasts).
	for _, want := range []string{"operands could not be broadcast together with shapes (4,) (3,)", `row 3 (column "a" of shape (4,), column "b" of shape (3,))`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Eval's error %q does not say %q", err, want)
		}
	}
	if _, err := p.EvalColumn(a); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("EvalColumn of a two-column program = %v, want an error wrapping arrow.ErrInvalid", err)
	}
	i16 := mustVar(t, arrow.PrimitiveTypes.Int16, varshape.Varies)
	c := numColumn(t, mem, i16, [][]int{{3}, {5}, {1}, {3}})
	defer c.Release()
	other := array.NewRecordBatch(schemaOf(schema.Field(0), arrow.Field{Name: "b", Type: i16, Nullable: true}), []arrow.Array{a, c}, 4)
	defer other.Release()
	if _, err := p.Eval(other); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("Eval of a column of another type = %v, want an error wrapping arrow.ErrInvalid", err)
	}
	// The engine's runtime error, in a run of rows from row 2 on.
	ints := schemaOf(arrow.Field{Name: "c", Type: i16, Nullable: true})
	pow, err := expr.Compile("c ** (c - c.max())", ints, expr.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	one := array.NewRecordBatch(ints, []arrow.Array{c}, 4)
	defer one.Release()
	_, err = pow.Eval(one)
	if !errors.Is(err, arrow.ErrInvalid) || !strings.Contains(strings.ToLower(err.Error()), "integers to negative integer powers are not allowed") {
		t.Errorf("Eval of an integer to a negative power = %v, want NumPy's words wrapping arrow.ErrInvalid", err)
	}
}

// TestVarGraphZeroRowsAndFuse evaluates a batch of no row, EvalColumn of
// a one-column program, and the Fuse of a graph over a variable-shape
// column with one over a fixed-shape column, against each alone.
func TestVarGraphZeroRowsAndFuse(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	emb := mustVar(t, f32, varshape.Varies)
	e := numColumn(t, mem, emb, [][]int{{3}, nil, {2}, {0}, {5}})
	defer e.Release()
	q := testvec.SeqColumn(t, mem, mustFixed(t, f32, 2), 5, []bool{true, true, false, true, true})
	defer q.Release()
	schema := schemaOf(arrow.Field{Name: "e", Type: emb, Nullable: true}, arrow.Field{Name: "q", Type: q.DataType(), Nullable: true})
	rec := array.NewRecordBatch(schema, []arrow.Array{e, q}, 5)
	defer rec.Release()
	opts := []expr.Option{expr.WithAllocator(mem)}
	pe, err := expr.Compile("e - e.mean()", schema, append(opts, expr.WithName("centred"))...)
	if err != nil {
		t.Fatal(err)
	}
	pq, err := expr.Compile("q * 2 + q.max()", schema, append(opts, expr.WithName("q2"))...)
	if err != nil {
		t.Fatal(err)
	}
	empty := array.NewSlice(e, 0, 0)
	defer empty.Release()
	zero, err := pe.EvalColumn(empty)
	if err != nil {
		t.Fatalf("EvalColumn of no row: %v", err)
	}
	if zero.Len() != 0 || !arrow.TypeEqual(zero.DataType(), pe.Schema().Field(0).Type) {
		t.Errorf("EvalColumn of no row: %d rows of %v", zero.Len(), zero.DataType())
	}
	zero.Release()
	f, err := expr.Fuse(pe, pq)
	if err != nil {
		t.Fatalf("Fuse: %v", err)
	}
	got, err := f.Eval(rec)
	if err != nil {
		t.Fatalf("fused Eval: %v", err)
	}
	defer got.Release()
	if diff := cmp.Diff([]string{"centred", "q2"}, []string{got.Schema().Field(0).Name, got.Schema().Field(1).Name}); diff != "" {
		t.Errorf("fused names (-want +got):\n%s", diff)
	}
	for k, p := range []*expr.Program{pe, pq} {
		want, err := p.Eval(rec)
		if err != nil {
			t.Fatal(err)
		}
		defer want.Release()
		if !array.Equal(want.Column(0), got.Column(k)) {
			t.Errorf("fused column %d:\n%v\nalone:\n%v", k, got.Column(k), want.Column(0))
		}
	}
}
