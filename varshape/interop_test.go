package varshape_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/internal/pyrun"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/parquetconv"
	"github.com/fstensor/fstensor/varshape"
)

// pyRows is what testdata/varshape/interop.py prints: the field's
// extension keys and each row's logical shape and values (NumPy's
// transpose of the stored row), null rows as nil.
type pyRows struct {
	Name     *string  `json:"name"`
	Metadata *string  `json:"metadata"`
	String   *string  `json:"string"` // Arrow C++'s ToString of the type, when it knows it
	Rows     []*pyRow `json:"rows"`
}

type pyRow struct {
	Shape  []int     `json:"shape"`
	Values []float64 `json:"values"`
}

func runInterop(t *testing.T, args ...string) pyRows {
	t.Helper()
	script, err := os.ReadFile(testvec.Path("varshape/interop.py"))
	if err != nil {
		t.Fatal(err)
	}
	out := pyrun.Run(t, string(script), nil, []string{"pyarrow", "numpy"}, args...)
	var r pyRows
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	return r
}

// goRows returns the rows of a as interop.py prints them.
func goRows(t *testing.T, a *varshape.Array) []*pyRow {
	t.Helper()
	col, err := varshape.ColumnOf[float32](a)
	if err != nil {
		t.Fatal(err)
	}
	rows := make([]*pyRow, a.Len())
	for i := range rows {
		if a.IsNull(i) {
			continue
		}
		r := &pyRow{Shape: col.Tensor(i).Shape(), Values: []float64{}}
		for v := range col.Tensor(i).All() {
			r.Values = append(r.Values, float64(v))
		}
		rows[i] = r
	}
	return rows
}

func TestPyarrowWritesGoReads(t *testing.T) {
	pyrun.Python(t, "pyarrow", "numpy")
	dir := t.TempDir()
	want := runInterop(t, "write", dir)
	mem := testvec.CheckedMem(t)

	t.Run("format=ipc", func(t *testing.T) {
		f, err := os.Open(filepath.Join(dir, "py.arrow"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		col := readIPCFile(t, mem, f)
		defer col.Release()
		if err := col.Validate(); err != nil {
			t.Fatal(err)
		}
		if got := col.TensorType().Serialize(); got != *want.Metadata {
			t.Errorf("metadata %s, want %s", got, *want.Metadata)
		}
		if diff := cmp.Diff(want.Rows, goRows(t, col)); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("format=parquet", func(t *testing.T) {
		var got []*pyRow
		parquetColumns(t, mem, filepath.Join(dir, "py.parquet"), func(col *varshape.Array) {
			got = append(got, goRows(t, col)...)
		})
		if diff := cmp.Diff(want.Rows, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
}

// parquetColumns reads the Parquet file at path and calls fn with the
// first column of each batch, which must be a valid variable-shape
// column.
func parquetColumns(t *testing.T, mem memory.Allocator, path string, fn func(col *varshape.Array)) {
	t.Helper()
	r, err := parquetconv.OpenFile(path, parquetconv.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Release()
	for r.Next() {
		col, ok := r.RecordBatch().Column(0).(*varshape.Array)
		if !ok {
			t.Fatalf("read %v", r.RecordBatch().Column(0).DataType())
		}
		if err := col.Validate(); err != nil {
			t.Fatal(err)
		}
		fn(col)
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
}

func TestGoWritesPyarrowReads(t *testing.T) {
	pyrun.Python(t, "pyarrow", "numpy")
	dir := t.TempDir()
	mem := testvec.CheckedMem(t)
	for _, tt := range []struct {
		name  string
		nulls bool
	}{{"ipc", true}, {"parquet", false}} {
		t.Run("format="+tt.name, func(t *testing.T) {
			full := parquetColumn(t, mem, tt.nulls)
			defer full.Release()
			arr := array.NewSlice(full, 1, int64(full.Len())).(*varshape.Array)
			defer arr.Release()
			schema := arrow.NewSchema([]arrow.Field{{Name: "img", Type: arr.DataType(), Nullable: true}}, nil)
			rec := array.NewRecordBatch(schema, []arrow.Array{arr}, int64(arr.Len()))
			defer rec.Release()
			path := filepath.Join(dir, "go."+tt.name) // interop.py reads .parquet as Parquet, the rest as IPC
			f, err := os.Create(path)
			if err != nil {
				t.Fatal(err)
			}
			if tt.name == "ipc" {
				err = writeIPC(f, rec, mem)
			} else {
				err = writeParquet(f, rec, mem)
			}
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				t.Fatal(err)
			}
			got := runInterop(t, "read", path)
			if got.Name == nil || *got.Name != varshape.ExtensionName || got.Metadata == nil || *got.Metadata != arr.TensorType().Serialize() {
				t.Errorf("pyarrow read the keys %v %v", got.Name, got.Metadata)
			}
			if got.String == nil || *got.String != arr.TensorType().String() {
				t.Errorf("Arrow C++ prints %v, Go %s", got.String, arr.TensorType().String())
			}
			if diff := cmp.Diff(goRows(t, arr), got.Rows); diff != "" {
				t.Errorf("(-go +pyarrow):\n%s", diff)
			}
		})
	}
}

func writeIPC(f *os.File, rec arrow.RecordBatch, mem memory.Allocator) error {
	w, err := ipc.NewFileWriter(f, ipc.WithSchema(rec.Schema()), ipc.WithAllocator(mem))
	if err != nil {
		return err
	}
	if err := w.Write(rec); err != nil {
		return err
	}
	return w.Close()
}

func writeParquet(f *os.File, rec arrow.RecordBatch, mem memory.Allocator) error {
	st := varshape.StorageRecord(rec)
	defer st.Release()
	w, err := parquetconv.NewWriter(f, st.Schema(), parquetconv.WithAllocator(mem))
	if err != nil {
		return err
	}
	if err := w.Write(st); err != nil {
		return err
	}
	return w.Close()
}
