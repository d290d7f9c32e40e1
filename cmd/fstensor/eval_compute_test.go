package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
)

// readAnyColumn returns column name of path (or its only column) over all
// batches: plain columns too.
func readAnyColumn(t *testing.T, path, name string) arrow.Array {
	t.Helper()
	in, err := openInput(path, "", false)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	idx := 0
	if in.Schema().NumFields() > 1 {
		idxs := in.Schema().FieldIndices(name)
		if len(idxs) != 1 {
			t.Fatalf("%s has no column %q", path, name)
		}
		idx = idxs[0]
	}
	out, err := concatColumn(in, idx, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestEvalCompute runs computing expressions through eval into every
// kind of output: a result of one value per row is a plain column where
// the format has one and a column of 0-D tensors in formats of tensors
// only; the values are those of expr.EvalArray on the input.
func TestEvalCompute(t *testing.T) {
	src := readTensorColumn(t, sample("images.arrow"), "image")
	defer src.Release()
	// The per-image mean, by hand, checks the command beyond the library.
	sc, _ := fixedshape.ColumnOf[uint8](src)
	means := make([]float64, sc.Len())
	for i := range sc.Len() {
		var s int
		for _, v := range sc.Tensor(i).PhysicalData() {
			s += int(v)
		}
		means[i] = float64(s) / 3072
	}
	for _, text := range []string{
		"x.mean()",
		"x.astype(float32).mean()",
		"x.argmax()",
		"x.max(axis=2)",
		"(x.astype(float32) / 255 - float32([0.485, 0.456, 0.406])) / float32([0.229, 0.224, 0.225])",
	} {
		e := expr.MustParse(text, expr.Input(src.TensorType()))
		want, err := expr.MustCompilePlan(e).Eval(src)
		if err != nil {
			t.Fatal(err)
		}
		defer want.Release()
		for _, ext := range []string{"arrow", "arrows", "parquet", "npy", "npz"} {
			t.Run(text+"/"+ext, func(t *testing.T) {
				out := filepath.Join(t.TempDir(), "out."+ext)
				code, _, stderr := runCmd(t, "eval", text, sample("images.arrow"), "-o", out)
				if code != 0 {
					t.Fatalf("code %d: %s", code, stderr)
				}
				got := readAnyColumn(t, out, "image")
				defer got.Release()
				if !sameValues(got, want, ext == "npy" || ext == "npz") {
					t.Fatalf("%s: got %v, want the values of %v", ext, got.DataType(), want.DataType())
				}
				if text == "x.mean()" && ext == "arrow" {
					for i, m := range got.(*array.Float64).Float64Values() {
						if m != means[i] {
							t.Fatalf("row %d: mean %v, want %v", i, m, means[i])
						}
					}
					if !strings.Contains(stderr, "image: uint8 (32,32,3) -> float64 per row") {
						t.Errorf("stderr %q lacks the summary", stderr)
					}
				}
			})
		}
	}
}

// TestEvalComputeNulls: null tensors give null values, kept in IPC and
// refused by .npy without --fill-nulls, as for tensors.
func TestEvalComputeNulls(t *testing.T) {
	out := filepath.Join(t.TempDir(), "sums.arrow")
	if code, _, stderr := runCmd(t, "eval", "x.sum()", sample("nulls.arrow"), "-o", out); code != 0 {
		t.Fatalf("code %d: %s", code, stderr)
	}
	src := readTensorColumn(t, sample("nulls.arrow"), "")
	defer src.Release()
	got := readAnyColumn(t, out, "nulls")
	defer got.Release()
	if got.NullN() == 0 || got.NullN() != src.NullN() {
		t.Fatalf("%d nulls, want %d (> 0)", got.NullN(), src.NullN())
	}
	for i := range src.Len() {
		if got.IsNull(i) != src.IsNull(i) {
			t.Fatalf("row %d: null %v, want %v", i, got.IsNull(i), src.IsNull(i))
		}
	}
	npy := filepath.Join(t.TempDir(), "sums.npy")
	if code, _, stderr := runCmd(t, "eval", "x.sum()", sample("nulls.arrow"), "-o", npy); code != 1 || !strings.Contains(stderr, "--fill-nulls") {
		t.Fatalf("code %d (%s), want 1 naming --fill-nulls", code, stderr)
	}
	if code, _, stderr := runCmd(t, "eval", "x.sum()", sample("nulls.arrow"), "-o", npy, "--fill-nulls", "0"); code != 0 {
		t.Fatalf("--fill-nulls 0: code %d: %s", code, stderr)
	}
}

// sameValues reports whether got holds want's values: the same column in
// formats with plain columns and dimension names; in formats of tensors
// only, a tensor column of the same shape and values (a plain want as 0-D
// tensors), without names.
func sameValues(got, want arrow.Array, tensorsOnly bool) bool {
	if !tensorsOnly {
		return array.Equal(got, want)
	}
	g, ok := got.(*fixedshape.Array)
	if !ok {
		return false
	}
	values := g.Storage().(*array.FixedSizeList).ListValues()
	w, ok := want.(*fixedshape.Array)
	if !ok {
		return g.TensorType().NDim() == 0 && array.Equal(values, want)
	}
	return slices.Equal(g.TensorType().Shape(), w.TensorType().Shape()) &&
		array.Equal(values, w.Storage().(*array.FixedSizeList).ListValues())
}
