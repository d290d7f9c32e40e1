package expr_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

// graphBatch returns 3 rows (the last one null in every column) of
// a, b: float32 (2, 3); v: float32 (3,); s: float64; i: int16 (2, 3);
// u: uint8 (2, 3); p: float32 (2, 3) stored transposed (permutation
// [1, 0]).
func graphBatch(t testing.TB, mem memory.Allocator) arrow.RecordBatch {
	t.Helper()
	valid := []bool{true, true, false}
	f23 := mustFixed(t, f32, 2, 3)
	perm, err := fixedshape.NewType(f32, metadata.MustNew([]int{2, 3}, nil, []int{1, 0}))
	if err != nil {
		t.Fatal(err)
	}
	var cols []arrow.Array
	add := func(a arrow.Array, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		cols = append(cols, a)
	}
	add(fromSlice(f23, []float32{1, 2, 3, 4, 5, 6, -1, 0, 1, 2, 3, 4, 0, 0, 0, 0, 0, 0}, valid))
	add(fromSlice(f23, []float32{1, 1, 1, 2, 2, 2, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0}, valid))
	add(fromSlice(mustFixed(t, f32, 3), []float32{1, 2, 3, 0, 0, 1, 0, 0, 0}, valid))
	sb := array.NewFloat64Builder(mem)
	sb.AppendValues([]float64{2, 0.5, 0}, valid)
	add(sb.NewArray(), nil)
	sb.Release()
	add(fromSlice(mustFixed(t, arrow.PrimitiveTypes.Int16, 2, 3), []int16{1, 2, 3, 4, 5, 6, -1, 0, 1, 2, 3, 4, 0, 0, 0, 0, 0, 0}, valid))
	add(fromSlice(mustFixed(t, u8, 2, 3), []uint8{1, 2, 3, 4, 5, 6, 250, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, valid))
	// physical (3, 2): the transpose of logical [[1, 2, 3], [4, 5, 6]]
	add(fromSlice(perm, []float32{1, 4, 2, 5, 3, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, valid))
	// a 0-D column, and a 3-cycle permutation: physical arange(8) of
	// (2, 2, 2) is logical [0, 4, 1, 5, 2, 6, 3, 7]
	add(fromSlice(mustFixed(t, f32), []float32{2, -1, 0}, valid))
	cyc, err := fixedshape.NewType(arrow.PrimitiveTypes.Int16, metadata.MustNew([]int{2, 2, 2}, nil, []int{1, 2, 0}))
	if err != nil {
		t.Fatal(err)
	}
	add(fromSlice(cyc, []int16{0, 1, 2, 3, 4, 5, 6, 7, 7, 6, 5, 4, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0}, valid))
	fb := array.NewBooleanBuilder(mem)
	fb.AppendValues([]bool{true, false, false}, valid)
	add(fb.NewArray(), nil)
	fb.Release()
	add(fixedshape.FromBools(mem, mustFixed(t, arrow.FixedWidthTypes.Boolean, 3), []bool{true, false, true, false, false, true, false, false, false}, valid))
	var fields []arrow.Field
	for k, name := range []string{"a", "b", "v", "s", "i", "u", "p", "z", "c", "f", "m"} {
		fields = append(fields, arrow.Field{Name: name, Type: cols[k].DataType(), Nullable: true})
	}
	rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, 3)
	for _, c := range cols {
		c.Release()
	}
	return rec
}

func fromSlice[T fixedshape.Elem](typ *fixedshape.Type, v []T, valid []bool) (arrow.Array, error) {
	return fixedshape.FromSlice(typ, v, valid)
}

// resultValues returns the values of the valid rows of a tensor or plain
// column as float64s (bools as 0 and 1), and whether each row is valid.
func resultValues(t *testing.T, a arrow.Array) ([]float64, []bool) {
	t.Helper()
	vals, size := a, 1
	if fa, ok := a.(*fixedshape.Array); ok {
		vals, size = fa.Storage().(*array.FixedSizeList).ListValues(), fa.TensorType().ListSize()
	}
	var out []float64
	var valid []bool
	for r := range a.Len() {
		valid = append(valid, a.IsValid(r))
		if a.IsNull(r) {
			continue
		}
		for k := r * size; k < (r+1)*size; k++ {
			switch v := vals.(type) {
			case *array.Float32:
				out = append(out, float64(v.Value(k)))
			case *array.Float64:
				out = append(out, v.Value(k))
			case *array.Int8:
				out = append(out, float64(v.Value(k)))
			case *array.Int16:
				out = append(out, float64(v.Value(k)))
			case *array.Int32:
				out = append(out, float64(v.Value(k)))
			case *array.Uint8:
				out = append(out, float64(v.Value(k)))
			case *array.Uint16:
				out = append(out, float64(v.Value(k)))
			case *array.Uint32:
				out = append(out, float64(v.Value(k)))
			case *array.Float16:
				out = append(out, float64(v.Value(k).Float32()))
			case *array.Int64:
				out = append(out, float64(v.Value(k)))
			case *array.Uint64:
				out = append(out, float64(v.Value(k)))
			case *array.Boolean:
				b := 0.0
				if v.Value(k) {
					b = 1
				}
				out = append(out, b)
			default:
				t.Fatalf("values of %T", vals)
			}
		}
	}
	return out, valid
}

// TestGraphEval evaluates expressions beyond one chain (two columns,
// reuse, nested reductions, views after computing, comparisons, matmul,
// einsum, joins) through the engine, against values computed by hand;
// the null row gives a null result.
func TestGraphEval(t *testing.T) {
	tests := []struct {
		name, text string
		typ        string
		want       []float64
	}{
		{"two columns", "a - b", "extension<arrow.fixed_shape_tensor[value_type=float, shape=[2,3]]>", []float64{0, 1, 2, 2, 3, 4, -1, -1, 1, 1, 3, 3}},
		{"per-row number", "a * s", "extension<arrow.fixed_shape_tensor[value_type=double, shape=[2,3]]>", []float64{2, 4, 6, 8, 10, 12, -0.5, 0, 0.5, 1, 1.5, 2}},
		{"reuse", "a - a.mean()", "extension<arrow.fixed_shape_tensor[value_type=float, shape=[2,3]]>", []float64{-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, -2.5, -1.5, -0.5, 0.5, 1.5, 2.5}},
		{"nested reductions", "a.sum(axis=0).max()", "float32", []float64{9, 5}},
		{"dot of two tensors", "dot(a[0], v)", "float32", []float64{14, 1}},
		{"comparison", "a > 2", "extension<arrow.fixed_shape_tensor[value_type=bool, shape=[2,3]]>", []float64{0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1}},
		{"where", "where(a > 2, a, 0)", "extension<arrow.fixed_shape_tensor[value_type=float, shape=[2,3]]>", []float64{0, 0, 3, 4, 5, 6, 0, 0, 0, 0, 3, 4}},
		{"matmul with a vector", "a @ v", "extension<arrow.fixed_shape_tensor[value_type=float, shape=[2]]>", []float64{14, 32, 1, 4}},
		{"squared distances", "((a - b) ** 2).sum(axis=-1)", "extension<arrow.fixed_shape_tensor[value_type=float, shape=[2]]>", []float64{5, 29, 3, 19}},
		{"concatenate", "concatenate((a, b), axis=0)", "extension<arrow.fixed_shape_tensor[value_type=float, shape=[4,3]]>",
			[]float64{1, 2, 3, 4, 5, 6, 1, 1, 1, 2, 2, 2, -1, 0, 1, 2, 3, 4, 0, 1, 0, 1, 0, 1}},
		{"stack", "stack((v, v), axis=1)", "extension<arrow.fixed_shape_tensor[value_type=float, shape=[3,2]]>", []float64{1, 1, 2, 2, 3, 3, 0, 0, 0, 0, 1, 1}},
		{"einsum", "einsum('ij,j->i', a, v)", "extension<arrow.fixed_shape_tensor[value_type=float, shape=[2]]>", []float64{14, 32, 1, 4}},
		{"einsum as a matmul", "einsum('ij,kj->ik', a, a)", "extension<arrow.fixed_shape_tensor[value_type=float, shape=[2,2]]>", []float64{14, 32, 32, 77, 2, 2, 2, 29}},
		{"view after computing", "(a * 2).T[0]", "extension<arrow.fixed_shape_tensor[value_type=float, shape=[2]]>", []float64{2, 8, -2, 4}},
		{"array promotion", "i + u", "extension<arrow.fixed_shape_tensor[value_type=int16, shape=[2,3]]>", []float64{2, 4, 6, 8, 10, 12, 249, 0, 1, 2, 3, 4}},
		{"count", "(a > 2).sum()", "int64", []float64{4, 2}},
		{"astype bool", "a.astype(bool) & (b > 0)", "extension<arrow.fixed_shape_tensor[value_type=bool, shape=[2,3]]>", []float64{1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 0, 1}},
		{"any", "(a > 5).any()", "bool", []float64{1, 0}},
		{"floor division", "a // 2", "extension<arrow.fixed_shape_tensor[value_type=float, shape=[2,3]]>", []float64{0, 1, 1, 2, 2, 3, -1, 0, 0, 1, 1, 2}},
		{"minimum", "minimum(a, b)", "extension<arrow.fixed_shape_tensor[value_type=float, shape=[2,3]]>", []float64{1, 1, 1, 2, 2, 2, -1, 0, 0, 1, 0, 1}},
		{"bool column", "where(f, a, b)", "extension<arrow.fixed_shape_tensor[value_type=float, shape=[2,3]]>", []float64{1, 2, 3, 4, 5, 6, 0, 1, 0, 1, 0, 1}},
		{"bool tensor column", "v * m + ~m", "extension<arrow.fixed_shape_tensor[value_type=float, shape=[3]]>", []float64{1, 1, 3, 1, 1, 1}},
		{"empty sum", "(a[:0] * b[:0]).sum(axis=0) + v", "extension<arrow.fixed_shape_tensor[value_type=float, shape=[3]]>", []float64{1, 2, 3, 0, 0, 1}},
		{"empty mean", "isnan(a[:, 3:].mean(axis=1))", "extension<arrow.fixed_shape_tensor[value_type=bool, shape=[2]]>", []float64{1, 1, 1, 1}},
		{"0-D column", "v * z + z", "extension<arrow.fixed_shape_tensor[value_type=float, shape=[3]]>", []float64{4, 6, 8, -1, -1, -2}},
		{"3-cycle permutation", "c[0] * 2 + c.sum(axis=(0, 1))", "extension<arrow.fixed_shape_tensor[value_type=int64, shape=[2,2]]>", []float64{6, 30, 8, 32, 36, 12, 34, 10}},
		{"non-square matmul", "a.T @ a[:, :2]", "extension<arrow.fixed_shape_tensor[value_type=float, shape=[3,2]]>", []float64{17, 22, 22, 29, 27, 36, 5, 6, 6, 9, 7, 12}},
		{"permuted input", "p - a", "extension<arrow.fixed_shape_tensor[value_type=float, shape=[2,3]]>", []float64{0, 0, 0, 0, 0, 0, 1, 0, -1, -2, -3, -4}},
		{"permuted input transposed", "p.T[2] * 1", "extension<arrow.fixed_shape_tensor[value_type=float, shape=[2]]>", []float64{3, 6, 0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			rec := graphBatch(t, mem)
			defer rec.Release()
			p, err := expr.Compile(tt.text, rec.Schema(), expr.WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Schema().Field(0).Type.String(); got != tt.typ {
				t.Errorf("type %s, want %s", got, tt.typ)
			}
			out, err := p.Eval(rec)
			if err != nil {
				t.Fatal(err)
			}
			defer out.Release()
			got, valid := resultValues(t, out.Column(0))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("values (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]bool{true, true, false}, valid); diff != "" {
				t.Errorf("validity (-want +got):\n%s", diff)
			}
		})
	}
}

// TestGraphErrors checks the errors of graph expressions: NumPy's words,
// at the operator or the end of the call, wrapping arrow.ErrInvalid.
func TestGraphErrors(t *testing.T) {
	tests := []struct {
		name, text, msg string
		pos             int
	}{
		{"broadcast", "a + v[:2]", "operands could not be broadcast together with shapes (2,3) (2,) ", 2},
		{"matmul core", "a @ a", "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature (n?,k),(k,m?)->(n?,m?) (size 2 is different from 3)", 2},
		{"matmul 0-D", "s @ v", "matmul: Input operand 0 does not have enough dimensions (has 0, gufunc core with signature (n?,k),(k,m?)->(n?,m?) requires 1)", 2},
		{"bitwise float", "a & b", "ufunc 'bitwise_and' not supported for the input types", 2},
		{"boolean subtract", "(a > 1) - (b > 1)", "numpy boolean subtract", 8},
		{"concatenate sizes", "concatenate((a, v), axis=0)", "all the input arrays must have same number of dimensions", 27},
		{"stack shapes", "stack((a, b[0]))", "all input arrays must have the same shape", 16},
		{"unknown column", "a + d", `unknown column "d": the schema has columns "a", "b"`, 4},
		{"no load", `a @ load("W.npy")`, "load(\"W.npy\") needs the WithLoad option", 17},
		{"einsum output", "einsum('ij,j->k', a, v)", "einstein sum subscripts string included output subscript 'k' which never appeared in an input", 23},
		{"einsum sizes", "einsum('ij,kj->ki', a, v[None, :2])", "operands could not be broadcast together with remapped shapes [original->remapped]: (2,3)->(2,3) (1,2)->(1,newaxis,2) ", 35},
		{"where two arguments", "where(a > 1, 1)", "either both or neither of x and y should be given", 15},
		{"weak integer out of range", "u + 300", "Python integer 300 out of bounds for uint8", 2},
		{"a view out of bounds after computing", "(a * 2)[2]", "index 2 is out of bounds for axis 0 with size 2", 10},
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := graphBatch(t, mem)
	defer rec.Release()
	t.Run("size-0 result", func(t *testing.T) {
		if _, err := expr.Compile("a[:, :0] * b[:, :0]", rec.Schema()); !errors.Is(err, arrow.ErrNotImplemented) {
			t.Errorf("got %v, want an error wrapping arrow.ErrNotImplemented (fixedshape cannot hold it)", err)
		}
	})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := expr.Compile(tt.text, rec.Schema())
			var e *expr.Error
			if !errors.Is(err, arrow.ErrInvalid) || !errors.As(err, &e) || !strings.Contains(e.Msg, tt.msg) {
				t.Fatalf("Compile(%q) = %v, want an ErrInvalid containing %q", tt.text, err, tt.msg)
			}
			if e.Pos != tt.pos {
				t.Errorf("Compile(%q) error at %d, want %d", tt.text, e.Pos, tt.pos)
			}
		})
	}
}

// TestGraphLoadAndBuilder evaluates a constant of WithLoad and a
// built expression through CompileExpr, and checks that WithLoad's error
// is seen through the *Error.
func TestGraphLoadAndBuilder(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := graphBatch(t, mem)
	defer rec.Release()
	errMissing := errors.New("no such constant")
	load := expr.WithLoad(func(name string) (expr.Const, error) {
		if name != "W.npy" {
			return expr.Const{}, errMissing
		}
		return expr.Array([]int{3, 1}, []float32{1, 0, -1}), nil
	})
	eval := func(t *testing.T, p *expr.Program) []float64 {
		t.Helper()
		out, err := p.Eval(rec)
		if err != nil {
			t.Fatal(err)
		}
		defer out.Release()
		got, _ := resultValues(t, out.Column(0))
		return got
	}
	p, err := expr.Compile(`a @ load("W.npy")`, rec.Schema(), load, expr.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]float64{-2, -2, -2, -2}, eval(t, p)); diff != "" {
		t.Errorf("a @ W (-want +got):\n%s", diff)
	}
	_, err = expr.Compile(`a @ load("V.npy")`, rec.Schema(), load)
	if !errors.Is(err, errMissing) || !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("missing constant: %v", err)
	}
	a, b := expr.Col("a"), expr.Col("b")
	e := expr.Binary(expr.Div, a, expr.Reduce(expr.Binary(expr.Add, a, b), expr.Sum, true, -1))
	p, err = expr.CompileExpr(e, rec.Schema(), expr.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	// row 0: a / [[9], [21]]; row 1: a / [[1], [11]]
	want := []float64{float64(float32(1) / 9), float64(float32(2) / 9), float64(float32(3) / 9), float64(float32(4) / 21), float64(float32(5) / 21), float64(float32(6) / 21),
		-1, 0, 1, float64(float32(2) / 11), float64(float32(3) / 11), float64(float32(4) / 11)}
	if diff := cmp.Diff(want, eval(t, p)); diff != "" {
		t.Errorf("%s (-want +got):\n%s", e, diff)
	}
}

// TestFuse evaluates three graph programs fused into one and compares
// each result with the program's own, one of them a chain over one
// column; a relabelling program (WithRelabel, which shares its input's
// buffers) cannot be fused.
func TestFuse(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := graphBatch(t, mem)
	defer rec.Release()
	var progs []*expr.Program
	for k, text := range []string{"a - b", "(b - a).sum()", "dot(a[0], v) * s", "a * 2"} {
		p, err := expr.Compile(text, rec.Schema(), expr.WithAllocator(mem), expr.WithName(fmt.Sprintf("r%d", k)))
		if err != nil {
			t.Fatal(err)
		}
		progs = append(progs, p)
	}
	f, err := expr.Fuse(progs...)
	if err != nil {
		t.Fatal(err)
	}
	out, err := f.Eval(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Release()
	if got := out.Schema().NumFields(); got != 4 {
		t.Fatalf("%d fields, want 4", got)
	}
	for k, p := range progs {
		one, err := p.Eval(rec)
		if err != nil {
			t.Fatal(err)
		}
		if !array.Equal(one.Column(0), out.Column(k)) || out.Schema().Field(k).Name != p.Schema().Field(0).Name {
			t.Errorf("result %d: %v, alone %v", k, out.Column(k), one.Column(0))
		}
		one.Release()
	}
	relabel, err := expr.Compile("a.reshape(-1)", rec.Schema(), expr.WithRelabel())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := expr.Fuse(progs[0], relabel); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("fusing a relabelling program: %v", err)
	}
}

// TestGraphSliced evaluates a graph over a slice of a batch (columns at
// an offset, the validity bitmaps too), with a plain column, a permuted
// one and bool results.
func TestGraphSliced(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	whole := graphBatch(t, mem)
	defer whole.Release()
	rec := whole.NewSlice(1, 3)
	defer rec.Release()
	t.Run("no row", func(t *testing.T) {
		empty := whole.NewSlice(1, 1)
		defer empty.Release()
		p, err := expr.Compile("(a > b).any() + a.sum()", empty.Schema(), expr.WithAllocator(mem))
		if err != nil {
			t.Fatal(err)
		}
		out, err := p.Eval(empty)
		if err != nil {
			t.Fatal(err)
		}
		defer out.Release()
		if out.NumRows() != 0 || out.Column(0).Len() != 0 {
			t.Errorf("%d rows from an empty batch", out.NumRows())
		}
	})
	for _, tt := range []struct {
		text string
		want []float64
	}{
		{"(a - p) * s", []float64{-0.5, 0, 0.5, 1, 1.5, 2}},
		{"a > b", []float64{0, 0, 1, 1, 1, 1}},
	} {
		t.Run(tt.text, func(t *testing.T) {
			p, err := expr.Compile(tt.text, rec.Schema(), expr.WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			out, err := p.Eval(rec)
			if err != nil {
				t.Fatal(err)
			}
			defer out.Release()
			got, valid := resultValues(t, out.Column(0))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("values (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]bool{true, false}, valid); diff != "" {
				t.Errorf("validity (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCompileExprLargeConstant compiles a built graph whose constant's
// text is beyond MaxText: a projection by a 300x300 matrix (the identity
// scaled by 2) of a column padded to 300 values.
func TestCompileExprLargeConstant(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := graphBatch(t, mem)
	defer rec.Release()
	const n = 300
	w := make([]float32, n*n)
	for i := range n {
		w[i*n+i] = 2
	}
	e := expr.MatMul(expr.Concatenate(0, expr.Col("v"), expr.Lit(expr.Array([]int{n - 3}, make([]float32, n-3)))), expr.Lit(expr.Array([]int{n, n}, w)))
	if len(e.String()) <= expr.MaxText {
		t.Fatalf("the text of %d bytes is not beyond MaxText", len(e.String()))
	}
	p, err := expr.CompileExpr(e, rec.Schema(), expr.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	out, err := p.Eval(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Release()
	got, _ := resultValues(t, out.Column(0))
	want := make([]float64, 2*n)
	copy(want, []float64{2, 4, 6})
	want[n+2] = 2
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
