package expr_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/varshape"
)

// TestVarBoolInput evaluates expressions over a variable-shape bool
// column whose rows start at bit offsets that are not multiples of 8 (a
// slice, and a data child that starts at bit 5 of its buffer) and checks
// every row against the expression over that row alone as a one-row
// fixed-shape column. Views of such a column (a chain) run in the engine,
// as their text does when built in Go.
func TestVarBoolInput(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b := arrow.FixedWidthTypes.Boolean
	typ := varshape.MustNewType(b, 2, varshape.Options{UniformShape: []int{varshape.Varies, 3}})
	shapes := [][]int{{1, 3}, {3, 3}, nil, {2, 3}, {0, 3}, {5, 3}, {1, 3}}
	vals := make([][]bool, len(shapes))
	for i, s := range shapes {
		if s != nil {
			vals[i] = make([]bool, s[0]*s[1])
			for k := range vals[i] {
				vals[i][k] = (i+k*k)%3 != 0
			}
		}
	}
	full, err := varshape.FromBools(mem, typ, shapes, vals)
	if err != nil {
		t.Fatal(err)
	}
	defer full.Release()
	sliced := array.NewSlice(full, 1, int64(full.Len())).(*varshape.Array)
	defer sliced.Release()
	shifted := dropFirst(t, full) // rows 1.., the child sliced at bit 3
	defer shifted.Release()
	if _, first, _ := shifted.RowBits(0); first != 3 {
		t.Fatalf("row 0 of the shifted column starts at bit %d, want 3", first)
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: typ, Nullable: true}}, nil)
	for _, text := range []string{"x", "x.T", "~x[::-1]", "x[:, 1:] & x[:, :-1]", "x.sum(axis=0)", "x.any()", "where(x, 2, 1)"} {
		p, err := expr.Compile(text, schema, expr.WithAllocator(mem))
		if err != nil {
			t.Fatalf("Compile(%q): %v", text, err)
		}
		for _, in := range []struct {
			name string
			a    *varshape.Array
		}{{"sliced", sliced}, {"child-offset", shifted}} {
			t.Run(text+"/"+in.name, func(t *testing.T) {
				out, err := p.EvalColumn(in.a)
				if err != nil {
					t.Fatal(err)
				}
				defer out.Release()
				if !arrow.TypeEqual(out.DataType(), p.Schema().Field(0).Type) {
					t.Errorf("type %v, Schema %v", out.DataType(), p.Schema().Field(0).Type)
				}
				for i := range in.a.Len() {
					if out.IsNull(i) != in.a.IsNull(i) {
						t.Fatalf("row %d: null %v, want %v", i, out.IsNull(i), in.a.IsNull(i))
					}
					if in.a.IsNull(i) || prodOf(in.a.Shape(nil, i)) == 0 {
						continue // no one-row fixed-shape column of no element: the oracle checks those
					}
					want := rowAlone(t, in.a, i, text)
					if diff := cmp.Diff(want, resultRow(out, i)); diff != "" {
						t.Errorf("row %d (-alone +column):\n%s", i, diff)
					}
				}
			})
		}
	}
	// A chain built in Go on an input of one row's shape compiles as its
	// text, in the engine.
	e := expr.Transpose(expr.InputOf(b, metadata.MustNew([]int{2, 3}, nil, nil)))
	p, err := expr.CompileExpr(e, schema, expr.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	if !p.Graph() {
		t.Errorf("CompileExpr(%v) of bool rows is not run by the engine", e)
	}
	// WithResultType: rows written into the type given, or an error
	// naming the first row that does not fit it.
	named := varshape.MustNewType(b, 2, varshape.Options{DimNames: []string{"r", "c"}, UniformShape: []int{varshape.Varies, 3}})
	for _, tc := range []struct {
		text string
		as   arrow.DataType
		err  string
	}{
		{"x[::-1]", named, ""},
		{"x.T", named, "row 0 (column \"x\" of shape (1,3)): the result's shape (3,1) differs from the column's uniform shape at axis 1 (3)"},
		{"x[:1]", fixedshape.MustNewType(b, metadata.MustNew([]int{1, 3}, nil, nil)), "row 4 (column \"x\" of shape (0,3)): the result's shape (0,3) differs from the column's (1,3)"},
	} {
		want, err := expr.Compile(tc.text, schema, expr.WithAllocator(mem))
		if err != nil {
			t.Fatal(err)
		}
		p, err := expr.Compile(tc.text, schema, expr.WithAllocator(mem), expr.WithResultType(tc.as))
		if err != nil {
			t.Fatalf("%s with WithResultType(%v): %v", tc.text, tc.as, err)
		}
		if !arrow.TypeEqual(p.Schema().Field(0).Type, tc.as) {
			t.Errorf("%s: schema %v, want %v", tc.text, p.Schema().Field(0).Type, tc.as)
		}
		got, err := p.EvalColumn(full)
		if tc.err != "" {
			if !errors.Is(err, arrow.ErrInvalid) || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s as %v: %v, want an error with %q", tc.text, tc.as, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		exp, err := want.EvalColumn(full)
		if err != nil {
			t.Fatal(err)
		}
		for i := range full.Len() {
			if diff := cmp.Diff(resultRow(exp, i), resultRow(got, i)); diff != "" {
				t.Errorf("%s as %v, row %d (-without +with):\n%s", tc.text, tc.as, i, diff)
			}
		}
		exp.Release()
		got.Release()
	}
}

// dropFirst returns rows 1.. of a with the data child sliced so that row
// 1's first element is element 0 of the child.
func dropFirst(t *testing.T, a *varshape.Array) *varshape.Array {
	t.Helper()
	raw, err := a.Raw()
	if err != nil {
		t.Fatal(err)
	}
	rows := a.Len() - 1
	sd := a.Storage().Data()
	list := sd.Children()[0]
	start := int64(raw.Offsets[1])
	child := array.NewSliceData(list.Children()[0], start, int64(list.Children()[0].Len()))
	defer child.Release()
	offs := make([]int32, rows+1)
	for i := range offs {
		offs[i] = raw.Offsets[i+1] - int32(start)
	}
	ob := memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(offs))
	nl := array.NewData(list.DataType(), rows, []*memory.Buffer{nil, ob}, []arrow.ArrayData{child}, 0, 0)
	defer nl.Release()
	shp := array.NewSliceData(sd.Children()[1], 1, int64(a.Len()))
	defer shp.Release()
	var valid *memory.Buffer
	nulls := 0
	if a.NullN() > 0 {
		bits := make([]byte, (rows+7)/8)
		for i := range rows {
			if a.IsValid(i + 1) {
				bits[i/8] |= 1 << (i % 8)
			} else {
				nulls++
			}
		}
		valid = memory.NewBufferBytes(bits)
	}
	st := array.NewData(sd.DataType(), rows, []*memory.Buffer{valid}, []arrow.ArrayData{nl, shp}, nulls, 0)
	defer st.Release()
	storage := array.MakeFromData(st)
	defer storage.Release()
	out, err := varshape.NewArray(a.TensorType(), storage)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// rowAlone evaluates text over row i of a, which has elements, as a
// one-row fixed-shape column.
func rowAlone(t *testing.T, a *varshape.Array, i int, text string) any {
	t.Helper()
	row, err := a.Row(i)
	if err != nil {
		t.Fatal(err)
	}
	defer row.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: row.DataType(), Nullable: true}}, nil)
	p, err := expr.Compile(text, schema)
	if err != nil {
		t.Fatal(err)
	}
	out, err := p.EvalColumn(row)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Release()
	return resultRow(out, 0)
}

// resultRow returns row i of a result column as a comparable value: the
// logical shape and elements of a tensor (bools or int64s), or the value
// of a plain column; nil for a tensor row of no element.
func resultRow(a arrow.Array, i int) any {
	type tensor struct {
		Shape []int
		Bools []bool
		Ints  []int64
	}
	switch c := a.(type) {
	case *varshape.Array:
		shape := c.Shape(nil, i)
		if n := prodOf(shape); n == 0 {
			return nil
		}
		if fixedshape.BitElem(c.TensorType().ElemType()) {
			r := tensor{Shape: shape}
			for idx := range testvec.Indices(shape) {
				r.Bools = append(r.Bools, c.BoolAt(i, idx...))
			}
			return r
		}
		row, _ := c.Row(i)
		defer row.Release()
		return resultRow(row, 0)
	case *fixedshape.Array:
		shape := c.TensorType().Shape()
		r := tensor{Shape: shape}
		for idx := range testvec.Indices(shape) {
			if fixedshape.BitElem(c.TensorType().ElemType()) {
				r.Bools = append(r.Bools, c.BoolAt(i, idx...))
			} else {
				r.Ints = append(r.Ints, intAt(c, i, idx))
			}
		}
		return r
	}
	return a.ValueStr(i)
}

// intAt returns element idx of tensor i of an integer column as int64.
func intAt(c *fixedshape.Array, i int, idx []int) int64 {
	m := c.TensorType().Metadata()
	off := 0
	for k, s := range m.ElemStrides() {
		off += idx[k] * s
	}
	child := array.MakeFromData(c.Storage().Data().Children()[0])
	defer child.Release()
	at := c.Storage().Data().Offset()*m.Size() + i*m.Size() + off
	switch v := child.(type) {
	case *array.Int64:
		return v.Value(at)
	case *array.Uint64:
		return int64(v.Value(at))
	case *array.Int8:
		return int64(v.Value(at))
	}
	panic("intAt: " + child.DataType().String())
}

func prodOf(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}
