package expr_test

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/varshape"
)

// FuzzVarGraph compiles and evaluates expression texts over a batch of
// two variable-shape columns (x, int16 of a permuted type; y, float32),
// a fixed-shape column q and a plain column s, with null rows and rows
// of no element: no panic; every error wraps arrow.ErrInvalid (or
// arrow.ErrNotImplemented at Compile); a batch evaluated without error
// has its Schema's type and each valid row equal to the same text over
// that row alone as fixed-shape columns. Seeds in
// testdata/fuzz/FuzzVarGraph.
func FuzzVarGraph(f *testing.F) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	f.Cleanup(func() { mem.AssertSize(f, 0) })
	xt := varshape.MustNewType(arrow.PrimitiveTypes.Int16, 2, varshape.Options{Permutation: []int{1, 0}})
	yt := varshape.MustNewType(f32, 1, varshape.Options{})
	x := numColumn(f, mem, xt, [][]int{{2, 3}, {2, 3}, nil, {3, 1}, {0, 2}, {3, 3}, {1, 3}})
	f.Cleanup(x.Release)
	y := numColumn(f, mem, yt, [][]int{{3}, {3}, {2}, nil, {2}, {3}, {1}})
	f.Cleanup(y.Release)
	q := testvec.SeqColumn(f, mem, mustFixed(f, f32, 3), 7, []bool{true, true, true, true, true, false, true})
	f.Cleanup(q.Release)
	s := testvec.SeqColumn(f, mem, mustFixed(f, f64), 7, nil)
	f.Cleanup(s.Release)
	schema := schemaOf(arrow.Field{Name: "x", Type: xt, Nullable: true}, arrow.Field{Name: "y", Type: yt, Nullable: true},
		arrow.Field{Name: "q", Type: q.DataType(), Nullable: true}, arrow.Field{Name: "s", Type: s.DataType(), Nullable: true})
	rec := array.NewRecordBatch(schema, []arrow.Array{x, y, q, s}, 7)
	f.Cleanup(rec.Release)
	f.Fuzz(func(t *testing.T, text string) {
		p, err := expr.Compile(text, schema, expr.WithAllocator(mem), expr.WithInput("x"))
		if err != nil {
			if !errors.Is(err, arrow.ErrInvalid) && !errors.Is(err, arrow.ErrNotImplemented) {
				t.Fatalf("Compile(%q): %v wraps neither ErrInvalid nor ErrNotImplemented", text, err)
			}
			return
		}
		out, err := p.Eval(rec)
		if err != nil {
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("Eval(%q): %v does not wrap ErrInvalid", text, err)
			}
			return
		}
		defer out.Release()
		res := out.Column(0)
		if !arrow.TypeEqual(res.DataType(), p.Schema().Field(0).Type) || res.Len() != 7 {
			t.Fatalf("Eval(%q): %d rows of %v, Schema %v", text, res.Len(), res.DataType(), p.Schema().Field(0).Type)
		}
		elem := elemOf(res.DataType())
		if vt, ok := varshape.TypeOf(res.DataType()); ok {
			elem = vt.ElemType()
		}
		for i := range 7 {
			want, ok := fuzzGraphRef(rec, i, text)
			if !ok {
				continue // a null or empty input row, or one the text does not read
			}
			if res.IsNull(i) {
				t.Fatalf("Eval(%q): row %d is null, alone it is not", text, i)
			}
			if got := testvec.ResultBytes(res, i); !testvec.SameResult(elem, want, got) {
				t.Fatalf("Eval(%q): row %d is %v, want %v", text, i, values(elem, got), values(elem, want))
			}
		}
	})
}

// fuzzGraphRef evaluates text over row i of rec alone, the
// variable-shape columns as one-row fixed-shape columns, and returns its
// result's bytes; false when a row of a column is null or of no element
// (no fixed-shape column holds it) or the row alone fails.
func fuzzGraphRef(rec arrow.RecordBatch, i int, text string) ([]byte, bool) {
	var fields []arrow.Field
	var cols []arrow.Array
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	for k, fd := range rec.Schema().Fields() {
		col := rec.Column(k)
		if col.IsNull(i) {
			return nil, false
		}
		var a arrow.Array
		if va, ok := col.(*varshape.Array); ok {
			row, err := va.Row(i)
			if err != nil {
				return nil, false
			}
			a = row
		} else {
			a = array.NewSlice(col, int64(i), int64(i+1))
		}
		fields, cols = append(fields, arrow.Field{Name: fd.Name, Type: a.DataType(), Nullable: true}), append(cols, a)
	}
	one := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, 1)
	defer one.Release()
	p, err := expr.Compile(text, one.Schema(), expr.WithInput("x"))
	if err != nil {
		return nil, false
	}
	out, err := p.Eval(one)
	if err != nil {
		return nil, false
	}
	defer out.Release()
	return append([]byte(nil), testvec.ResultBytes(out.Column(0), 0)...), true
}
