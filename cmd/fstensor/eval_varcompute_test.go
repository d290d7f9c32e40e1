package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/varshape"
)

// TestEvalVarCompute runs computing expressions over the variable-shape
// column of testdata/varshape/sizes.arrow (five sizes and a null row)
// into .arrow, .arrows and .parquet: the output type decided up front
// (plain, fixed- or variable-shape) and every row equal to the expression
// on that row alone as a fixed-shape column.
func TestEvalVarCompute(t *testing.T) {
	sizes := filepath.Join("..", "..", "testdata", "varshape", "sizes.arrow")
	src := readAnyColumn(t, sizes, "image")
	defer src.Release()
	in := src.(*varshape.Array)
	tests := []struct {
		text    string
		flags   []string
		summary string // the line eval writes to stderr
		kind    string // the output column: plain, fixed or variable
	}{
		{"x.astype(float32).mean(axis=(0, 1))", nil, "image: uint8 (?,?,3) -> float32 (3,)", "fixed"},
		{"(x.astype(float32) / 255 - float32([0.485, 0.456, 0.406])) / float32([0.229, 0.224, 0.225])", nil, "image: uint8 (?,?,3) -> float32 (?,?,3)", "variable"},
		{"x.max()", nil, "image: uint8 (?,?,3) -> uint8 per row", "plain"},
		{"x.mean()", []string{"--fixed"}, "image: uint8 (?,?,3) -> float64 per row", "plain"},
		{"l2(x[:2, :2].astype(float32), float32([1, 2, 3]))", nil, "image: uint8 (?,?,3) -> float32 per row", "plain"},
		{"x.sum(axis=2, keepdims=True)", nil, "image: uint8 (?,?,3) -> uint64 (?,?,1)", "variable"},
		{"x[:8, :8].astype(float32) / 255", []string{"--fixed"}, "image: uint8 (?,?,3) -> float32 (8,8,3)", "fixed"},
	}
	for _, tt := range tests {
		for _, ext := range []string{"arrow", "arrows", "parquet"} {
			t.Run(tt.text+"/"+ext, func(t *testing.T) {
				out := filepath.Join(t.TempDir(), "out."+ext)
				code, _, stderr := runCmd(t, append([]string{"eval", tt.text, sizes, "-o", out}, tt.flags...)...)
				if code != 0 {
					t.Fatalf("code %d: %s", code, stderr)
				}
				if !strings.Contains(stderr, tt.summary) {
					t.Errorf("stderr %q lacks %q", stderr, tt.summary)
				}
				got := readAnyColumn(t, out, "image")
				defer got.Release()
				kind := "plain"
				switch got.(type) {
				case *fixedshape.Array:
					kind = "fixed"
				case *varshape.Array:
					kind = "variable"
				}
				if kind != tt.kind || got.Len() != in.Len() {
					t.Fatalf("%d rows of %s (%v), want %d of %s", got.Len(), kind, got.DataType(), in.Len(), tt.kind)
				}
				for i := range in.Len() {
					if got.IsNull(i) != in.IsNull(i) {
						t.Fatalf("row %d: null %v, want %v", i, got.IsNull(i), in.IsNull(i))
					}
					if in.IsNull(i) {
						continue
					}
					want, elem := rowResult(t, in, i, tt.text)
					if g := testvec.ResultBytes(got, i); !testvec.SameResult(elem, want, g) {
						t.Errorf("row %d: %v, want %v", i, g, want)
					}
				}
			})
		}
	}
}

// TestEvalVarComputeErrors: a row the expression fails on stops eval,
// naming the row and its shape, and leaves no output.
func TestEvalVarComputeErrors(t *testing.T) {
	mixed := writeImages(t, [][]int{{3, 4, 3}, {0, 2, 3}, nil}, 3)
	sizes := filepath.Join("..", "..", "testdata", "varshape", "sizes.arrow")
	tests := []struct {
		name, in, text string
		flags          []string
		want           string
	}{
		{"empty max", mixed, "x.max()", nil, "row 1 (column \"img\" of shape (0,2,3)): zero-size array to reduction operation maximum which has no identity"},
		{"constant against the fixed axis", sizes, "x - [[1, 2, 3]]", nil, ""},
		{"constant that does not broadcast", mixed, "x.sum(axis=2) - [1, 2, 3, 4]", nil, "row 1 (column \"img\" of shape (0,2,3)): operands could not be broadcast together with shapes (0,2) (4,)"},
		{"--fixed, a result differs", sizes, "x[:10, :10].sum(axis=2)", []string{"--fixed"}, "row 2 of 6: the result shape (10,9) differs from the fixed shape (10,10)"},
		{"--fixed graph, a result differs", sizes, "(x - x.min())[:10, :10]", []string{"--fixed"}, "row 2 of 6: the result shape (10,9,3) differs from the fixed shape (10,10,3)"},
		{"graph over rows that do not broadcast", mixed, "x - x.sum(axis=2)", nil, "row 0 (column \"img\" of shape (3,4,3)): operands could not be broadcast together with shapes (3,4,3) (3,4)"},
		{".npy without --fill-nulls", sizes, "x.max()", nil, "--fill-nulls"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ext := "arrow"
			if strings.HasPrefix(tt.name, ".npy") {
				ext = "npy"
			}
			out := filepath.Join(t.TempDir(), "out."+ext)
			code, _, stderr := runCmd(t, append([]string{"eval", tt.text, tt.in, "-o", out}, tt.flags...)...)
			if tt.want == "" {
				if code != 0 {
					t.Fatalf("code %d: %s", code, stderr)
				}
				return
			}
			if code != 1 || !strings.Contains(stderr, tt.want) {
				t.Fatalf("code %d, stderr %q: want 1 and %q", code, stderr, tt.want)
			}
			if _, err := openInput(out, "", false); err == nil {
				t.Errorf("output left behind")
			}
		})
	}
	// One value per row as 0-D tensors in .npy, nulls filled.
	out := filepath.Join(t.TempDir(), "max.npy")
	if code, _, stderr := runCmd(t, "eval", "x.max()", sizes, "-o", out, "--fill-nulls", "0"); code != 0 || !strings.Contains(stderr, "uint8 per row") {
		t.Fatalf("code %d: %s", code, stderr)
	}
	got := readAnyColumn(t, out, "image")
	defer got.Release()
	if ft, ok := got.DataType().(*fixedshape.Type); !ok || ft.NDim() != 0 || got.Len() != 6 {
		t.Fatalf("%d rows of %v, want 6 0-D tensors", got.Len(), got.DataType())
	}
}

// rowResult evaluates text on row i of in alone as a fixed-shape column
// and returns its result's bytes and element type.
func rowResult(t *testing.T, in *varshape.Array, i int, text string) ([]byte, arrow.DataType) {
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
	res, err := expr.MustCompilePlan(e).Eval(row)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Release()
	elem := res.DataType()
	if ft, ok := elem.(*fixedshape.Type); ok {
		elem = ft.ElemType()
	}
	return append([]byte(nil), testvec.ResultBytes(res, 0)...), elem
}
