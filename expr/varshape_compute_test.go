package expr_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/race"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/varshape"
)

// numColumn builds a column of typ (uint8, int16 or float32 elements) of
// the given logical shapes (nil for a null row), with varied values,
// negatives and a NaN among the floats.
func numColumn(t testing.TB, mem memory.Allocator, typ *varshape.Type, shapes [][]int) *varshape.Array {
	t.Helper()
	sizes := make([]int, len(shapes))
	for i, s := range shapes {
		sizes[i] = size(s)
	}
	var arr *varshape.Array
	var err error
	switch typ.ElemType().ID() {
	case arrow.UINT8:
		arr, err = varshape.FromSlices(mem, typ, shapes, fill(shapes, sizes, func(i, k int) uint8 { return uint8(37*i + 11*k) }))
	case arrow.INT16:
		arr, err = varshape.FromSlices(mem, typ, shapes, fill(shapes, sizes, func(i, k int) int16 { return int16((k*97+i*13)%601 - 300) }))
	case arrow.FLOAT32:
		arr, err = varshape.FromSlices(mem, typ, shapes, fill(shapes, sizes, func(i, k int) float32 {
			if i == 5 && k == 1 {
				return float32(math.NaN())
			}
			return float32((k*31+i*7)%103)/8 - 6
		}))
	default:
		t.Fatalf("no values for %v", typ.ElemType())
	}
	if err != nil {
		t.Fatal(err)
	}
	return arr
}

func fill[T any](shapes [][]int, sizes []int, f func(i, k int) T) [][]T {
	vals := make([][]T, len(shapes))
	for i, s := range shapes {
		if s != nil {
			vals[i] = make([]T, sizes[i])
			for k := range vals[i] {
				vals[i][k] = f(i, k)
			}
		}
	}
	return vals
}

// computeRef evaluates text on row i alone as a fixed-shape column and
// returns the bytes of its one result.
func computeRef(t *testing.T, in *varshape.Array, i int, text string) []byte {
	t.Helper()
	out := rowEval(t, in, i, text)
	defer out.Release()
	return append([]byte(nil), testvec.ResultBytes(out, 0)...)
}

// TestVarCompute evaluates every family of computing operations over
// rows of different shapes (null rows, rows of no element, a permuted
// type), each valid row against the same expression on that row alone as
// a fixed-shape column, through Eval, EvalAs(ResultType()) and EvalInto,
// on one and two workers.
func TestVarCompute(t *testing.T) {
	u8, i16, f32 := arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Float32
	hwc := varshape.MustNewType(u8, 3, varshape.Options{DimNames: []string{"h", "w", "c"}, UniformShape: []int{-1, -1, 3}})
	// A 3-cycle permutation: logical axes stored in another order.
	cyc := varshape.MustNewType(i16, 3, varshape.Options{Permutation: []int{1, 2, 0}})
	vec := varshape.MustNewType(f32, 1, varshape.Options{})
	mat := varshape.MustNewType(f32, 2, varshape.Options{DimNames: []string{"r", "k"}, UniformShape: []int{-1, 3}})
	images := [][]int{{3, 4, 3}, {2, 2, 3}, nil, {5, 1, 3}, {2, 2, 3}, {1, 7, 3}, nil}
	withEmpty := [][]int{{3, 4, 3}, {0, 5, 3}, nil, {2, 2, 3}}
	cycShapes := [][]int{{2, 3, 4}, {3, 1, 2}, nil, {4, 2, 3}, {1, 1, 1}}
	vecs := [][]int{{3}, {5}, nil, {1}, {8}, {4}, {0}}
	mats := [][]int{{2, 3}, {4, 3}, nil, {1, 3}, {0, 3}, {5, 3}}
	tests := []struct {
		name, text string
		typ        *varshape.Type
		shapes     [][]int
		want       string // ResultType's String
		empty      string // the result of a row of no element, when it has one
	}{
		{"astype", "x.astype(float32)", hwc, images, "arrow.variable_shape_tensor[value_type=float, ndim=3, dim_names=[h,w,c], uniform_shape=[null,null,3]]", ""},
		{"normalize", "(x.astype(float32) / 255 - float32([0.485, 0.456, 0.406])) / float32([0.229, 0.224, 0.225])", hwc, images, "uniform_shape=[null,null,3]", ""},
		{"channel means", "x.astype(float32).mean(axis=(0, 1))", hwc, withEmpty, "fixed_shape_tensor[value_type=float, shape=[3], dim_names=[c]]", "[NaN NaN NaN]"},
		{"channel sums keepdims", "x.sum(axis=(0, 1), keepdims=True)", hwc, withEmpty, "fixed_shape_tensor[value_type=uint64, shape=[1,1,3], dim_names=[h,w,c]]", "[0 0 0]"},
		{"row sums", "x.sum(axis=1)", hwc, withEmpty, "uniform_shape=[null,3]", ""},
		{"full mean", "x.mean()", hwc, withEmpty, "float64", "[NaN]"},
		{"full sum then scale", "x.sum() * 2", hwc, withEmpty, "uint64", "[0]"},
		{"max", "x.max()", hwc, images, "uint8", ""},
		{"argmax", "x.argmax(axis=2)", hwc, images, "int64, ndim=2", ""},
		{"argmin all", "x.argmin()", hwc, images, "int64", ""},
		{"clip abs sqrt", "sqrt(abs(x.clip(-100, 50)))", cyc, cycShapes, "value_type=float, ndim=3", ""},
		{"3-cycle arithmetic", "x * 3 - 7", cyc, cycShapes, "value_type=int16, ndim=3", ""},
		{"3-cycle view then reduce", "x.transpose(2, 0, 1)[:, :2].min(axis=-1)", cyc, cycShapes, "value_type=int16, ndim=2", ""},
		{"3-cycle norm", "norm(x, axis=(0, 2))", cyc, cycShapes, "value_type=double, ndim=1", ""},
		{"vector sum", "x.sum()", vec, vecs, "float32", "[0]"},
		{"vector norm", "norm(x)", vec, vecs, "float32", "[0]"},
		{"vector mean", "x.mean()", vec, vecs, "float32", "[NaN]"},
		{"dot", "dot(x[:1], float32([2]))", vec, vecs[:6], "float32", ""},
		{"matrix dot", "dot(x, float32([1, -2, 0.5]))", mat, mats, "float32", "[0]"},
		{"matrix cosine", "cosine(x, float32([1, -2, 0.5]))", mat, mats, "float32", "[NaN]"},
		{"matrix l2", "l2(x, float32([1, -2, 0.5]))", mat, mats, "float32", "[0]"},
		{"matrix l2sq", "l2sq(x, [1, -2, 0.5])", mat, mats, "float64", "[0]"},
		{"matrix column means", "x.mean(axis=0)", mat, mats, "fixed_shape_tensor[value_type=float, shape=[3], dim_names=[k]]", "[NaN NaN NaN]"},
		{"matrix row max keepdims", "x.max(axis=1, keepdims=True)", mat, mats[:4], "uniform_shape=[null,1]", ""},
		{"broadcast adds an axis", "x - float32([[[1, 2, 3]], [[4, 5, 6]]])", mat, mats, "ndim=3, dim_names=[,r,k], uniform_shape=[2,null,3]]", ""},
		{"reduce then compute", "x.sum(axis=0) * 2 + 1", mat, mats, "fixed_shape_tensor[value_type=float, shape=[3], dim_names=[k]]", "[1 1 1]"},
		{"reshape then reduce", "x.reshape(-1, 3).astype(float64).sum(axis=0)", mat, mats, "fixed_shape_tensor[value_type=double, shape=[3], dim_names=[k]]", "[0 0 0]"},
	}
	for _, tt := range tests {
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s/workers=%d", tt.name, workers), func(t *testing.T) {
				mem := testvec.CheckedMem(t)
				in := numColumn(t, mem, tt.typ, tt.shapes)
				defer in.Release()
				p := expr.ParseVar(tt.text, tt.typ)
				rt, err := p.ResultType()
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(rt.String(), tt.want) {
					t.Errorf("result type %v, want %q in it", rt, tt.want)
				}
				opts := []expr.Option{expr.WithAllocator(mem), expr.WithWorkers(workers)}
				eval, err := p.Eval(in, opts...)
				if err != nil {
					t.Fatal(err)
				}
				defer eval.Release()
				as, err := p.EvalAs(rt, in, opts...)
				if err != nil {
					t.Fatal(err)
				}
				defer as.Release()
				if !arrow.TypeEqual(as.DataType(), rt) {
					t.Errorf("EvalAs: type %v, want %v", as.DataType(), rt)
				}
				checkProgram(t, tt.text, in, as, opts)
				elem := elemOf(rt)
				buf := make([]byte, 1<<16)
				nb, err := p.EvalInto(buf, in, opts...)
				if err != nil {
					t.Fatal(err)
				}
				into := buf[:nb]
				for i, s := range tt.shapes {
					for _, out := range []arrow.Array{eval, as} {
						if out.IsNull(i) != (s == nil) {
							t.Fatalf("row %d: null %v", i, out.IsNull(i))
						}
					}
					if s == nil {
						continue
					}
					var want []byte
					if size(s) == 0 {
						got := fmt.Sprint(values(elem, testvec.ResultBytes(as, i)))
						if tt.empty != "" && got != tt.empty {
							t.Errorf("row %d of no element: %s, want %s", i, got, tt.empty)
						}
						want = testvec.ResultBytes(as, i)
					} else {
						want = computeRef(t, in, i, tt.text)
					}
					for k, out := range []arrow.Array{eval, as} {
						if got := testvec.ResultBytes(out, i); !testvec.SameResult(elem, want, got) {
							t.Errorf("row %d of %d (shape %v): result %d is %v, want %v", i, k, s, k, values(elem, got), values(elem, want))
						}
					}
					if got := into[:len(want)]; !testvec.SameResult(elem, want, got) {
						t.Errorf("row %d (shape %v): EvalInto %v, want %v", i, s, values(elem, got), values(elem, want))
					}
					into = into[len(want):]
				}
				if len(into) != 0 {
					t.Errorf("EvalInto wrote %d bytes more", len(into))
				}
			})
		}
	}
}

func size(s []int) int {
	n := 1
	for _, d := range s {
		n *= d
	}
	return n
}

// elemOf returns the element type of a result type.
func elemOf(dt arrow.DataType) arrow.DataType {
	if ft, ok := dt.(*fixedshape.Type); ok {
		return ft.ElemType()
	}
	if vt, ok := varshape.TypeOf(dt); ok {
		return vt.ElemType()
	}
	return dt
}

// values prints result bytes of element type dt for messages.
func values(dt arrow.DataType, b []byte) any {
	switch dt.ID() {
	case arrow.FLOAT32:
		return testvec.Floats(dt, b)
	case arrow.FLOAT64:
		return testvec.Floats(dt, b)
	case arrow.INT64, arrow.UINT64:
		out := make([]uint64, len(b)/8)
		for k := range out {
			out[k] = binary.LittleEndian.Uint64(b[8*k:])
		}
		return out
	}
	return b
}

// TestVarComputeErrors checks the rows whose shape the expression fails
// on, and the types EvalAs refuses.
func TestVarComputeErrors(t *testing.T) {
	f32 := arrow.PrimitiveTypes.Float32
	vec := varshape.MustNewType(f32, 1, varshape.Options{})
	mat := varshape.MustNewType(f32, 2, varshape.Options{})
	cyc := varshape.MustNewType(arrow.PrimitiveTypes.Int16, 3, varshape.Options{Permutation: []int{1, 2, 0}})
	tests := []struct {
		name, text string
		typ        *varshape.Type
		shapes     [][]int
		as         arrow.DataType // nil: Eval
		want       []string       // parts of the error
	}{
		{"empty max", "x.max()", vec, [][]int{{2}, nil, {0}}, nil, []string{`row 2 (column "x" of shape (0,)): zero-size array to reduction operation maximum which has no identity`}},
		{"empty argmin", "x.argmin()", vec, [][]int{{0}}, nil, []string{`row 0 (column "x" of shape (0,)): attempt to get argmin of an empty sequence`}},
		{"constant does not broadcast", "x - float32([1, 2, 3])", mat, [][]int{{2, 3}, {4, 1}, {2, 2}}, nil, []string{`row 2 (column "x" of shape (2,2)): operands could not be broadcast together with shapes (2,2) (3,)`}},
		{"permuted row shape is logical", "x.sum(axis=0) + float32([1, 2])", cyc, [][]int{{2, 3, 2}, {2, 4, 1}, {3, 2, 3}}, nil, []string{`row 2 (column "x" of shape (3,2,3)): operands could not be broadcast together with shapes (2,3) (2,)`}},
		{"similarity does not broadcast", "dot(x, [1, 2])", vec, [][]int{{2}, {1}, {3}}, nil, []string{`row 2 (column "x" of shape (3,)): operands could not be broadcast`}},
		{"plain type for tensors", "x * 2", vec, [][]int{{2}}, f32, []string{"WithResultType(float32): the result is 1-D float32, dense row-major"}},
		{"plain type of another element", "x.sum()", vec, [][]int{{2}}, arrow.PrimitiveTypes.Float64, []string{"WithResultType(float64): the result is one float32 per row"}},
		{"fixed type for a varying result", "x * 2", vec, [][]int{{2}, {3}}, fixedType(t, f32, []int{2}, nil), []string{`row 1 (column "x" of shape (3,)): the result's shape (3,) differs from the column's (2,)`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := testvec.CheckedMem(t)
			in := numColumn(t, mem, tt.typ, tt.shapes)
			defer in.Release()
			p := expr.ParseVar(tt.text, tt.typ)
			var out arrow.Array
			var err error
			if tt.as == nil {
				out, err = p.Eval(in, expr.WithAllocator(mem))
			} else {
				out, err = p.EvalAs(tt.as, in, expr.WithAllocator(mem))
			}
			if err == nil {
				out.Release()
			}
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("err = %v, want arrow.ErrInvalid", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("err = %v, want %q in it", err, w)
				}
			}
		})
	}
}

// TestVarComputeAllNull evaluates columns without a valid row: one value
// per row needs no shape; a tensor result takes the complete uniform
// shape's.
func TestVarComputeAllNull(t *testing.T) {
	f32 := arrow.PrimitiveTypes.Float32
	free := varshape.MustNewType(f32, 2, varshape.Options{})
	whole := varshape.MustNewType(f32, 2, varshape.Options{UniformShape: []int{2, 3}})
	tests := []struct {
		name, text string
		typ        *varshape.Type
		want       string
	}{
		{"scalar", "x.mean()", free, "float32"},
		{"tensor of the uniform shape", "x.sum(axis=0) + 1", whole, "extension<arrow.fixed_shape_tensor[value_type=float, shape=[3]]>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := testvec.CheckedMem(t)
			in := numColumn(t, mem, tt.typ, [][]int{nil, nil})
			defer in.Release()
			out, err := expr.ParseVar(tt.text, tt.typ).Eval(in, expr.WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			defer out.Release()
			if diff := cmp.Diff(tt.want, out.DataType().String()); diff != "" {
				t.Errorf("type (-want +got):\n%s", diff)
			}
			if out.Len() != 2 || out.NullN() != 2 {
				t.Errorf("%d rows, %d null, want 2 and 2", out.Len(), out.NullN())
			}
		})
	}
}

// FuzzVarCompute evaluates expression texts over a variable-shape column
// of several shapes (a permuted type, a null row, a row of no element):
// every error wraps arrow.ErrInvalid; a column evaluated without error has
// each row equal to the row alone as a fixed-shape column, and evaluates
// into the type ResultType decides before any row.
func FuzzVarCompute(f *testing.F) {
	for _, s := range []string{"x.astype(float32).mean(axis=(0, 1))", "x.sum()", "x[:2] * 3 - [1, 2]",
		"(x / 4 - [0.5, 0.25]) / float32([2, 3])", "x.max(axis=-1, keepdims=True)", "norm(x, axis=(0, 2))",
		"dot(x, [1, -1])", "x.T.clip(-3, 4).argmin(axis=0)", "abs(x).reshape(-1).sum(axis=0)", "x.min()",
		"cosine(x[..., :1], int16(5))", "l2(x, x[0])", "x - [[[1], [2]]]"} {
		f.Add(s)
	}
	typ := varshape.MustNewType(arrow.PrimitiveTypes.Int16, 3, varshape.Options{Permutation: []int{2, 0, 1}, UniformShape: []int{-1, -1, 2}})
	shapes := [][]int{{2, 3, 2}, nil, {1, 2, 2}, {3, 0, 2}, {2, 3, 2}, {4, 1, 2}}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	in := numColumn(f, mem, typ, shapes)
	f.Cleanup(in.Release)
	f.Fuzz(func(t *testing.T, text string) {
		p := expr.ParseVar(text, typ)
		out, err := p.Eval(in, expr.WithAllocator(mem))
		if err != nil {
			if !errors.Is(err, arrow.ErrInvalid) && !errors.Is(err, arrow.ErrNotImplemented) {
				t.Fatalf("Eval(%q): %v does not wrap ErrInvalid", text, err)
			}
			return
		}
		defer out.Release()
		if out.Len() != len(shapes) {
			t.Fatalf("Eval(%q): %d rows", text, out.Len())
		}
		elem := elemOf(out.DataType())
		for i, s := range shapes {
			if out.IsNull(i) != (s == nil) {
				t.Fatalf("Eval(%q): row %d null %v", text, i, out.IsNull(i))
			}
			if s == nil || size(s) == 0 {
				continue
			}
			want, ok := fuzzRef(in, i, text)
			if !ok {
				continue // a result of no element: no fixed-shape column holds it
			}
			if got := testvec.ResultBytes(out, i); !testvec.SameResult(elem, want, got) {
				t.Fatalf("Eval(%q): row %d is %v, want %v", text, i, values(elem, got), values(elem, want))
			}
		}
		rt, err := p.ResultType()
		if err != nil {
			return
		}
		as, err := p.EvalAs(rt, in, expr.WithAllocator(mem))
		if err != nil {
			t.Fatalf("EvalAs(%v) of %q: %v", rt, text, err)
		}
		as.Release()
	})
}

// fuzzRef is computeRef reporting false when the row alone fails.
func fuzzRef(in *varshape.Array, i int, text string) ([]byte, bool) {
	row, err := in.Row(i)
	if err != nil {
		return nil, false
	}
	defer row.Release()
	e, err := expr.Parse(text, expr.Input(row.TensorType()))
	if err != nil {
		return nil, false
	}
	out, err := evalPlan(e, row)
	if err != nil {
		return nil, false
	}
	defer out.Release()
	var b []byte
	switch o := out.(type) {
	case *fixedshape.Array:
		b = o.ValueBytes()
	default:
		w := out.DataType().(arrow.FixedWidthDataType).BitWidth() / 8
		b = out.Data().Buffers()[1].Bytes()[:w]
	}
	return append([]byte(nil), b...), true
}

// TestVarComputeAllocs checks that a Program over a variable-shape
// column allocates per call, not per row: 40 and 400 rows of the same 4
// shapes (their engine programs cached; each row a run of its own)
// allocate about the same.
func TestVarComputeAllocs(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector makes sync.Pool drop workers at random")
	}
	typ := varshape.MustNewType(arrow.PrimitiveTypes.Uint8, 3, varshape.Options{UniformShape: []int{-1, -1, 3}})
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: typ, Nullable: true}}, nil)
	for _, text := range []string{"x.astype(float32).mean(axis=(0, 1))", "x.max()", "x[:1].astype(float32) / 255 - float32([0.485, 0.456, 0.406])"} {
		t.Run(text, func(t *testing.T) {
			p, err := expr.Compile(text, schema, expr.WithWorkers(1))
			if err != nil {
				t.Fatal(err)
			}
			var got []float64
			for _, n := range []int{40, 400} {
				shapes := make([][]int, n)
				for i := range shapes {
					shapes[i] = []int{4 + i%4, 5, 3}
				}
				in := numColumn(t, memory.DefaultAllocator, typ, shapes)
				defer in.Release()
				if err := testvec.Releasing(p.EvalColumn(in)); err != nil { // compiles the engine programs
					t.Fatal(err)
				}
				got = append(got, testing.AllocsPerRun(10, func() {
					if err := testvec.Releasing(p.EvalColumn(in)); err != nil {
						t.Fatal(err)
					}
				}))
			}
			t.Logf("allocations per EvalColumn of 40 and 400 rows: %v", got)
			if got[1] > got[0]+8 { // the slice of runs grows a few times
				t.Errorf("allocations for 40 and 400 rows: %v", got)
			}
		})
	}
}
