package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/arrowipc"
	"github.com/fstensor/fstensor/varshape"
)

// writeVarFile writes an IPC file of one variable-shape column whose rows
// have the given logical shapes (nil: a null row), in two batches.
func writeVarFile(t *testing.T, shapes [][]int) string {
	t.Helper()
	typ := varshape.MustNewType(arrow.PrimitiveTypes.Uint8, 3, varshape.Options{
		DimNames:     []string{"h", "w", "c"},
		UniformShape: []int{varshape.Varies, varshape.Varies, 3},
	})
	b, err := varshape.NewBuilder[uint8](memory.DefaultAllocator, typ)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range shapes {
		if s == nil {
			b.AppendNull()
			continue
		}
		if err := b.Append(s, make([]uint8, s[0]*s[1]*s[2])); err != nil {
			t.Fatal(err)
		}
	}
	arr := b.NewArray()
	defer arr.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "img", Type: typ, Nullable: true}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{arr}, int64(arr.Len()))
	defer rec.Release()
	path := filepath.Join(t.TempDir(), "var.arrow")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := arrowipc.NewIPCFileWriter(f, schema)
	if err != nil {
		t.Fatal(err)
	}
	half := rec.NumRows() / 2
	for _, r := range [][2]int64{{0, half}, {half, rec.NumRows()}} {
		s := rec.NewSlice(r[0], r[1])
		err := w.Write(s)
		s.Release()
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestInspectVariableShape checks the shape histogram of a variable-shape
// column, summed over batches, in the text and JSON reports.
func TestInspectVariableShape(t *testing.T) {
	path := writeVarFile(t, [][]int{{2, 3, 3}, {4, 1, 3}, nil, {2, 3, 3}, {4, 1, 3}, {2, 3, 3}})
	code, out, stderr := runCmd(t, "inspect", path)
	if code != 0 {
		t.Fatalf("code %d: %s", code, stderr)
	}
	for _, want := range []string{
		"img: variable-shape tensor uint8, 3 dims",
		"dim names       h, w, c",
		"uniform shape   (?,?,3)",
		"rows            6 (1 null)",
		"shapes          2 distinct",
		"(2,3,3)        3 rows",
		"(4,1,3)        2 rows",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	code, out, stderr = runCmd(t, "inspect", "--json", path)
	if code != 0 {
		t.Fatalf("code %d: %s", code, stderr)
	}
	var rep inspectReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("--json output: %v\n%s", err, out)
	}
	want := &varInfo{
		ElemType: "uint8", NDim: 3, DimNames: []string{"h", "w", "c"}, UniformShape: []int{-1, -1, 3},
		Rows: 6, Nulls: 1, Shapes: []shapeCount{{Shape: []int{2, 3, 3}, Rows: 3}, {Shape: []int{4, 1, 3}, Rows: 2}},
	}
	if len(rep.Columns) != 1 {
		t.Fatalf("report %+v", rep)
	}
	if diff := cmp.Diff(want, rep.Columns[0].Var); diff != "" {
		t.Errorf("variable-shape report (-want +got):\n%s", diff)
	}
}
