package parquetconv_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/pyrun"
	"github.com/fstensor/fstensor/parquetconv"
)

// pyFile is one entry of the manifest of testdata/parquetconv/pyarrow_files.py.
type pyFile struct {
	File     string `json:"file"`
	Fast     bool   `json:"fast"`     // every tensor column chunk on the fast path
	Fallback bool   `json:"fallback"` // some tensor column chunks read by pqarrow
	Rows     int    `json:"rows"`
	Columns  []struct {
		Name    string `json:"name"`
		Valid   []bool `json:"valid"`
		Lengths []int  `json:"lengths"`
		Data    string `json:"data"`
	} `json:"columns"`
}

// TestReadPyarrowFiles reads the files pyarrow (every codec, data page
// v2, dictionary pages, byte stream split, small row groups and pages,
// null tensors, a non-nullable child), DuckDB and polars write, and
// compares every row bit for bit with what pyarrow reads back. Tensor
// columns of pyarrow's files must stay on the fast path.
func TestReadPyarrowFiles(t *testing.T) {
	py := pyrun.Python(t, "pyarrow", "numpy")
	dir := t.TempDir()
	cmd := exec.Command(py, filepath.Join("..", "testdata", "parquetconv", "pyarrow_files.py"), dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pyarrow_files.py: %v\n%s", err, out)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var files []pyFile
	if err := json.Unmarshal(raw, &files); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		for _, workers := range []int{1, 2} {
			t.Run(f.File+"/workers="+string(rune('0'+workers)), func(t *testing.T) {
				var mem memory.Allocator = memory.NewGoAllocator()
				if !f.Fallback {
					// arrow-go v18.8.0's DELTA_BINARY_PACKED decoder leaks 64
					// bytes of its allocator per column chunk.
					mem = checkedMem(t)
				}
				before := parquetconv.TensorFallbacks()
				r, err := parquetconv.OpenFile(filepath.Join(dir, f.File), parquetconv.WithAllocator(mem), parquetconv.WithWorkers(workers), parquetconv.WithBatchRows(4))
				if err != nil {
					t.Fatal(err)
				}
				defer r.Release()
				type col struct {
					data  []byte
					row   int
					index int
				}
				cols := make([]col, len(f.Columns))
				for i, c := range f.Columns {
					cols[i].index = r.Schema().FieldIndices(c.Name)[0]
					if cols[i].data, err = os.ReadFile(filepath.Join(dir, "files", c.Data)); err != nil {
						t.Fatal(err)
					}
				}
				rows := 0
				for r.Next() {
					rec := r.RecordBatch()
					for i, c := range f.Columns {
						arr := rec.Column(cols[i].index)
						for k := range arr.Len() {
							row := rows + k
							valid, b := rowBytes(t, arr, k)
							if valid != c.Valid[row] {
								t.Fatalf("column %q row %d: valid %v, pyarrow %v", c.Name, row, valid, c.Valid[row])
							}
							if !valid {
								continue
							}
							want := cols[i].data[:c.Lengths[row]]
							cols[i].data = cols[i].data[c.Lengths[row]:]
							if !bytes.Equal(b, want) {
								t.Fatalf("column %q row %d:\n got % x\nwant % x", c.Name, row, clip(b), clip(want))
							}
						}
					}
					rows += int(rec.NumRows())
				}
				if err := r.Err(); err != nil {
					t.Fatal(err)
				}
				if rows != f.Rows {
					t.Fatalf("read %d rows, pyarrow %d", rows, f.Rows)
				}
				if n := parquetconv.TensorFallbacks() - before; f.Fast && n != 0 {
					t.Errorf("%d tensor column chunks left the fast path", n)
				} else if f.Fallback && n == 0 {
					t.Error("no tensor column chunk read by pqarrow")
				}
				for i, c := range f.Columns {
					if _, ok := r.Schema().Field(cols[i].index).Type.(*fixedshape.Type); (f.Fast || f.Fallback) && !ok {
						t.Errorf("column %q is %v, not a tensor", c.Name, r.Schema().Field(cols[i].index).Type)
					}
				}
			})
		}
	}
}

// rowBytes returns whether row k of a tensor, fixed-size list or list
// column of primitive elements is valid, and its elements' bytes.
func rowBytes(t *testing.T, arr arrow.Array, k int) (bool, []byte) {
	t.Helper()
	if a, ok := arr.(*fixedshape.Array); ok {
		size := a.TensorType().ListSize() * a.TensorType().ElemWidth()
		return a.IsValid(k), a.ValueBytes()[k*size : (k+1)*size]
	}
	var child arrow.Array
	var start, end int64
	switch a := arr.(type) {
	case *array.FixedSizeList:
		n := int64(a.DataType().(*arrow.FixedSizeListType).Len())
		child, start, end = a.ListValues(), int64(a.Offset()+k)*n, int64(a.Offset()+k+1)*n
	case *array.List:
		child = a.ListValues()
		start, end = a.ValueOffsets(k)
	case *array.LargeList:
		child = a.ListValues()
		start, end = a.ValueOffsets(k)
	default:
		t.Fatalf("column of type %v", arr.DataType())
	}
	w := int64(child.DataType().(arrow.FixedWidthDataType).BitWidth() / 8)
	d := child.Data()
	buf := d.Buffers()[1].Bytes()
	off := int64(d.Offset())
	return arr.IsValid(k), buf[(off+start)*w : (off+end)*w]
}
