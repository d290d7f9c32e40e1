package expr_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/varshape"
)

// The variable-shape oracle cases evaluate a graph expression over
// variable-shape columns (each row its own shape) with expr, and each
// row alone with NumPy (one request of one row per row of the case,
// through testdata/oracle/numpy_eval.py), and compare per row the dtype,
// the shape, the null rows and the values, with the tolerances of
// TestOracle.

// varOracleCol is a variable-shape input column: its NumPy dtype, each
// row's logical shape (nil: a null row) and the type's uniform shape
// (nil: none).
type varOracleCol struct {
	name    string
	dtype   string
	shapes  [][]int
	uniform []int
}

// varOracleCase is an expression over variable-shape columns (vcols) and
// fixed-shape or plain columns (cols, of whose nulls those in rows of
// the case count). NumPy failing on a row means Eval (or Compile) must
// fail with an error in NumPy's words.
type varOracleCase struct {
	name  string
	text  string
	vcols []varOracleCol
	cols  []oracleCol
	want  string // the kind of result column: "fixed", "var" or "plain"
}

func (c varOracleCase) rows() int { return len(c.vcols[0].shapes) }

// varOracleCases are the cases of TestOracleVar.
func varOracleCases() []varOracleCase {
	const V = varshape.Varies
	emb := func(name, dtype string, lens ...int) varOracleCol {
		c := varOracleCol{name: name, dtype: dtype}
		for _, n := range lens {
			if n < 0 {
				c.shapes = append(c.shapes, nil)
			} else {
				c.shapes = append(c.shapes, []int{n})
			}
		}
		return c
	}
	img := func(name, dtype string) varOracleCol {
		return varOracleCol{name: name, dtype: dtype, uniform: []int{V, V, 3},
			shapes: [][]int{{2, 3, 3}, {2, 3, 3}, {4, 1, 3}, nil, {1, 5, 3}, {0, 2, 3}, {2, 2, 3}}}
	}
	mat := func(name, dtype string) varOracleCol {
		return varOracleCol{name: name, dtype: dtype, shapes: [][]int{{2, 3}, {3, 2}, {3, 2}, nil, {1, 4}, {4, 4}}}
	}
	x := emb("x", "float32", 3, 3, 5, -1, 1, 8, 8, 2)
	return []varOracleCase{
		{name: "normalize", text: "x / norm(x, axis=-1, keepdims=True)", vcols: []varOracleCol{x}, want: "var"},
		{name: "standardize", text: "(x - x.mean()) / x.std()", vcols: []varOracleCol{x}, want: "var"},
		{name: "softmax", text: "exp(x - x.max()) / exp(x - x.max()).sum()", vcols: []varOracleCol{x}, want: "var"},
		{name: "comparison counted", text: "(x > 0).sum()", vcols: []varOracleCol{x}, want: "plain"},
		{name: "where", text: "where(x > 0, x, 0.5 * x)", vcols: []varOracleCol{x}, want: "var"},
		{name: "mask as uint8", text: "(x > 0).astype(uint8)", vcols: []varOracleCol{x}, want: "var"},
		{name: "maximum of two columns", text: "maximum(a, b)", vcols: []varOracleCol{emb("a", "float32", 3, 3, 1, 4, -1), emb("b", "float32", 3, 3, 1, 4, 2)}, want: "var"},
		{name: "two columns L2 distance", text: "norm(a - b)", vcols: []varOracleCol{emb("a", "float32", 3, 3, 1, 4, -1), emb("b", "float32", 3, 3, 1, 4, 2)}, want: "plain"},
		{name: "two columns dot", text: "dot(a, b)", vcols: []varOracleCol{emb("a", "float64", 3, 3, 1, 4, 2), emb("b", "float64", 3, -1, 1, 4, 2)}, want: "plain"},
		{name: "two columns broadcast a size-1 row", text: "a * b", vcols: []varOracleCol{emb("a", "int16", 3, 3, 1, 4), emb("b", "int16", 1, 3, 5, 4)}, want: "var"},
		{name: "shape mismatch", text: "a + b", vcols: []varOracleCol{emb("a", "float32", 3, 3, 4), emb("b", "float32", 3, 3, 5)}, want: "var"},
		{name: "var with fixed", text: "x - c", vcols: []varOracleCol{x}, cols: []oracleCol{tcol("c", "float32", 1)}, want: "var"},
		{name: "var with fixed of the row's size", text: "(e * f).sum()", vcols: []varOracleCol{emb("e", "float32", 4, 4, -1, 4)}, cols: []oracleCol{tcol("f", "float32", 4)}, want: "plain"},
		{name: "var with a per-row number", text: "x * scale + 1", vcols: []varOracleCol{x}, cols: []oracleCol{pcol("scale", "float64").nullAt(6)}, want: "var"},
		{name: "var with a constant", text: "img.astype(float32) / 255 - float32([0.5, 0.25, 0.125])", vcols: []varOracleCol{img("img", "uint8")}, want: "var"},
		{name: "channel means", text: "img.mean(axis=(0, 1))", vcols: []varOracleCol{img("img", "uint8")}, want: "fixed"},
		{name: "per-channel standardization", text: "(img - img.mean(axis=(0, 1), keepdims=True)) / (img.std(axis=(0, 1), keepdims=True) + 1)", vcols: []varOracleCol{img("img", "float32")}, want: "var"},
		{name: "nested reductions", text: "x.sum(axis=0).max()", vcols: []varOracleCol{mat("x", "float32")}, want: "plain"},
		{name: "nested reductions kept", text: "x.max(axis=1).sum() - x.min()", vcols: []varOracleCol{mat("x", "int32")}, want: "plain"},
		{name: "view after computing", text: "(x * 2).T[0]", vcols: []varOracleCol{mat("x", "float32")}, want: "var"},
		{name: "reshape after computing", text: "(x + 1).reshape(-1)[1:]", vcols: []varOracleCol{mat("x", "int16")}, want: "var"},
		{name: "matmul with its transpose", text: "x @ x.T", vcols: []varOracleCol{mat("x", "float64")}, want: "var"},
		{name: "matmul by a constant", text: "x @ [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]", vcols: []varOracleCol{emb("x", "float32", 3, 3, -1, 3)}, want: "fixed"},
		{name: "concatenate", text: "concatenate((x, x * 2))", vcols: []varOracleCol{x}, want: "var"},
		{name: "integer wrap-around", text: "(x * 100 + 7) // 3", vcols: []varOracleCol{emb("x", "int8", 3, 2, 0, 4)}, want: "var"},
		{name: "float16", text: "sqrt(abs(x)) * x", vcols: []varOracleCol{emb("x", "float16", 3, 2, 4)}, want: "var"},
		{name: "rows of no element", text: "x.sum() - x.mean()", vcols: []varOracleCol{emb("x", "float32", 0, 3, 0)}, want: "plain"},
		{name: "max of an empty row", text: "x - x.max()", vcols: []varOracleCol{emb("x", "float32", 3, 0, 2)}, want: "var"},
		{name: "index out of bounds of a row", text: "x[3] + x[0]", vcols: []varOracleCol{emb("x", "float32", 4, 5, 2)}, want: "plain"},
		{name: "null rows only", text: "x - x.mean()", vcols: []varOracleCol{emb("x", "float32", -1, -1)}, want: "var"},
		{name: "zero rows", text: "x / norm(x, axis=-1, keepdims=True) + y.sum()", vcols: []varOracleCol{emb("x", "float32"), emb("y", "float64")}, want: "var"},
	}
}

// varOracleBoolCases are the cases of TestOracleVar whose results are
// bool tensors of varying shape: rows of 1 to 8 elements, so that rows
// start at bit offsets that are not multiples of 8.
func varOracleBoolCases() []varOracleCase {
	const V = varshape.Varies
	emb := func(name, dtype string) varOracleCol {
		return varOracleCol{name: name, dtype: dtype, shapes: [][]int{{3}, {3}, {5}, nil, {1}, {8}, {0}, {7}, {2}}}
	}
	img := func(name, dtype string) varOracleCol {
		return varOracleCol{name: name, dtype: dtype, uniform: []int{V, V, 3},
			shapes: [][]int{{2, 3, 3}, {1, 1, 3}, {4, 1, 3}, nil, {1, 5, 3}, {0, 2, 3}, {2, 2, 3}}}
	}
	mat := func(name, dtype string) varOracleCol {
		return varOracleCol{name: name, dtype: dtype, shapes: [][]int{{2, 3}, {3, 2}, {1, 1}, nil, {1, 4}, {4, 4}, {3, 0}}}
	}
	x, m := emb("x", "float32"), emb("m", "bool")
	return []varOracleCase{
		{name: "bool/greater", text: "x > 0", vcols: []varOracleCol{x}, want: "var"},
		{name: "bool/less equal int", text: "x <= 3", vcols: []varOracleCol{emb("x", "int16")}, want: "var"},
		{name: "bool/equal float16", text: "x != x.max()", vcols: []varOracleCol{emb("x", "float16")}, want: "var"},
		{name: "bool/isnan", text: "isnan(log(x))", vcols: []varOracleCol{x}, want: "var"},
		{name: "bool/isfinite", text: "isfinite(log(x + 1))", vcols: []varOracleCol{x}, want: "var"},
		{name: "bool/invert", text: "~(x > 0)", vcols: []varOracleCol{x}, want: "var"},
		{name: "bool/and or", text: "(x > 0) & (x < 2) | (x == x.min())", vcols: []varOracleCol{x}, want: "var"},
		{name: "bool/xor", text: "(x > 0) ^ (x > 1)", vcols: []varOracleCol{x}, want: "var"},
		{name: "bool/view then comparison", text: "x[:, 1:] >= x[:, :-1]", vcols: []varOracleCol{mat("x", "float32")}, want: "var"},
		{name: "bool/transpose then comparison", text: "x.T[::-1] < 1", vcols: []varOracleCol{mat("x", "int32")}, want: "var"},
		{name: "bool/comparison then view", text: "(img > 20).transpose(2, 0, 1)[:, ::-1]", vcols: []varOracleCol{img("img", "uint8")}, want: "var"},
		{name: "bool/channel of images", text: "img[..., 1] == img[..., 2]", vcols: []varOracleCol{img("img", "uint8")}, want: "var"},
		{name: "bool/fixed axis kept", text: "(img > 10) & (img < 30)", vcols: []varOracleCol{img("img", "uint8")}, want: "var"},
		{name: "bool/two columns", text: "(a > b) | (a == 0)", vcols: []varOracleCol{emb("a", "float64"), emb("b", "float64")}, want: "var"},
		{name: "bool/column", text: "m", vcols: []varOracleCol{m}, want: "var"},
		{name: "bool/column not", text: "~m", vcols: []varOracleCol{m}, want: "var"},
		{name: "bool/column reversed", text: "m[::-1]", vcols: []varOracleCol{m}, want: "var"},
		{name: "bool/column transposed", text: "m.T[1:]", vcols: []varOracleCol{mat("m", "bool")}, want: "var"},
		{name: "bool/column and comparison", text: "m & (x > 0)", vcols: []varOracleCol{m, x}, want: "var"},
		{name: "bool/column counted", text: "m.sum()", vcols: []varOracleCol{m}, want: "plain"},
		{name: "bool/column where", text: "where(m, x, -x)", vcols: []varOracleCol{m, x}, want: "var"},
		{name: "bool/null rows only", text: "x > 0", vcols: []varOracleCol{{name: "x", dtype: "float32", shapes: [][]int{nil, nil}}}, want: "var"},
		{name: "bool/zero rows", text: "x > 0", vcols: []varOracleCol{{name: "x", dtype: "float32"}}, want: "var"},
	}
}

// request returns the NumPy request of row i alone, and its data.
func (c varOracleCase) request(i int, dir string) (oracleData, oracleRequest) {
	var cols []oracleCol
	for _, v := range c.vcols {
		col := tcol(v.name, v.dtype, v.shapes[i]...)
		col.nulls = []int{}
		if v.shapes[i] == nil {
			col.shape, col.nulls = slices.Repeat([]int{1}, len(c.ndimShape(v))), []int{0}
		}
		cols = append(cols, col)
	}
	for _, f := range c.cols {
		col := f
		col.nulls = []int{}
		if slices.Contains(f.nulls, i) {
			col.nulls = []int{0}
		}
		cols = append(cols, col)
	}
	d := oracleGenerate(fmt.Sprintf("%s/%d", c.name, i), cols, 1)
	return d, d.request(c.text, dir)
}

// ndimShape returns a valid row's shape of v.
func (c varOracleCase) ndimShape(v varOracleCol) []int {
	for _, s := range v.shapes {
		if s != nil {
			return s
		}
	}
	if v.uniform == nil {
		return []int{0} // every row null: ndim 1
	}
	return v.uniform
}

// record assembles the rows' data (one oracleData per row) as a record
// batch: the variable-shape columns first, then cols.
func (c varOracleCase) record(t *testing.T, datas []oracleData) arrow.RecordBatch {
	t.Helper()
	rows := c.rows()
	var fields []arrow.Field
	var arrs []arrow.Array
	for k, v := range c.vcols {
		elem := oracleArrowType(v.dtype)
		typ := varshape.MustNewType(elem, len(c.ndimShape(v)), varshape.Options{UniformShape: v.uniform})
		var values, offsets, shapes, valid []byte
		offsets = arrow.Int32Traits.CastToBytes([]int32{0})
		nulls, at := 0, int32(0)
		for i, s := range v.shapes {
			if s == nil {
				nulls++
				s = make([]int, typ.NDim())
			} else {
				values = append(values, datas[i].bytes[k]...)
				at += int32(oracleSize(s))
			}
			offsets = append(offsets, arrow.Int32Traits.CastToBytes([]int32{at})...)
			for _, d := range s {
				shapes = append(shapes, arrow.Int32Traits.CastToBytes([]int32{int32(d)})...)
			}
		}
		valid = make([]byte, (rows+7)/8)
		for i, s := range v.shapes {
			if s != nil {
				valid[i/8] |= 1 << (i % 8)
			}
		}
		if v.dtype == "bool" { // one byte an element: bits
			bits := make([]byte, (len(values)+7)/8)
			for j, b := range values {
				bits[j/8] |= (b & 1) << (j % 8)
			}
			values = bits
		}
		a, err := varshape.NewArrayFromBuffers(typ, rows, memory.NewBufferBytes(valid), memory.NewBufferBytes(offsets),
			memory.NewBufferBytes(values), memory.NewBufferBytes(shapes), nulls)
		if err != nil {
			t.Fatal(err)
		}
		defer a.Release()
		fields, arrs = append(fields, arrow.Field{Name: v.name, Type: typ, Nullable: true}), append(arrs, a)
	}
	for k, f := range c.cols {
		var all []byte
		for i := range rows {
			all = append(all, datas[i].bytes[len(c.vcols)+k]...)
		}
		a := oracleColumn(t, f, rows, all, f.nulls)
		defer a.Release()
		fields, arrs = append(fields, arrow.Field{Name: f.name, Type: a.DataType(), Nullable: true}), append(arrs, a)
	}
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, int64(rows))
}

// varOracleRows reads a result column per row: its shape and elements
// (nil for a null row).
func varOracleRows(t *testing.T, arr arrow.Array) (string, [][]int, [][]uint64) {
	t.Helper()
	va, ok := arr.(*varshape.Array)
	if !ok {
		res, err := oracleRead(arr)
		if err != nil {
			t.Fatal(err)
		}
		shapes := make([][]int, len(res.rows))
		for i := range shapes {
			shapes[i] = res.shape
		}
		return res.dtype, shapes, res.rows
	}
	dtype := oracleDTypeName(va.TensorType().ElemType())
	raw, err := va.Raw()
	if err != nil {
		t.Fatal(err)
	}
	shapes := make([][]int, arr.Len())
	rows := make([][]uint64, arr.Len())
	for i := range arr.Len() {
		if arr.IsNull(i) {
			continue
		}
		shapes[i] = va.Shape(nil, i)
		if raw.Width == 0 { // bits
			bits, first, n := va.RowBits(i)
			rows[i] = make([]uint64, n)
			for k := range n {
				rows[i][k] = uint64(bits[(first+k)/8] >> ((first + k) % 8) & 1)
			}
			continue
		}
		b := raw.Values[int(raw.Offsets[i])*raw.Width : int(raw.Offsets[i+1])*raw.Width]
		rows[i] = append([]uint64{}, oracleDecode(dtype, b)...)
	}
	return dtype, shapes, rows
}

// kindOf returns the kind of a result column type.
func kindOf(dt arrow.DataType) string {
	if _, ok := varshape.TypeOf(dt); ok {
		return "var"
	}
	if _, ok := fixedshape.TypeOf(dt); ok {
		return "fixed"
	}
	return "plain"
}

// TestOracleVar checks the cases of varOracleCases against NumPy row by
// row: the kind of result column Compile decides before data, and per
// valid row the dtype, shape and values; a row NumPy fails on fails Eval
// with an error naming the row in NumPy's words.
func TestOracleVar(t *testing.T) {
	cases := append(varOracleCases(), varOracleBoolCases()...)
	dir, err := filepath.Abs(filepath.Join("testdata", "oracle"))
	if err != nil {
		t.Fatal(err)
	}
	var reqs []oracleRequest
	datas := make([][]oracleData, len(cases))
	for k, c := range cases {
		for i := range c.rows() {
			d, q := c.request(i, dir)
			datas[k], reqs = append(datas[k], d), append(reqs, q)
		}
	}
	answers := oracleAsk(t, reqs)
	for k, c := range cases {
		want := answers[:c.rows()]
		answers = answers[c.rows():]
		t.Run(c.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			rec := c.record(t, datas[k])
			defer rec.Release()
			varOracleCheck(t, c, rec, datas[k], want, mem)
		})
	}
}

// varOracleCheck compares expr's result of one case with NumPy's rows.
func varOracleCheck(t *testing.T, c varOracleCase, rec arrow.RecordBatch, datas []oracleData, want []oracleAnswer, mem memory.Allocator) {
	opts := []expr.Option{expr.WithAllocator(mem)}
	if rec.Schema().HasField("x") {
		opts = append(opts, expr.WithInput("x"))
	}
	p, err := expr.Compile(c.text, rec.Schema(), opts...)
	if err != nil {
		t.Fatalf("Compile(%q): %v", c.text, err)
	}
	if got := kindOf(p.Schema().Field(0).Type); got != c.want {
		t.Errorf("Compile(%q) gives a %s column (%v), want %s", c.text, got, p.Schema().Field(0).Type, c.want)
	}
	out, err := p.Eval(rec)
	if bad := slices.IndexFunc(want, func(a oracleAnswer) bool { return a.Error != nil }); bad >= 0 {
		if err == nil {
			out.Release()
			t.Fatalf("NumPy fails on row %d (%s), Eval does not", bad, *want[bad].Error)
		}
		if !errors.Is(err, arrow.ErrInvalid) {
			t.Errorf("Eval's error does not wrap arrow.ErrInvalid: %v", err)
		}
		if msg := err.Error(); !strings.Contains(msg, fmt.Sprintf("row %d ", bad)) || !strings.Contains(msg, *want[bad].Error) {
			t.Errorf("Eval's error %q should name row %d and say NumPy's %q", msg, bad, *want[bad].Error)
		}
		return
	}
	if err != nil {
		t.Fatalf("Eval: %v", err)
	}
	defer out.Release()
	if !arrow.TypeEqual(out.Schema().Field(0).Type, p.Schema().Field(0).Type) {
		t.Errorf("Eval's type %v is not Schema's %v", out.Schema().Field(0).Type, p.Schema().Field(0).Type)
	}
	if int(out.NumRows()) != len(want) {
		t.Fatalf("Eval gives %d rows of %d", out.NumRows(), len(want))
	}
	dtype, shapes, rows := varOracleRows(t, out.Column(0))
	tol := oracleToleranceOf(c.text)
	for i, a := range want {
		if (a.Rows[0] == nil) != (rows[i] == nil) {
			t.Errorf("row %d: null %v, NumPy null %v", i, rows[i] == nil, a.Rows[0] == nil)
			continue
		}
		if rows[i] == nil {
			continue
		}
		if dtype != a.DType || !slices.Equal(shapes[i], a.Shape) {
			t.Errorf("row %d: %s %s, NumPy %s %s", i, dtype, metadata.FormatShape(shapes[i]), a.DType, metadata.FormatShape(a.Shape))
			continue
		}
		eps := oracleEps(a.DType)
		if tol > oracleExactZeros {
			eps = oracleCaseEps(a.DType, c.text, datas[i].cols)
		}
		one := oracleAnswer{DType: a.DType, Shape: a.Shape, Rows: a.Rows, Scales: a.Scales}
		got := oracleResult{dtype: dtype, shape: shapes[i], rows: [][]uint64{rows[i]}}
		for _, p := range oracleCompareRows(tol, eps, datas[i], one, got) {
			t.Errorf("%s: row %d: %s", c.text, i, strings.TrimPrefix(p, "row 0 "))
		}
	}
}
