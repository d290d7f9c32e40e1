package main

import (
	"bytes"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/varshape"
)

// TestEvalVarGraph runs graph expressions (reuse, comparisons, nested
// reductions, views after computing, a per-row number column, several
// -e outputs fused) over the variable-shape column of
// testdata/varshape/sizes.arrow: the output type decided up front and
// every row equal to the expression over that row alone as a fixed-shape
// column.
func TestEvalVarGraph(t *testing.T) {
	sizes := filepath.Join("..", "..", "testdata", "varshape", "sizes.arrow")
	src := readAnyColumn(t, sizes, "image")
	defer src.Release()
	in := src.(*varshape.Array)
	ids := readAnyColumn(t, sizes, "id")
	defer ids.Release()
	tests := []struct {
		name    string
		args    []string // eval's arguments before the file
		col     string   // the output column to check
		text    string   // its expression, x being the image
		summary string   // the line eval writes to stderr
		kind    string   // the output column: plain, fixed or variable
	}{
		{"reuse", []string{"x - x.mean()"}, "image", "x - x.mean()", "image: uint8 (?,?,3) -> float64 (?,?,3)", "variable"},
		{"view after computing", []string{"x.astype(float32)[:, :10] / 255"}, "image", "x.astype(float32)[:, :10] / 255", "image: uint8 (?,?,3) -> float32 (?,?,3)", "variable"},
		{"comparison counted", []string{"(x > 100).sum(axis=(0, 1))"}, "image", "(x > 100).sum(axis=(0, 1))", "image: uint8 (?,?,3) -> int64 (3,)", "fixed"},
		{"nested reductions", []string{"x.astype(float32).sum(axis=2).max()"}, "image", "x.astype(float32).sum(axis=2).max()", "image: uint8 (?,?,3) -> float32 per row", "plain"},
		{"a per-row number", []string{"image * id", "--as", "scaled"}, "scaled", "x * id", "scaled (from image): uint8 (?,?,3) -> int64 (?,?,3)", "variable"},
		{"--fixed", []string{"(x - x.min())[:8, :8]", "--fixed"}, "image", "(x - x.min())[:8, :8]", "image: uint8 (?,?,3) -> (8,8,3)", "fixed"},
		{"fused outputs", []string{"-e", "c=image - image.min()", "-e", "m=(image - image.min()).max(axis=2)"}, "m", "(x - x.min()).max(axis=2)", "m (from image): uint8 (?,?,3) -> (?,?)", "variable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out.arrow")
			code, _, stderr := runCmd(t, append(append([]string{"eval"}, tt.args...), sizes, "-o", out)...)
			if code != 0 {
				t.Fatalf("code %d: %s", code, stderr)
			}
			if !strings.Contains(stderr, tt.summary) {
				t.Errorf("stderr %q lacks %q", stderr, tt.summary)
			}
			got := readAnyColumn(t, out, tt.col)
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
				if want := graphRowResult(t, in, ids, i, tt.text); !bytes.Equal(testvec.ResultBytes(got, i), want) {
					t.Errorf("row %d: %v, want %v", i, testvec.ResultBytes(got, i), want)
				}
			}
		})
	}
}

// graphRowResult evaluates text over row i of in alone, as a fixed-shape
// column x, with the id column's row beside it, and returns its result's
// bytes.
func graphRowResult(t *testing.T, in *varshape.Array, ids arrow.Array, i int, text string) []byte {
	t.Helper()
	row, err := in.Row(i)
	if err != nil {
		t.Fatal(err)
	}
	defer row.Release()
	id := array.NewSlice(ids, int64(i), int64(i+1))
	defer id.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: row.DataType(), Nullable: true}, {Name: "id", Type: id.DataType(), Nullable: true}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{row, id}, 1)
	defer rec.Release()
	p, err := expr.Compile(text, schema, expr.WithInput("x"), expr.WithAllocator(memory.DefaultAllocator))
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Eval(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Release()
	return bytes.Clone(testvec.ResultBytes(res.Column(0), 0))
}

// TestGraphFixedTypeLeadingNulls checks that --fixed takes a graph's
// result shape from the first valid row even past the rows it evaluates
// at a time, and that a batch without one is a usage error.
func TestGraphFixedTypeLeadingNulls(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	typ := varshape.MustNewType(arrow.PrimitiveTypes.Uint8, 3, varshape.Options{})
	schema := arrow.NewSchema([]arrow.Field{{Name: "image", Type: typ, Nullable: true}}, nil)
	p, err := expr.Compile("(x - x.min())[:2, :3]", schema)
	if err != nil {
		t.Fatal(err)
	}
	batch := func(nulls, valid int) arrow.RecordBatch {
		b, err := varshape.NewBuilder[uint8](mem, typ)
		if err != nil {
			t.Fatal(err)
		}
		for range nulls {
			b.AppendNull()
		}
		for range valid {
			if err := b.Append([]int{5, 4, 3}, make([]uint8, 60)); err != nil {
				t.Fatal(err)
			}
		}
		a := b.NewArray()
		defer a.Release()
		return array.NewRecordBatch(schema, []arrow.Array{a}, int64(nulls+valid))
	}
	rec := batch(150, 3)
	defer rec.Release()
	dt, err := graphFixedType(p, rec)
	if err != nil {
		t.Fatal(err)
	}
	if ft, ok := dt.(*fixedshape.Type); !ok || ft.ElemType().ID() != arrow.UINT8 || !slices.Equal(ft.Shape(), []int{2, 3, 3}) {
		t.Errorf("type %v, want uint8 tensors of shape (2,3,3)", dt)
	}
	empty := batch(150, 0)
	defer empty.Release()
	if _, err := graphFixedType(p, empty); !errors.Is(err, errUsage) {
		t.Errorf("a batch of null rows: %v, want a usage error", err)
	}
}
