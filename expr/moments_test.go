package expr_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/varshape"
	"github.com/google/go-cmp/cmp"
)

func TestVarStdConstructors(t *testing.T) {
	x := expr.InputOf(u8, metadata.MustNew([]int{4, 3}, []string{"h", "c"}, nil))
	tests := []struct {
		name  string
		e     expr.Expr
		text  string
		elem  arrow.DataType
		shape []int
	}{
		{"var all", expr.Reduce(x, expr.Var, false), "x.var()", f64, nil},
		{"std axis", expr.Reduce(x, expr.Std, false, 1), "x.std(axis=1)", f64, []int{4}},
		{"var ddof keepdims", expr.ReduceDdof(x, expr.Var, 1, true, 0, 1), "x.var(axis=(0, 1), keepdims=True, ddof=1)", f64, []int{1, 1}},
		{"std float32 ddof", expr.ReduceDdof(expr.Astype(x, f32), expr.Std, 2, false, -2), "x.astype(float32).std(axis=-2, ddof=2)", f32, []int{3}},
		{"var float16", expr.Reduce(expr.Astype(x, f16), expr.Var, false), "x.astype(float16).var()", f16, nil},
		{"arithmetic after", expr.Arith(expr.Reduce(x, expr.Std, false, 0), expr.Mul, expr.Int(2)), "x.std(axis=0) * 2", f64, []int{3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkBuilt(t, x, tt.e, tt.text, tt.elem, tt.shape)
		})
	}
	if expr.Equal(expr.ReduceDdof(x, expr.Var, 1, false), expr.Reduce(x, expr.Var, false)) {
		t.Error("Equal ignores ddof")
	}
	if !expr.Equal(expr.ReduceDdof(x, expr.Std, 0, false), expr.Reduce(x, expr.Std, false)) {
		t.Error("ddof 0 differs from Reduce")
	}
	errs := []struct {
		name string
		e    expr.Expr
		msg  string
	}{
		{"ddof of sum", expr.ReduceDdof(x, expr.Sum, 1, false), "sum() got an unexpected keyword argument 'ddof'"},
		{"negative ddof", expr.ReduceDdof(x, expr.Var, -1, false), "ddof must be a non-negative integer, not -1"},
		{"axis", expr.Reduce(x, expr.Std, false, 2), "axis 2 is out of bounds for array of dimension 2"},
		{"two reductions", expr.Reduce(expr.Reduce(x, expr.Mean, false, 0), expr.Var, false), "reduces once"},
		{"unknown", expr.Reduce(x, expr.AllTrue+1, false), "unknown reduction"},
	}
	for _, tt := range errs {
		t.Run(tt.name, func(t *testing.T) {
			err := expr.Check(tt.e)
			if !errors.Is(err, arrow.ErrInvalid) || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("Check = %v, want an ErrInvalid containing %q", err, tt.msg)
			}
		})
	}
}

func TestVarStdParse(t *testing.T) {
	x := expr.InputOf(f32, metadata.MustNew([]int{2, 3}, nil, nil))
	texts := map[string]string{
		"x.var()":                             "x.var()",
		"var(x, axis=0)":                      "x.var(axis=0)",
		"std(x, 1, ddof=1)":                   "x.std(axis=1, ddof=1)",
		"x.std(ddof=0, axis=None)":            "x.std()",
		"x.var(ddof=True, keepdims=True)":     "x.var(keepdims=True, ddof=1)",
		"x.var(axis=(0, 1), ddof=2,)":         "x.var(axis=(0, 1), ddof=2)",
		"sqrt(x.var(axis=0) + 1)":             "sqrt(x.var(axis=0) + 1)",
		"x.T[1:].astype(float64).std(axis=0)": "x.T[1:].astype(float64).std(axis=0)",
	}
	for text, want := range texts {
		e, err := expr.Parse(text, x)
		if err != nil {
			t.Errorf("Parse(%q): %v", text, err)
			continue
		}
		if got := e.String(); got != want {
			t.Errorf("Parse(%q).String() = %q, want %q", text, got, want)
		}
	}
	errs := []parseErrorCase{
		{"none", "x.var(ddof=None)", "'<=' not supported between instances of 'int' and 'NoneType'", 11},
		{"float", "x.std(ddof=1.5)", "ddof takes an integer", 11},
		{"negative", "x.std(ddof=-1)", "ddof must be a non-negative integer, not -1", 11},
		{"word", "x.var(ddof=one)", "expected an integer", 11},
		{"ddof of mean", "x.mean(ddof=1)", "unexpected argument of mean (want axis= or keepdims=)", 7},
		{"keyword", "var(x, dof=1)", "unexpected argument of var (want axis=, keepdims= or ddof=)", 7},
	}
	checkParseErrors(t, x, errs)
}

// TestVarStdOffset reduces data 1e8 + 0.25*(k%4) (exact in float64),
// whose variance is exactly 0.078125, by every path (a whole tensor, runs
// along rows, strided columns, blocked channels, after a view): the
// one-pass formula E[x^2] - E[x]^2 gets no digit of it right.
func TestVarStdOffset(t *testing.T) {
	mem := testvec.CheckedMem(t)
	const rows, cols = 2048, 4
	typ := fixedshape.MustNewType(f64, metadata.MustNew([]int{rows, cols}, nil, nil))
	vals := make([]float64, 2*rows*cols)
	for k := range vals {
		// Rows cycle through the four values too, so that every row and
		// every column holds each equally often.
		vals[k] = 1e8 + 0.25*float64((k+k/cols)%4)
	}
	in, err := fixedshape.FromSlice(typ, vals, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Release()
	const v = 0.078125
	tests := []struct {
		text string
		want float64
	}{
		{"x.var()", v},
		{"x.var(axis=1)", v},
		{"x.var(axis=0)", v},
		{"x.std(axis=0)", math.Sqrt(v)},
		{"x.var(axis=(0, 1), keepdims=True)", v},
		{"x.T.var(axis=1)", v},
		{"x[::-1].var(axis=0)", v},
		{"x.var(ddof=1)", v * rows * cols / (rows*cols - 1)},
		{"x.std(axis=1, ddof=2)", math.Sqrt(v * 2)},
		{"(x - 1e8).var(axis=0)", v},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			e := expr.MustParse(tt.text, expr.Input(typ))
			out, err := evalPlan(e, in, expr.WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			defer out.Release()
			var b []byte
			if fa, ok := out.(*fixedshape.Array); ok {
				b = fa.ValueBytes()
			} else {
				b = out.(*array.Float64).Data().Buffers()[1].Bytes()
			}
			if len(b) == 0 {
				t.Fatal("no values")
			}
			for k := 0; k+8 <= len(b); k += 8 {
				got := math.Float64frombits(binary.LittleEndian.Uint64(b[k:]))
				if math.Abs(got-tt.want) > 1e-14*tt.want {
					t.Fatalf("value %d = %v, want %v", k/8, got, tt.want)
				}
			}
		})
	}
}

// TestVarStdVarShape checks that ddof reaches each row's plan of a
// variable-shape column.
func TestVarStdVarShape(t *testing.T) {
	mem := testvec.CheckedMem(t)
	typ := varshape.MustNewType(u8, 3, varshape.Options{UniformShape: []int{varshape.Varies, varshape.Varies, 3}})
	b, err := varshape.NewBuilder[uint8](mem, typ)
	if err != nil {
		t.Fatal(err)
	}
	for _, hw := range [][2]int{{2, 3}, {4, 1}} {
		pixels := make([]uint8, hw[0]*hw[1]*3)
		for k := range pixels {
			pixels[k] = uint8(10 * (k % 3))
		}
		if err := b.Append([]int{hw[0], hw[1], 3}, pixels); err != nil {
			t.Fatal(err)
		}
	}
	images := b.NewArray()
	defer images.Release()
	p := expr.ParseVar("x.var(ddof=1)", typ)
	rt, err := p.ResultType()
	if err != nil {
		t.Fatal(err)
	}
	out, err := p.EvalAs(rt, images, expr.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Release()
	// 18 values (6 each of 0, 10, 20): 1200/17; 12 values: 800/11.
	want := []float64{1200.0 / 17, 800.0 / 11}
	if diff := cmp.Diff(want, out.(*array.Float64).Float64Values()); diff != "" {
		t.Errorf("x.var(ddof=1) (-want +got):\n%s", diff)
	}
}

// BenchmarkVarStd times Var and Std beside impl=copy of the input bytes
// (benchCompute), on Go's heap and one worker.
func BenchmarkVarStd(b *testing.B) {
	for _, bc := range []struct {
		op, text string
		elem     arrow.DataType
	}{
		{"var", "x.var()", f32},
		{"std-axis0", "x.std(axis=0)", f32},
		{"var", "x.var()", f64},
	} {
		b.Run(fmt.Sprintf("op=%s/dtype=%s/shape=%s", bc.op, numpyDType(bc.elem), shapeName(4096, []int{64, 64})), func(b *testing.B) {
			benchCompute(b, bc.text, bc.elem, 4096, []int{64, 64}, true, memory.DefaultAllocator)
		})
	}
}
