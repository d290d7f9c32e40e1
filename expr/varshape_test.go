package expr_test

import (
	"bytes"
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
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/varshape"
)

// varColumn builds a uint16 column of the given logical shapes (nil for a
// null row) whose elements count up from 1000*row.
func varColumn(t *testing.T, mem memory.Allocator, typ *varshape.Type, shapes [][]int) *varshape.Array {
	t.Helper()
	vals := make([][]uint16, len(shapes))
	for i, s := range shapes {
		n := 1
		for _, d := range s {
			n *= d
		}
		if s != nil {
			vals[i] = make([]uint16, n)
			for k := range vals[i] {
				vals[i][k] = uint16(1000*i + k)
			}
		}
	}
	arr, err := varshape.FromSlices(mem, typ, shapes, vals)
	if err != nil {
		t.Fatal(err)
	}
	return arr
}

// rowRef evaluates the view text on row i alone through the fixed-shape
// path.
func rowRef(t *testing.T, in *varshape.Array, i int, text string) *fixedshape.Array {
	return rowEval(t, in, i, text).(*fixedshape.Array)
}

// rowEval evaluates text on row i alone as a fixed-shape column.
func rowEval(t *testing.T, in *varshape.Array, i int, text string) arrow.Array {
	t.Helper()
	row, err := in.Row(i)
	if err != nil {
		t.Fatal(err)
	}
	defer row.Release()
	e, err := expr.Parse(text, expr.Input(row.TensorType()))
	if err != nil {
		t.Fatal(err)
	}
	out, err := evalPlan(e, row)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestEvalVar(t *testing.T) {
	u16 := arrow.PrimitiveTypes.Uint16
	tests := []struct {
		name      string
		o         varshape.Options
		shapes    [][]int
		text      string
		wantFixed bool
		plans     int
	}{
		{"crop", varshape.Options{DimNames: []string{"h", "w"}}, [][]int{{5, 6}, {4, 4}, nil, {7, 4}, {4, 4}}, "x[:4, :4]", false, 3},
		{"crop-var", varshape.Options{}, [][]int{{5, 6}, {2, 4}, nil, {7, 1}}, "x[:4, :4]", false, 3},
		{"transpose-3-cycle", varshape.Options{Permutation: []int{2, 0, 1}}, [][]int{{2, 3, 4}, {1, 2, 3}, nil, {4, 3, 2}}, "x.transpose(1, 2, 0)", false, 3},
		{"reverse-non-square", varshape.Options{Permutation: []int{1, 0}}, [][]int{{2, 3}, {3, 2}}, "x[::-1, 1:]", false, 2},
		{"index-to-fixed", varshape.Options{UniformShape: []int{-1, 3}}, [][]int{{2, 3}, {5, 3}}, "x[1]", true, 2},
		{"reshape", varshape.Options{}, [][]int{{2, 6}, {4, 3}}, "x.T.reshape(-1)", false, 2},
		{"reshape-var", varshape.Options{}, [][]int{{2, 6}, {4, 2}, {3, 4}}, "x.T.reshape(2, -1)", false, 3},
		{"size-0-rows", varshape.Options{}, [][]int{{0, 3}, {2, 0}, {2, 2}}, "x[:1]", false, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := testvec.CheckedMem(t)
			nd := len(tt.shapes[0])
			typ := varshape.MustNewType(u16, nd, tt.o)
			full := varColumn(t, mem, typ, tt.shapes)
			defer full.Release()
			for _, off := range []int{0, 1} {
				in := array.NewSlice(full, int64(off), int64(full.Len())).(*varshape.Array)
				p := expr.ParseVar(tt.text, typ)
				out, err := p.Eval(in, expr.WithAllocator(mem), expr.WithWorkers(2))
				if err != nil {
					in.Release()
					t.Fatal(err)
				}
				if off == 0 && p.Plans() != tt.plans {
					t.Errorf("%d engine programs, want %d", p.Plans(), tt.plans)
				}
				_, fixed := out.(*fixedshape.Array)
				if off == 0 && fixed != tt.wantFixed {
					t.Errorf("result %v, want fixed=%v", out.DataType(), tt.wantFixed)
				}
				for i := range in.Len() {
					if in.IsNull(i) {
						if !out.IsNull(i) {
							t.Errorf("row %d not null", i)
						}
						continue
					}
					if len(in.RowBytes(i)) == 0 {
						continue // fixedshape has no type for a tensor without elements
					}
					ref := rowRef(t, in, i, tt.text)
					var got string
					var gotBytes []byte
					switch o := out.(type) {
					case *fixedshape.Array:
						one := array.NewSlice(o, int64(i), int64(i+1)).(*fixedshape.Array)
						got, gotBytes = one.String(), one.ValueBytes()
						one.Release()
					case *varshape.Array:
						if err := o.Validate(); err != nil {
							t.Fatal(err)
						}
						got, gotBytes = "["+strings.SplitN(o.ValueStr(i), ":", 2)[1]+"]", o.RowBytes(i)
						if diff := cmp.Diff(ref.TensorType().Shape(), o.Shape(nil, i)); diff != "" {
							t.Errorf("row %d shape (-want +got):\n%s", i, diff)
						}
					}
					if ref.TensorType().ListSize() > 0 && (got != ref.String() || !bytes.Equal(gotBytes, ref.ValueBytes())) {
						t.Errorf("slice %d row %d = %s, want %s", off, i, got, ref.String())
					}
					ref.Release()
				}
				out.Release()
				in.Release()
			}
		})
	}
}

func TestEvalVarErrors(t *testing.T) {
	mem := testvec.CheckedMem(t)
	u16 := arrow.PrimitiveTypes.Uint16
	typ := varshape.MustNewType(u16, 2, varshape.Options{})
	shapes := make([][]int, 1000)
	for i := range shapes {
		shapes[i] = []int{3 + i%5, 2}
	}
	shapes[17] = []int{2, 2} // x[2] is out of bounds in row 17 only
	shapes[2] = []int{2, 2}
	shapes[2] = nil
	in := varColumn(t, mem, typ, shapes)
	defer in.Release()
	_, err := expr.ParseVar("x[2]", typ).Eval(in, expr.WithAllocator(mem))
	if !errors.Is(err, arrow.ErrInvalid) {
		t.Fatalf("got %v, want ErrInvalid", err)
	}
	// The message is this package's own: it names the row and the axis.
	if msg := err.Error(); !strings.Contains(msg, "row 17 ") || !strings.Contains(msg, "axis 0") {
		t.Errorf("error %q does not name row 17 and axis 0", msg)
	}
	other := varshape.MustNewType(arrow.PrimitiveTypes.Float32, 2, varshape.Options{})
	if _, err := expr.CompileVar(expr.Index(expr.InputOf(arrow.PrimitiveTypes.Float32, varshapeMeta(2)), 0, 1), typ); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("element type mismatch: got %v", err)
	}
	if _, err := expr.ParseVar("x[1]", other).Eval(in); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("column mismatch: got %v", err)
	}
	if _, err := expr.ParseVar("x[1", typ).Eval(in); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("syntax: got %v", err)
	}
}

// TestCompileExprVar compiles a chain built in Go for a variable-shape
// column.
func TestCompileExprVar(t *testing.T) {
	mem := testvec.CheckedMem(t)
	typ := varshape.MustNewType(arrow.PrimitiveTypes.Uint16, 2, varshape.Options{})
	in := varColumn(t, mem, typ, [][]int{{3, 5}, {4, 2}})
	defer in.Release()
	// The template input's shape does not matter, only its rank and type.
	e := expr.Transpose(expr.Slice(expr.InputOf(arrow.PrimitiveTypes.Uint16, varshapeMeta(2)), 1, 0, 2, 1))
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: typ, Nullable: true}}, nil)
	p, err := expr.CompileExpr(e, schema, expr.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	out, err := p.EvalColumn(in)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Release()
	if got, want := fmt.Sprint(out), "[(2,3):[[0,5,10],[1,6,11]] (2,4):[[1000,1002,1004,1006],[1001,1003,1005,1007]]]"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func varshapeMeta(nd int) metadata.Metadata {
	shape := make([]int, nd)
	for i := range shape {
		shape[i] = 1
	}
	return metadata.MustNew(shape, nil, nil)
}

// TestVarConcurrent evaluates one Program from several goroutines, each
// compiling engine programs for shapes the others may be compiling too.
func TestVarConcurrent(t *testing.T) {
	mem := testvec.CheckedMem(t)
	typ := varshape.MustNewType(arrow.PrimitiveTypes.Uint16, 2, varshape.Options{})
	shapes := make([][]int, 64)
	for i := range shapes {
		shapes[i] = []int{2 + i%7, 3 + i%5}
	}
	in := varColumn(t, mem, typ, shapes)
	defer in.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: typ, Nullable: true}}, nil)
	p, err := expr.Compile("x[::-1, 1:]", schema, expr.WithAllocator(mem), expr.WithWorkers(2))
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 4)
	for range 4 {
		go func() { errs <- testvec.Releasing(p.EvalColumn(in)) }()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if got := p.VarPrograms(); got != 35 {
		t.Errorf("%d engine programs for 35 distinct shapes", got)
	}
}
