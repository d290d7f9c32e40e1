package expr_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/half"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/search"
	"github.com/google/go-cmp/cmp"
)

// evalValues evaluates text over one tensor of vals (element type elem,
// shape [len(vals)]) from a checked allocator and returns the values of
// the result; the test's cleanup releases them and checks that nothing
// leaked.
func evalValues[T fixedshape.Elem](t *testing.T, elem arrow.DataType, text string, vals []T) arrow.Array {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	typ := fixedshape.MustNewType(elem, metadata.MustNew([]int{len(vals)}, nil, nil))
	in, err := fixedshape.FromSlice(typ, vals, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Release()
	out, err := evalPlan(expr.MustParse(text, expr.Input(typ)), in, expr.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(out.Release)
	return out.(*fixedshape.Array).Storage().(*array.FixedSizeList).ListValues()
}

// evalInts evaluates text over one tensor of float64 values and
// returns the result converted to int64 (the result must be an integer
// tensor).
func evalInts(t *testing.T, text string, vals []float64) []int64 {
	t.Helper()
	child := evalValues(t, f64, text, vals)
	var got []int64
	for i := range child.Len() {
		switch c := child.(type) {
		case *array.Int8:
			got = append(got, int64(c.Value(i)))
		case *array.Uint8:
			got = append(got, int64(c.Value(i)))
		case *array.Int32:
			got = append(got, int64(c.Value(i)))
		case *array.Int64:
			got = append(got, c.Value(i))
		case *array.Uint64:
			got = append(got, int64(c.Value(i)))
		default:
			t.Fatalf("result of %T", child)
		}
	}
	return got
}

// checkBuilt checks an expression e built over the input x: it passes
// Check, prints as text, parses back to an equal expression, has element
// type elem and shape, and compiles once simplified.
func checkBuilt(t *testing.T, x, e expr.Expr, text string, elem arrow.DataType, shape []int) {
	t.Helper()
	if err := expr.Check(e); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(text, e.String()); diff != "" {
		t.Errorf("String (-want +got):\n%s", diff)
	}
	again, err := expr.Parse(e.String(), x)
	if err != nil || !expr.Equal(again, e) {
		t.Errorf("Parse(String()) = %v, %v; not equal", again, err)
	}
	if !arrow.TypeEqual(elem, e.ElemType()) {
		t.Errorf("ElemType = %v, want %v", e.ElemType(), elem)
	}
	if diff := cmp.Diff(shape, e.Metadata().Shape(), cmpEmpty); diff != "" {
		t.Errorf("shape (-want +got):\n%s", diff)
	}
	if _, err := expr.CompilePlan(expr.Simplify(e)); err != nil {
		t.Errorf("CompilePlan(Simplify): %v", err)
	}
}

// TestAstypeFloatToInt checks the defined conversion of floats to
// integers: truncation toward zero, NaN to 0, saturation beyond the range.
func TestAstypeFloatToInt(t *testing.T) {
	inf := math.Inf(1)
	vals := []float64{math.NaN(), inf, -inf, 1e10, -1e10, -1.5, 1.9, 127.99, 128, -128.5, 300.7, -3}
	tests := []struct {
		name, text string
		want       []int64
	}{
		{"int8", "x.astype(int8)", []int64{0, 127, -128, 127, -128, -1, 1, 127, 127, -128, 127, -3}},
		{"uint8", "x.astype(uint8)", []int64{0, 255, 0, 255, 0, 0, 1, 127, 128, 0, 255, 0}},
		{"int32", "x.astype(int32)", []int64{0, math.MaxInt32, math.MinInt32, math.MaxInt32, math.MinInt32, -1, 1, 127, 128, -128, 300, -3}},
		{"int64", "x.astype(int64)", []int64{0, math.MaxInt64, math.MinInt64, 1e10, -1e10, -1, 1, 127, 128, -128, 300, -3}},
		{"uint64", "x.astype(uint64)", []int64{0, -1, 0, 1e10, 0, 0, 1, 127, 128, 0, 300, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, evalInts(t, tt.text, vals)); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tt.text, diff)
			}
		})
	}
}

func TestComputeConstructors(t *testing.T) {
	x := expr.InputOf(u8, metadata.MustNew([]int{4, 3}, []string{"h", "c"}, nil))
	b := expr.InputOf(arrow.FixedWidthTypes.Boolean, metadata.MustNew([]int{2}, nil, nil))
	lo, hi, nan := expr.Int(0), expr.Float(0.5), expr.Float(math.NaN())
	tests := []struct {
		name  string
		e     expr.Expr
		text  string
		elem  arrow.DataType
		shape []int
		names []string
	}{
		{"astype", expr.Astype(x, f32), "x.astype(float32)", f32, []int{4, 3}, []string{"h", "c"}},
		{"weak int keeps uint8", expr.Arith(x, expr.Mul, expr.Int(2)), "x * 2", u8, []int{4, 3}, []string{"h", "c"}},
		{"weak float", expr.Arith(x, expr.Add, expr.Float(1)), "x + 1.0", f64, []int{4, 3}, []string{"h", "c"}},
		{"true division", expr.Arith(x, expr.Div, expr.Int(255)), "x / 255", f64, []int{4, 3}, []string{"h", "c"}},
		{"left", expr.ArithLeft(expr.Int(1), expr.Sub, x), "1 - x", u8, []int{4, 3}, []string{"h", "c"}},
		{"typed constant", expr.Arith(x, expr.Sub, expr.Array([]int{3}, []float32{0.5, 0.25, 0.125})), "x - float32([0.5, 0.25, 0.125])", f32, []int{4, 3}, []string{"h", "c"}},
		{"float16 constant", expr.Arith(x, expr.Mul, expr.Array([]int{}, []float16.Num{float16.New(2)})), "x * float16(2.0)", f16, []int{4, 3}, []string{"h", "c"}},
		{"broadcast grows", expr.Arith(x, expr.Add, expr.Ints([]int{2, 1, 1}, 1, 2)), "x + [[[1]], [[2]]]", i64, []int{2, 4, 3}, nil},
		{"clip", expr.Clip(x, &lo, &hi), "x.clip(0, 0.5)", f64, []int{4, 3}, []string{"h", "c"}},
		{"clip upper", expr.Clip(x, nil, &lo), "x.clip(None, 0)", u8, []int{4, 3}, []string{"h", "c"}},
		{"abs", expr.Abs(x), "abs(x)", u8, []int{4, 3}, []string{"h", "c"}},
		{"sqrt", expr.Sqrt(x), "sqrt(x)", f16, []int{4, 3}, []string{"h", "c"}},
		{"sum", expr.Reduce(x, expr.Sum, false, 0), "x.sum(axis=0)", u64, []int{3}, []string{"c"}},
		{"mean all", expr.Reduce(x, expr.Mean, false), "x.mean()", f64, nil, []string{}},
		{"max keepdims", expr.Reduce(x, expr.Max, true, -1), "x.max(axis=-1, keepdims=True)", u8, []int{4, 1}, []string{"h", "c"}},
		{"argmax", expr.Reduce(x, expr.ArgMax, false, 1), "x.argmax(axis=1)", i64, []int{4}, []string{"h"}},
		{"norm", expr.Reduce(x, expr.Norm, false, 0, 1), "norm(x, axis=(0, 1))", f64, nil, []string{}},
		{"empty axes", expr.Reduce(x, expr.Sum, false, []int{}...), "x.sum(axis=())", u64, []int{4, 3}, []string{"h", "c"}},
		{"norm one axis", expr.Reduce(x, expr.Norm, true, -1), "norm(x, axis=-1, keepdims=True)", f64, []int{4, 1}, []string{"h", "c"}},
		{"clip nan", expr.Clip(x, &nan, nil), "x.clip(nan, None)", f64, []int{4, 3}, []string{"h", "c"}},
		{"dot integer", expr.Similarity(x, search.MetricDot, expr.Int(3)), "dot(x, 3)", u64, nil, nil},
		{"dot integer list", expr.Similarity(x, search.MetricDot, expr.Ints([]int{3}, 1, -2, 3)), "dot(x, [1, -2, 3])", i64, nil, nil},
		{"cosine", expr.Similarity(x, search.MetricCosine, expr.Floats([]int{3}, 1, 0, 0)), "cosine(x, [1.0, 0.0, 0.0])", f64, nil, nil},
		{"l2 float32", expr.Similarity(expr.Astype(x, f32), search.MetricL2, expr.Array([]int{3}, []float32{1, 2, 3})), "l2(x.astype(float32), float32([1.0, 2.0, 3.0]))", f32, nil, nil},
		{"precedence", expr.Arith(expr.Arith(x, expr.Add, expr.Int(1)), expr.Mul, expr.Int(2)), "(x + 1) * 2", u8, []int{4, 3}, []string{"h", "c"}},
		{"precedence left", expr.ArithLeft(expr.Int(9), expr.Sub, expr.Arith(x, expr.Sub, expr.Int(1))), "9 - (x - 1)", u8, []int{4, 3}, []string{"h", "c"}},
		{"negative scalar", expr.Arith(x, expr.Sub, expr.Float(-0.5)), "x - (-0.5)", f64, []int{4, 3}, []string{"h", "c"}},
		{"postfix of arithmetic", expr.Reduce(expr.Arith(x, expr.Add, expr.Int(1)), expr.Min, false), "(x + 1).min()", u8, nil, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkBuilt(t, x, tt.e, tt.text, tt.elem, tt.shape)
			if diff := cmp.Diff(tt.names, tt.e.Metadata().DimNames(), cmpEmpty); diff != "" {
				t.Errorf("names (-want +got):\n%s", diff)
			}
		})
	}
	errs := []struct {
		name string
		e    expr.Expr
		msg  string
	}{
		{"python int out of bounds", expr.Arith(x, expr.Add, expr.Int(256)), "Python integer 256 out of bounds for uint8"},
		{"constant size", expr.Arith(x, expr.Add, expr.Floats([]int{2}, 1, 2, 3)), "constant of 3 values for shape (2,)"},
		{"broadcast", expr.Arith(x, expr.Add, expr.Floats([]int{2}, 1, 2)), "operands could not be broadcast together with shapes (4,3) (2,) "},
		{"astype", expr.Astype(x, arrow.BinaryTypes.String), "not a numeric element type"},
		{"bool", expr.Abs(b), "abs is not supported for bool elements"},
		{"clip without bounds", expr.Clip(x, nil, nil), "One of max or min must be given"},
		{"view after compute", expr.Transpose(expr.Abs(x)), "view operations come before computing ones"},
		{"two reductions", expr.Reduce(expr.Reduce(x, expr.Sum, false, 0), expr.Max, false), "reduces once"},
		{"axis", expr.Reduce(x, expr.Sum, false, 2), "axis 2 is out of bounds for array of dimension 2"},
		{"duplicate axis", expr.Reduce(x, expr.Sum, false, 1, -1), "duplicate value in 'axis'"},
		{"argmax tuple", expr.Reduce(x, expr.ArgMax, false, 0, 1), "'tuple' object cannot be interpreted as an integer"},
		{"norm three axes", expr.Reduce(expr.Reshape(x, 2, 2, 3), expr.Norm, false, 0, 1, 2), "Improper number of dimensions to norm."},
		{"norm no axes", expr.Reduce(x, expr.Norm, false, []int{}...), "Improper number of dimensions to norm."},
		{"norm duplicate axes", expr.Reduce(x, expr.Norm, false, 1, -1), "Duplicate axes given."},
		{"dot python int out of bounds", expr.Similarity(x, search.MetricDot, expr.Int(256)), "Python integer 256 out of bounds for uint8"},
		{"empty max", expr.Reduce(expr.Slice(x, 0, 2, 1, expr.Omit), expr.Max, false, 0), "zero-size array to reduction operation maximum which has no identity"},
		{"similarity broadcast", expr.Similarity(x, search.MetricDot, expr.Floats([]int{4}, 1, 2, 3, 4)), "could not be broadcast"},
	}
	for _, tt := range errs {
		t.Run(tt.name, func(t *testing.T) {
			err := expr.Check(tt.e)
			if !errors.Is(err, arrow.ErrInvalid) || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("Check = %v, want an ErrInvalid containing %q", err, tt.msg)
			}
			if _, err := expr.CompilePlan(tt.e); err == nil {
				t.Error("Compile succeeded")
			}
		})
	}
}

func TestComputeParseErrors(t *testing.T) {
	x := expr.InputOf(f32, metadata.MustNew([]int{2, 3}, nil, nil))
	tests := []parseErrorCase{
		{"axis", "x.sum(axis=2)", "axis 2 is out of bounds for array of dimension 2", 13},
		{"broadcast at the operator", "x + [1.0, 2.0]", "operands could not be broadcast together with shapes (2,3) (2,) ", 2},
		{"two tensors", "x * x.T", "operands could not be broadcast together with shapes (2,3) (3,2) ", 2},
		{"two constant tensors", "x + ([1.0] + [2.0])", "operations between constants are not supported", 11},
		{"unknown function", "cumprod(x)", `unknown function "cumprod"`, 0},
		{"unknown method", "x.cumsum()", `unknown operation "cumsum"`, 2},
		{"dtype", "x.astype(complex64)", `data type "complex64" not understood`, 9},
		{"inhomogeneous", "x + [[1, 2], [3]]", "inhomogeneous", 13},
		{"list of tensors", "x + [x]", "lists hold numbers", 5},
		{"bitwise of floats", "x ** 2.5 & 1", "ufunc 'bitwise_and' not supported for the input types", 9},
		{"boolean negative", "-(x > 0)", "The numpy boolean negative, the `-` operator, is not supported", 0},
		{"keyword", "x.sum(axes=1)", "unexpected argument of sum", 6},
		{"keepdims", "x.sum(keepdims=1)", "expected True or False", 15},
		{"empty mean is fine but empty min is not", "x[:, 3:].min(axis=1)", "zero-size array to reduction operation minimum which has no identity", 20},
		{"deep", strings.Repeat("(", 300) + "x" + strings.Repeat(")", 300), "nested more than", 200},
		{"view after compute", "abs(x)[0, 5]", "index 5 is out of bounds for axis 1 with size 3", 12},
		{"constant method", "[1, 2].sum()", "constants take no indexes or methods", 6},
		{"only constant", "2 + 3", "the text is a constant", 0},
		{"big integer", "x + 99999999999999999999", "out of range", 4},
	}
	checkParseErrors(t, x, tests)
}

// parseErrorCase is a text Parse must refuse with an error containing msg
// at byte pos.
type parseErrorCase struct {
	name, text, msg string
	pos             int
}

// checkParseErrors parses each case's text over x and checks its error:
// an *expr.Error wrapping arrow.ErrInvalid, with msg, at pos.
func checkParseErrors(t *testing.T, x expr.Expr, cases []parseErrorCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			_, err := expr.Parse(tt.text, x)
			var e *expr.Error
			if !errors.Is(err, arrow.ErrInvalid) || !errors.As(err, &e) || !strings.Contains(e.Msg, tt.msg) {
				t.Fatalf("Parse(%.40q) = %v, want an ErrInvalid containing %q", tt.text, err, tt.msg)
			}
			if e.Pos != tt.pos {
				t.Errorf("Parse(%.40q) error at %d, want %d", tt.text, e.Pos, tt.pos)
			}
		})
	}
}

// TestComputePlan checks the plan's result type and the view API's
// answers for computing expressions.
func TestComputePlan(t *testing.T) {
	mem := testvec.CheckedMem(t)
	typ := fixedshape.MustNewType(u8, metadata.MustNew([]int{2, 3}, nil, nil))
	in, err := fixedshape.FromSlice(typ, []uint8{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, []bool{true, false})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Release()
	scalar := expr.MustCompilePlan(expr.MustParse("x.mean()", expr.Input(typ)))
	if rt, err := scalar.ResultType(); err != nil || !arrow.TypeEqual(rt, f64) || !scalar.Scalar() {
		t.Errorf("ResultType = %v, %v, Scalar %v; want float64, true", rt, err, scalar.Scalar())
	}
	out, err := scalar.Eval(in, expr.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(`[3.5 (null)]`, out.String()); diff != "" {
		t.Errorf("mean (-want +got):\n%s", diff)
	}
	out.Release()
	dst := make([]byte, 16)
	if err := scalar.EvalInto(dst, in); err != nil {
		t.Fatal(err)
	}
	if got := math.Float64frombits(uint64(dst[0]) | uint64(dst[1])<<8 | uint64(dst[2])<<16 | uint64(dst[3])<<24 | uint64(dst[4])<<32 | uint64(dst[5])<<40 | uint64(dst[6])<<48 | uint64(dst[7])<<56); got != 3.5 {
		t.Errorf("EvalInto = %v, want 3.5", got)
	}
	if err := scalar.EvalInto(dst[:8], in); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("EvalInto a short buffer = %v, want ErrInvalid", err)
	}
	tensor := expr.MustCompilePlan(expr.MustParse("x.T * 2", expr.Input(typ)))
	col, err := tensor.Eval(in, expr.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(`[[[2,8],[4,10],[6,12]] (null)]`, col.String()); diff != "" {
		t.Errorf("x.T * 2 (-want +got):\n%s", diff)
	}
	col.Release()
	c, _ := fixedshape.ColumnOf[uint8](in)
	if _, err := expr.Apply(tensor, nil, c.Tensor(0)); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("Apply of a computing plan = %v, want ErrInvalid", err)
	}
}

// TestComputeLarge evaluates columns of several MiB, which split across
// workers and stream float32 results past the caches, and checks each
// tensor's result against the same expression over that tensor alone.
func TestComputeLarge(t *testing.T) {
	mem := testvec.CheckedMem(t)
	typ := fixedshape.MustNewType(u8, metadata.MustNew([]int{64, 48, 3}, nil, nil))
	const rows = 160
	data := make([]uint8, rows*typ.ListSize())
	for i := range data {
		data[i] = uint8(i*31 + i/7)
	}
	valid := make([]bool, rows)
	for i := range valid {
		valid[i] = i%37 != 5
	}
	in, err := fixedshape.FromSlice(typ, data, valid)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Release()
	for _, text := range []string{
		"(x.astype(float32) / 255 - float32([0.485, 0.456, 0.406])) / float32([0.229, 0.224, 0.225])",
		"x[4:60, ::-1].astype(float32).mean(axis=(0, 1))",
		"x.sum(axis=2)",
		"x.max(axis=(0, 1))",
		"x.sum(axis=(0, 1))",
		"x.astype(float32).mean(axis=(0, 1))",
	} {
		t.Run(text, func(t *testing.T) {
			p := expr.MustCompilePlan(expr.MustParse(text, expr.Input(typ)))
			var outs []arrow.Array
			for _, workers := range []int{1, 2} {
				out, err := p.Eval(in, expr.WithAllocator(mem), expr.WithWorkers(workers))
				if err != nil {
					t.Fatal(err)
				}
				defer out.Release()
				outs = append(outs, out)
			}
			if !array.Equal(outs[0], outs[1]) {
				t.Fatal("two workers differ from one")
			}
			for _, i := range []int{0, 5, 77, rows - 1} {
				one := array.NewSlice(in, int64(i), int64(i+1)).(*fixedshape.Array)
				got, err := p.Eval(one, expr.WithAllocator(mem))
				one.Release()
				if err != nil {
					t.Fatal(err)
				}
				want := array.NewSlice(outs[0], int64(i), int64(i+1))
				if !array.Equal(want, got) {
					t.Errorf("tensor %d alone = %v, in the column %v", i, got, want)
				}
				want.Release()
				got.Release()
			}
		})
	}
}

// TestClipNaNBound checks that a NaN clip bound gives NaN on every path
// (the float32 kernels, the general one, before a reduction).
func TestClipNaNBound(t *testing.T) {
	vals := make([]float32, 70)
	for i := range vals {
		vals[i] = float32(i) - 35
	}
	for _, text := range []string{"x.clip(nan, 1)", "x.clip(0, nan)", "x.clip(None, nan)", "x.astype(float64).clip(nan, None)", "(x * 2).clip(nan, 1)", "x.clip(nan, 1).sum(axis=0, keepdims=True)"} {
		t.Run(text, func(t *testing.T) {
			child := evalValues(t, f32, text, vals)
			for i := range child.Len() {
				var v float64
				switch c := child.(type) {
				case *array.Float32:
					v = float64(c.Value(i))
				case *array.Float64:
					v = c.Value(i)
				default:
					t.Fatalf("result of %T", child)
				}
				if !math.IsNaN(v) {
					t.Fatalf("element %d = %v, want NaN", i, v)
				}
			}
		})
	}
}

// TestFloat16SumsRounded: float16 sums over any axis are the exact sum
// rounded once to float16, which NumPy does not promise (it accumulates a
// reduction over an outer axis in float16 and rounds at every step). The
// values are multiples of 2^-10 below 64 in magnitude, so their sums are
// exact in float32, and half.FromFloat64 rounds them once.
func TestFloat16SumsRounded(t *testing.T) {
	const rows, cols = 7, 5
	seed := uint32(12345)
	next := func() float32 {
		seed = seed*1664525 + 1013904223
		return float32(int32(seed>>8)%(1<<14)) / 1024 // |v| < 16, a multiple of 2^-10
	}
	for trial := range 50 {
		vals := make([]float16.Num, rows*cols)
		exact := make([]float32, rows*cols)
		for i := range vals {
			vals[i] = float16.New(next())
			exact[i] = vals[i].Float32()
		}
		typ := fixedshape.MustNewType(arrow.FixedWidthTypes.Float16, metadata.MustNew([]int{rows, cols}, nil, nil))
		in, err := fixedshape.FromSlice(typ, vals, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, tt := range []struct {
			text string
			want func(k int) float32 // the exact sum of result element k
		}{
			{"x.sum(axis=0)", func(k int) float32 {
				var s float32
				for r := range rows {
					s += exact[r*cols+k]
				}
				return s
			}},
			{"x.sum(axis=1)", func(k int) float32 {
				var s float32
				for c := range cols {
					s += exact[k*cols+c]
				}
				return s
			}},
			{"x.sum(axis=(0, 1), keepdims=True)", func(int) float32 {
				var s float32
				for _, v := range exact {
					s += v
				}
				return s
			}},
		} {
			out, err := evalPlan(expr.MustParse(tt.text, expr.Input(typ)), in)
			if err != nil {
				t.Fatal(err)
			}
			got := out.(*fixedshape.Array).Storage().(*array.FixedSizeList).ListValues().(*array.Float16).Values()
			for k, g := range got {
				if w := float16.FromBits(half.FromFloat64(float64(tt.want(k)))); g != w {
					t.Errorf("trial %d, %s: element %d = %v, want the rounded exact sum %v", trial, tt.text, k, g, w)
				}
			}
			out.Release()
		}
		in.Release()
	}
}
