package expr_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	x234 := expr.InputOf(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{2, 3, 4}, []string{"c", "h", "w"}, nil))
	cycle := expr.InputOf(arrow.PrimitiveTypes.Int8, metadata.MustNew([]int{2, 3, 4}, nil, []int{2, 0, 1}))
	scalar := expr.InputOf(arrow.PrimitiveTypes.Int64, metadata.MustNew(nil, nil, nil))
	empty := expr.InputOf(arrow.PrimitiveTypes.Int64, metadata.MustNew([]int{3, 0}, nil, nil))
	tests := []struct {
		name      string
		x         expr.Expr
		text      string
		canonical string
		shape     []int
		names     []string
		simple    string
	}{
		{"slices", x234, "x[:, 1:3, ::-1]", "x[:, 1:3, ::-1]", []int{2, 2, 4}, []string{"c", "h", "w"}, "x[0:2, 1:3, 3:-5:-1]"},
		{"spacing", x234, " x [ : ,1: 3 ,: :-1 ]  ", "x[:, 1:3, ::-1]", []int{2, 2, 4}, []string{"c", "h", "w"}, "x[0:2, 1:3, 3:-5:-1]"},
		{"ellipsis", x234, "x[..., 0]", "x[..., 0]", []int{2, 3}, []string{"c", "h"}, "x[..., 0]"},
		{"new axis", x234, "x[None]", "x[None]", []int{1, 2, 3, 4}, []string{"", "c", "h", "w"}, "x[None]"},
		{"T", x234, "x.T", "x.T", []int{4, 3, 2}, []string{"w", "h", "c"}, "x.T"},
		{"transpose", x234, "x.transpose(2, 0, 1)", "x.transpose(2, 0, 1)", []int{4, 2, 3}, []string{"w", "c", "h"}, "x.transpose(2, 0, 1)"},
		{"transpose tuple", x234, "x.transpose((2,0,1))", "x.transpose(2, 0, 1)", []int{4, 2, 3}, []string{"w", "c", "h"}, "x.transpose(2, 0, 1)"},
		{"inverse transposes", x234, "x.transpose(2, 0, 1).transpose(1, 2, 0)", "x.transpose(2, 0, 1).transpose(1, 2, 0)", []int{2, 3, 4}, []string{"c", "h", "w"}, "x"},
		{"reshape", x234, "x.reshape(4, -1)", "x.reshape(4, -1)", []int{4, 6}, nil, "x.reshape(4, 6)"},
		{"reshape size-1 keeps names", x234, "x.reshape(2, 1, 3, 4)", "x.reshape(2, 1, 3, 4)", []int{2, 1, 3, 4}, []string{"c", "", "h", "w"}, "x.reshape(2, 1, 3, 4)"},
		{"reshapes collapse", x234, "x.reshape(-1).reshape((6, 4,))", "x.reshape(-1).reshape(6, 4)", []int{6, 4}, nil, "x.reshape(6, 4)"},
		{"chain", x234, "x[1:, ::2].T.reshape(-1)", "x[1:, ::2].T.reshape(-1)", []int{8}, nil, "x[1:2, 0:3:2].T.reshape(8)"},
		{"merged slices", x234, "x[:, 1:][:, ::-1]", "x[:, 1:][:, ::-1]", []int{2, 2, 4}, []string{"c", "h", "w"}, "x[0:2, 2:0:-1]"},
		{"3-cycle input", cycle, "x[1].T", "x[1].T", []int{4, 3}, nil, "x[1].T"},
		{"0-D", scalar, "x[None][0][()]", "x[None][0][()]", nil, nil, "x"},
		{"0-D reshape", scalar, "x.reshape(1, 1).reshape(())", "x.reshape(1, 1).reshape(())", nil, nil, "x"},
		{"size-0 dim", empty, "x[:, ::-1].reshape(0, 5)", "x[:, ::-1].reshape(0, 5)", []int{0, 5}, nil, "x.reshape(0, 5)"},
		{"identity index", x234, "x[...]", "x[...]", []int{2, 3, 4}, []string{"c", "h", "w"}, "x"},
		{"slices under cancelling transposes", expr.InputOf(arrow.PrimitiveTypes.Uint8, metadata.MustNew([]int{4, 5}, nil, nil)), "x[:, 1:][:, ::-1].T.transpose(1, 0)", "x[:, 1:][:, ::-1].T.transpose(1, 0)", []int{4, 4}, nil, "x[0:4, 4:0:-1]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := expr.Parse(tt.text, tt.x)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.canonical, e.String()); diff != "" {
				t.Errorf("String (-want +got):\n%s", diff)
			}
			again, err := expr.Parse(e.String(), tt.x)
			if err != nil || !expr.Equal(e, again) {
				t.Errorf("Parse(String()) = %v, %v; not equal", again, err)
			}
			m := e.Metadata()
			if diff := cmp.Diff(tt.shape, m.Shape(), cmpEmpty); diff != "" {
				t.Errorf("shape (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.names, m.DimNames(), cmpEmpty); diff != "" {
				t.Errorf("names (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.simple, expr.Simplify(e).String()); diff != "" {
				t.Errorf("Simplify (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	x := expr.InputOf(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{2, 3}, nil, nil))
	overflow := expr.InputOf(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{1 << 30, 1}, nil, nil))
	// 2**32 is an index out of bounds on 64-bit; on 32-bit it does not fit
	// an int and must be refused, not truncated to index 0.
	beyond32 := "index 4294967296 is out of bounds for axis 0 with size 2"
	if strconv.IntSize == 32 {
		beyond32 = "integer 4294967296"
	}
	tests := []struct {
		name, text, msg string
		x               expr.Expr
	}{
		{"empty", "", "expected an expression", x},
		{"reduction of a constant", "np.sum(2 * 3)", "sum takes a tensor first, not a constant", x},
		{"other name", "y[0]", "expected the input name x", x},
		{"unclosed", "x[1:", "expected", x},
		{"empty index", "x[]", "empty index", x},
		{"three colons", "x[:::]", "unexpected", x},
		{"bad op", "x.flip()", "unknown operation", x},
		{"reshape without shape", "x.reshape()", "reshape needs a shape", x},
		{"trailing", "x.T)", "unexpected", x},
		{"huge int", "x[99999999999999999999]", "out of range", x},
		{"min int", "x[-9223372036854775808]", "out of range", x},
		{"beyond MaxInt", "x[9007199254740993]", "out of range", x},
		{"beyond 32 bits", "x[4294967296]", beyond32, x},
		{"reshape beyond 32 bits", "x.reshape(4294967298, 3)", "4294967298", x},
		{"out of bounds", "x[2]", "index 2 is out of bounds for axis 0 with size 2", x},
		{"negative out of bounds", "x[0, -4]", "index -4 is out of bounds for axis 1 with size 3", x},
		{"too many", "x[0, 0, 0]", "too many indices for array: array is 2-dimensional, but 3 were indexed", x},
		{"two ellipses", "x[..., ...]", "an index can only have a single ellipsis ('...')", x},
		{"step 0", "x[::0]", "slice step cannot be zero", x},
		{"axes", "x.transpose(0)", "axes don't match array", x},
		{"repeated", "x.transpose(0, 0)", "repeated axis in transpose", x},
		{"axis bounds", "x.transpose(0, 2)", "axis 2 is out of bounds for array of dimension 2", x},
		{"reshape size", "x.reshape(4)", "cannot reshape array of size 6 into shape (4,)", x},
		{"reshape unknown", "x.reshape(-1, -1)", "can only specify one unknown dimension", x},
		{"reshape negative", "x.reshape(-2, -3)", "negative dimensions are not allowed", x},
		{"reshape overflow", "x.reshape(4194304, 4194304, 4194304, 4194304)", "cannot reshape array of size 1073741824", overflow},
		{"too long", "x" + strings.Repeat(".T", expr.MaxText), "exceeds the limit", x},
		{"too many ops", "x" + strings.Repeat(".T", expr.MaxOps+1), "more than", x},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := expr.Parse(tt.text, tt.x)
			if !errors.Is(err, arrow.ErrInvalid) || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("Parse(%.40q) = %v, want an ErrInvalid containing %q", tt.text, err, tt.msg)
			}
			var e *expr.Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T is not an *expr.Error", err)
			}
		})
	}
}

func TestConstructorErrors(t *testing.T) {
	x := expr.InputOf(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{2, 3}, nil, nil))
	tests := []struct {
		name string
		e    expr.Expr
		msg  string
	}{
		{"slice axis", expr.Slice(x, 2, 0, 1, 1), "axis 2 is out of bounds for array of dimension 2"},
		{"index axis", expr.Index(x, -3, 0), "axis -3 is out of bounds for array of dimension 2"},
		{"index", expr.Index(x, -1, 3), "index 3 is out of bounds for axis 1 with size 3"},
		{"step 0", expr.Slice(x, 0, 0, 0, 0), "slice step cannot be zero"},
		{"propagates", expr.Transpose(expr.Index(x, 0, 5)), "index 5 is out of bounds"},
		{"element type", expr.InputOf(arrow.BinaryTypes.String, metadata.MustNew([]int{2}, nil, nil)), "not a tensor element type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := expr.Check(tt.e)
			if !errors.Is(err, arrow.ErrInvalid) || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("Check = %v, want an ErrInvalid containing %q", err, tt.msg)
			}
			if _, err := expr.CompilePlan(tt.e); err == nil {
				t.Fatal("Compile succeeded")
			}
			if got := expr.Simplify(tt.e); got != tt.e {
				t.Errorf("Simplify of an invalid expression = %s, want it unchanged", got)
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"x[:, 1:3, ::-1]", "x[..., 0]", "x[None]", "x.T", "x.transpose(2, 0, 1)",
		"x.reshape(4, -1)", "x[1:, ::2].T.reshape(-1)", "x[()]", "x.reshape(())", "x[None, ..., -1, -6:]",
		"x.transpose((1, 0, 2))[:-1:2]", "x[::-2, 1, None]",
		"(x.astype(float16) / 255 - [0.5, 0.25, 0.125]) / float32([2, 3, 4])", "x[:, 1:].mean(axis=(0, 1), keepdims=True) * 2",
		"norm(x, axis=-1)", "x.clip(None, 3).argmax(axis=1)", "dot(x, [[1], [2], [3.5]])", "2 - abs(sqrt(x) + [-1e300, inf, nan])",
		"np.sum(x.astype(uint8), axis=())", "l2sq(x, int8(-3))"} {
		f.Add(s)
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{4, 6, 3}, nil, []int{1, 2, 0}))
	vals := make([]float32, 2*typ.ListSize())
	for i := range vals {
		vals[i] = float32(i%17) - 8
	}
	in, err := fixedshape.FromSlice(typ, vals, []bool{true, false})
	if err != nil {
		f.Fatal(err)
	}
	x := expr.InputOf(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{4, 6, 3}, []string{"a", "b", "c"}, []int{1, 2, 0}))
	f.Fuzz(func(t *testing.T, text string) {
		e, err := expr.Parse(text, x)
		if err != nil {
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
			return
		}
		again, err := expr.Parse(e.String(), x)
		if err != nil {
			t.Fatalf("Parse(%q) (printed from %q): %v", e, text, err)
		}
		if !expr.Equal(e, again) || again.String() != e.String() {
			t.Fatalf("Parse(%q) = %s, not equal", e, again)
		}
		s := expr.Simplify(e)
		if diff := cmp.Diff(e.Metadata().Shape(), s.Metadata().Shape(), cmpEmpty); diff != "" {
			t.Fatalf("Simplify(%s) = %s changes the shape (-want +got):\n%s", e, s, diff)
		}
		p, err := expr.CompilePlan(e)
		if errors.Is(err, arrow.ErrNotImplemented) {
			return // a graph (x % 2, x + x): a Program's, not a Plan's
		}
		if err != nil {
			t.Fatalf("CompilePlan(%s): %v", e, err)
		}
		if _, err := p.ResultType(); err != nil {
			return // a size-0 tensor result
		}
		out, err := p.Eval(in, expr.WithAllocator(mem))
		if err != nil {
			t.Fatalf("Eval(%s): %v", e, err)
		}
		if out.Len() != 2 || !out.IsNull(1) {
			t.Fatalf("Eval(%s) = %v, want 2 values, the second null", e, out)
		}
		out.Release()
		if mem.CurrentAlloc() != 0 {
			t.Fatalf("Eval(%s) leaks %d bytes", e, mem.CurrentAlloc())
		}
	})
}
