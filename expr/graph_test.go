package expr_test

import (
	"errors"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/search"
)

// TestGraphRoundTrip checks that the Go builder and the text make the
// same graph expressions, over the whole language: String gives the
// canonical text, which parses back to an Equal expression.
func TestGraphRoundTrip(t *testing.T) {
	x, a, b := expr.X(), expr.Col("a"), expr.Col("b")
	two := expr.Lit(expr.Int(2))
	tests := []struct {
		name string
		e    expr.Expr
		text string
	}{
		{"column", expr.Call(expr.Exp, a), "exp(a)"},
		{"col of a name", expr.Binary(expr.Add, expr.Col("a b"), expr.Col("x")), `col("a b") + col("x")`},
		{"precedence", expr.Binary(expr.Mul, expr.Binary(expr.Add, x, a), b), "(x + a) * b"},
		{"left associative", expr.Binary(expr.Sub, x, expr.Binary(expr.Sub, a, b)), "x - (a - b)"},
		{"power", expr.Binary(expr.Pow, expr.Binary(expr.Pow, a, two), expr.Lit(expr.Float(0.5))), "(a ** 2) ** 0.5"},
		{"power right associative", expr.Binary(expr.Pow, a, expr.Binary(expr.Pow, b, two)), "a ** b ** 2"},
		{"negative power", expr.Binary(expr.Pow, a, expr.Lit(expr.Int(-1))), "a ** -1"},
		{"unary", expr.Call(expr.Negative, expr.Binary(expr.Pow, a, two)), "-a ** 2"},
		{"invert", expr.Call(expr.Invert, expr.Binary(expr.Gt, a, b)), "~(a > b)"},
		{"comparison of sums", expr.Binary(expr.Le, expr.Binary(expr.Add, a, two), b), "a + 2 <= b"},
		{"bitwise", expr.Binary(expr.Or, expr.Binary(expr.And, a, b), expr.Binary(expr.Xor, a, two)), "a & b | a ^ 2"},
		{"floor division and modulo", expr.Binary(expr.Mod, expr.Binary(expr.FloorDiv, a, two), b), "a // 2 % b"},
		{"functions", expr.Binary(expr.Maximum, expr.Call(expr.Floor, a), expr.Call(expr.IsNaN, b)), "maximum(floor(a), isnan(b))"},
		{"where", expr.Where(expr.Binary(expr.Ne, a, b), a, expr.Lit(expr.Float(0))), "where(a != b, a, 0.0)"},
		{"reuse", expr.Binary(expr.Div, x, expr.Reduce(x, expr.Norm, true, -1)), "x / norm(x, axis=-1, keepdims=True)"},
		{"nested reductions", expr.Reduce(expr.Reduce(x, expr.Sum, false, 0), expr.Max, false), "x.sum(axis=0).max()"},
		{"any all", expr.Binary(expr.And, expr.Reduce(a, expr.AnyTrue, false), expr.Reduce(b, expr.AllTrue, false, 0, 1)), "a.any() & b.all(axis=(0, 1))"},
		{"views after computing", expr.Transpose(expr.Subscript(expr.Binary(expr.Mul, a, two), expr.At(0), expr.NewAxis()), 1, 0), "(a * 2)[0, None].transpose(1, 0)"},
		{"astype bool", expr.Binary(expr.And, expr.Astype(a, arrow.FixedWidthTypes.Boolean), b), "a.astype(bool) & b"},
		{"astype T", expr.Transpose(expr.Astype(expr.Binary(expr.Add, a, b), arrow.PrimitiveTypes.Float32)), "(a + b).astype(float32).T"},
		{"reshape clip", expr.Clip(expr.Reshape(expr.Call(expr.Tanh, a), 2, -1), nil, ptr(expr.Int(1))), "tanh(a).reshape(2, -1).clip(None, 1)"},
		{"matmul", expr.MatMul(a, expr.Lit(expr.Floats([]int{2, 1}, 1, 2))), "a @ [[1.0], [2.0]]"},
		{"matmul of a sum", expr.MatMul(expr.Binary(expr.Add, a, b), b), "(a + b) @ b"},
		{"load", expr.MatMul(x, expr.Load("W.npy")), `x @ load("W.npy")`},
		{"similarity of two columns", expr.SimilarityOf(a, search.MetricCosine, b), "cosine(a, b)"},
		{"similarity with a constant", expr.Similarity(expr.Binary(expr.Sub, a, b), search.MetricL2, expr.Ints([]int{2}, 1, 2)), "l2(a - b, [1, 2])"},
		{"concatenate", expr.Concatenate(-1, a, b, x), "concatenate((a, b, x), axis=-1)"},
		{"stack of one", expr.Stack(0, a), "stack((a,), axis=0)"},
		{"einsum", expr.Einsum("ij,jk->ik", a, b), `einsum("ij,jk->ik", a, b)`},
		{"arith on a graph", expr.Arith(expr.Call(expr.Sign, a), expr.Sub, expr.Float(-0.5)), "sign(a) - -0.5"},
		{"abs sqrt", expr.Sqrt(expr.Abs(expr.Binary(expr.Sub, a, b))), "sqrt(abs(a - b))"},
		{"var ddof", expr.ReduceDdof(expr.Binary(expr.Mul, a, b), expr.Var, 1, true, 0), "(a * b).var(axis=0, keepdims=True, ddof=1)"},
		{"negative constant first", expr.Binary(expr.Pow, expr.Lit(expr.Int(-2)), a), "(-2) ** a"},
		{"negative of a constant", expr.Binary(expr.Add, a, expr.Call(expr.Negative, two)), "a + negative(2)"},
		{"typed constant", expr.Binary(expr.Mul, a, expr.Lit(expr.Array([]int{2}, []float32{0.5, 1}))), "a * float32([0.5, 1.0])"},
		{"NaN with its sign bit", expr.Binary(expr.Mod, a, expr.Lit(expr.Float(math.Copysign(math.NaN(), -1)))), "a % -nan"},
		{"NaNs in a constant", expr.Binary(expr.Add, a, expr.Lit(expr.Floats([]int{2}, math.Copysign(math.NaN(), -1), math.NaN()))), "a + [-nan, nan]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := expr.Check(tt.e); err != nil {
				t.Fatal(err)
			}
			if got := tt.e.String(); got != tt.text {
				t.Fatalf("String() = %q, want %q", got, tt.text)
			}
			p, err := expr.Parse(tt.text, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !expr.Equal(p, tt.e) {
				t.Errorf("Parse(%q) = %q, not Equal to the built expression", tt.text, p)
			}
			if again := p.String(); again != tt.text {
				t.Errorf("Parse(%q).String() = %q", tt.text, again)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

// TestGraphParse checks texts that parse to the same graph as their
// canonical form, and syntax errors of the graph language.
func TestGraphParse(t *testing.T) {
	same := []struct{ text, canon string }{
		{"np.maximum(a,b)", "maximum(a, b)"},
		{"np.linalg.norm(a - b, axis=-1)", "norm(a - b, axis=-1)"},
		{"matmul(a, b)", "a @ b"},
		{"np.concatenate([a, b], 1)", "concatenate((a, b), axis=1)"},
		{"+a - +b", "a - b"},
		{"((a))", "a"},
		{"negative(a)", "-a"},
		{"absolute(a) < 1", "abs(a) < 1"},
		{"a.sum(0)", "a.sum(axis=0)"},
		{"stack((a, b))", "stack((a, b), axis=0)"},
		{"a.astype(np.bool_) | a.astype('bool')", "a.astype(bool) | a.astype(bool)"},
	}
	for _, tt := range same {
		t.Run(tt.text, func(t *testing.T) {
			e, err := expr.Parse(tt.text, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := e.String(); got != tt.canon {
				t.Errorf("Parse(%q).String() = %q, want %q", tt.text, got, tt.canon)
			}
		})
	}
	bad := []struct {
		name, text string
		pos        int
		kind       error
	}{
		{"chained comparison", "a < b < 1", 6, arrow.ErrNotImplemented},
		{"two constant tensors", "a + ([1] + [2])", 9, arrow.ErrNotImplemented},
		{"only a constant", "1", 0, arrow.ErrInvalid},
		{"unknown function", "cumsum(a)", 0, arrow.ErrInvalid},
		{"unclosed", "where(a, b", 10, arrow.ErrInvalid},
		{"concatenate of one array", "concatenate(a)", 12, arrow.ErrInvalid},
		{"None", "a + None", 4, arrow.ErrInvalid},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			_, err := expr.Parse(tt.text, nil)
			var e *expr.Error
			if !errors.Is(err, tt.kind) || !errors.As(err, &e) {
				t.Fatalf("Parse(%q) = %v, want an *Error wrapping %v", tt.text, err, tt.kind)
			}
			if e.Pos != tt.pos {
				t.Errorf("Parse(%q) error %v at %d, want %d", tt.text, err, e.Pos, tt.pos)
			}
		})
	}
}

// TestGraphCheck checks that a graph built in Go reports the errors of
// its operands (an invalid chain, a constant whose values do not fill
// its shape) through Check, and that its String does not panic.
func TestGraphCheck(t *testing.T) {
	x := expr.Input(mustFixed(t, f32, 3))
	for _, tt := range []struct {
		name string
		e    expr.Expr
		text string
	}{
		{"chain operand", expr.Binary(expr.Add, expr.Subscript(x, expr.At(5)), expr.Col("b")), "x[5] + b"},
		{"constant", expr.Call(expr.Exp, expr.Binary(expr.Add, expr.X(), expr.Lit(expr.Floats([]int{3}, 1, 2)))), "exp(x + [1.0, 2.0])"},
		{"chain constant", expr.Arith(x, expr.Add, expr.Floats([]int{3}, 1, 2)), "x + [1.0, 2.0]"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if err := expr.Check(tt.e); !errors.Is(err, arrow.ErrInvalid) {
				t.Errorf("Check = %v, want an error wrapping ErrInvalid", err)
			}
			if got := tt.e.String(); got != tt.text {
				t.Errorf("String() = %q, want %q", got, tt.text)
			}
		})
	}
}

// TestGraphTypes checks the result element types of graph expressions
// against NumPy 2's (checked with NumPy 2.4): array promotion between
// tensors and 0-D columns (s-prefixed: plain columns), NEP 50 for Python
// scalars, the loops of the functions and reductions.
func TestGraphTypes(t *testing.T) {
	types := map[string]arrow.DataType{"i8": arrow.PrimitiveTypes.Int8, "u8": u8, "i16": arrow.PrimitiveTypes.Int16, "i64": i64,
		"u64": arrow.PrimitiveTypes.Uint64, "f16": arrow.FixedWidthTypes.Float16, "f32": f32, "f64": f64}
	var fields []arrow.Field
	for _, n := range []string{"i8", "u8", "i16", "i64", "u64", "f16", "f32", "f64"} {
		fields = append(fields, arrow.Field{Name: n, Type: mustFixed(t, types[n], 3)}, arrow.Field{Name: "s" + n, Type: types[n]})
	}
	fields = append(fields, arrow.Field{Name: "b", Type: mustFixed(t, arrow.FixedWidthTypes.Boolean, 3)})
	schema := arrow.NewSchema(fields, nil)
	for _, tt := range []struct{ text, want string }{
		{`i8 + u8`, "int16"},
		{`i64 + u64`, "float64"},
		{`f16 + i16`, "float32"},
		{`i8 * su8`, "int16"},
		{`u8 * si64`, "int64"},
		{`f32 * sf64`, "float64"},
		{`f32 * si8`, "float32"},
		{`u8 + 3`, "uint8"},
		{`u8 + 3.5`, "float64"},
		{`i8 / i8`, "float64"},
		{`f16 / f16`, "float16"},
		{`u8 // i8`, "int16"},
		{`b + b`, "bool"},
		{`b * 2`, "int64"},
		{`b & b`, "bool"},
		{`u8 & i8`, "int16"},
		{`exp(u8)`, "float16"},
		{`exp(i16)`, "float32"},
		{`exp(i64)`, "float64"},
		{`exp(b)`, "float16"},
		{`floor(u8)`, "uint8"},
		{`round(b)`, "float16"},
		{`square(b)`, "int8"},
		{`abs(i8)`, "int8"},
		{`isnan(i8)`, "bool"},
		{`u8 < 300`, "bool"},
		{`u8 == -1`, "bool"},
		{`u64 > -1`, "bool"},
		{`where(b, u8, 2.5)`, "float64"},
		{`where(b, u8, 2)`, "uint8"},
		{`where(b, f32, i8)`, "float32"},
		{`minimum(u8, f16)`, "float16"},
		{`b.sum()`, "int64"},
		{`b.mean()`, "float64"},
		{`b.max()`, "bool"},
		{`u8.sum()`, "uint64"},
		{`i8.mean()`, "float64"},
		{`f16.sum()`, "float16"},
		{`f16.mean()`, "float16"},
		{`u8.argmax()`, "int64"},
		{`norm(u8)`, "float64"},
		{`norm(f16)`, "float16"},
		{`u8.var()`, "float64"},
		{`(u8 > 2).any()`, "bool"},
		{`dot(u8, u8)`, "uint64"},
		{`dot(f16, f32)`, "float32"},
		{`u8 @ u8`, "uint8"},
		{`f32 @ i8`, "float32"},
		{`concatenate((u8, i8))`, "int16"},
		{`stack((f16, u8))`, "float16"},
		{`einsum("i,i", i8, i8)`, "int8"},
		{`u8 ** 2`, "uint8"},
		{`i8 ** u8`, "int16"},
		{`b ** b`, "int8"},
		{`b // b`, "int8"},
		{`-u8`, "uint8"},
		{`~u8`, "uint8"},
		{`~b`, "bool"},
		{`su8 * 2`, "uint8"},
		{`si8 + su8`, "int16"},
		{`sf32 * f16`, "float32"},
	} {
		t.Run(tt.text, func(t *testing.T) {
			p, err := expr.Compile(tt.text, schema)
			if err != nil {
				t.Fatal(err)
			}
			dt := p.Schema().Field(0).Type
			if ft, ok := dt.(*fixedshape.Type); ok {
				dt = ft.ElemType()
			}
			name := map[arrow.Type]string{arrow.BOOL: "bool", arrow.INT8: "int8", arrow.INT16: "int16", arrow.INT64: "int64",
				arrow.UINT8: "uint8", arrow.UINT64: "uint64", arrow.FLOAT16: "float16", arrow.FLOAT32: "float32", arrow.FLOAT64: "float64"}[dt.ID()]
			if name != tt.want {
				t.Errorf("%s: %v, NumPy gives %s", tt.text, dt, tt.want)
			}
		})
	}
}

// TestGraphBuilderErrors checks that Compile refuses built graphs with
// invalid arguments, in errors wrapping arrow.ErrInvalid, never a panic.
func TestGraphBuilderErrors(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: mustFixed(t, f32, 2, 3)}}, nil)
	a := expr.Col("a")
	for _, tt := range []struct {
		name string
		e    expr.Expr
	}{
		{"operator", expr.Binary(expr.BinaryOp(99), a, a)},
		{"function", expr.Call(expr.Func(99), a)},
		{"reduction", expr.Reduce(a, expr.Reduction(99), false)},
		{"metric", expr.SimilarityOf(a, search.Metric(99), a)},
		{"no array to concatenate", expr.Concatenate(0)},
		{"tensor clip bound", expr.Clip(expr.Call(expr.Exp, a), ptr(expr.Floats([]int{3}, 0, 0, 0)), nil)},
		{"astype to a non-number", expr.Astype(expr.Call(expr.Exp, a), arrow.BinaryTypes.String)},
		{"einsum of bad subscripts", expr.Einsum("i1,j", a, a)},
		{"stack axis", expr.Stack(4, a, a)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_ = tt.e.String() // does not panic
			if _, err := expr.CompileExpr(tt.e, schema); !errors.Is(err, arrow.ErrInvalid) {
				t.Errorf("CompileExpr(%s) = %v, want an error wrapping ErrInvalid", tt.e, err)
			}
		})
	}
}
