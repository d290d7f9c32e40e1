package arrowipc_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/arrowipc"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/pyrun"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/google/go-cmp/cmp"
)

// python returns the interpreter of the interop suite after checking that
// it has the given modules, or skips the test (see internal/pyrun).
func python(t *testing.T, modules ...string) string {
	t.Helper()
	return pyrun.Python(t, modules...)
}

func runPy(t *testing.T, py string, args ...string) {
	t.Helper()
	cmd := exec.Command(py, append([]string{testvec.Path("arrowconv/interop.py")}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("interop.py %v: %v\n%s", args, err, out)
	}
	t.Logf("interop.py %s: %s", args[0], strings.TrimSpace(string(out)))
}

type manifestColumn struct {
	Name          string      `json:"name"`
	ValueType     string      `json:"value_type"`
	PhysicalShape []int       `json:"physical_shape"`
	Permutation   []int       `json:"permutation"`
	DimNames      []string    `json:"dim_names"`
	Values        [][]float64 `json:"values"` // logical, row-major; nil for a null tensor
}

type manifestFile struct {
	Path    string           `json:"path"`
	Format  string           `json:"format"`
	Columns []manifestColumn `json:"columns"`
}

type manifest struct {
	Files []manifestFile `json:"files"`
}

// pyTypeNames maps arrow-go type names to pyarrow's.
var pyTypeNames = map[string]string{"float16": "halffloat", "float32": "float", "float64": "double"}

// logicalValues returns tensor i of arr in logical row-major order, nil
// for a null tensor.
func logicalValues(t *testing.T, arr *fixedshape.Array, i int) []float64 {
	t.Helper()
	if arr.IsNull(i) {
		return nil
	}
	b, err := json.Marshal(arr.GetOneForMarshal(i))
	if err != nil {
		t.Fatal(err)
	}
	var x any
	if err := json.Unmarshal(b, &x); err != nil {
		t.Fatal(err)
	}
	return testvec.Flatten([]float64{}, x)
}

func columnEntry(t *testing.T, name string, arr *fixedshape.Array) manifestColumn {
	typ := arr.TensorType()
	vt := typ.ElemType().String()
	if p, ok := pyTypeNames[vt]; ok {
		vt = p
	}
	c := manifestColumn{Name: name, ValueType: vt, PhysicalShape: typ.PhysicalShape(), Permutation: typ.Permutation(), DimNames: typ.PhysicalDimNames()}
	for i := range arr.Len() {
		c.Values = append(c.Values, logicalValues(t, arr, i))
	}
	return c
}

// interopRecord returns a record of n rows covering every element type,
// 0-D to 5-D tensors, a 3-cycle, a 4-D permutation, dim names and, when
// nulls, a column with null tensors.
func interopRecord(t *testing.T, mem memory.Allocator, n int, nulls bool) arrow.RecordBatch {
	type col struct {
		name  string
		elem  arrow.DataType
		meta  metadata.Metadata
		valid []bool
	}
	var cols []col
	for _, e := range []arrow.DataType{
		arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64,
		arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Uint16, arrow.PrimitiveTypes.Uint32, arrow.PrimitiveTypes.Uint64,
		arrow.FixedWidthTypes.Float16, arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Float64,
	} {
		cols = append(cols, col{"e_" + e.String(), e, metadata.MustNew([]int{2, 3}, nil, []int{1, 0}), nil})
	}
	cols = append(cols,
		col{"d0", arrow.PrimitiveTypes.Int32, metadata.MustNew([]int{}, nil, nil), nil},
		col{"d1", arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{5}, []string{"x"}, nil), nil},
		col{"d2", arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{2, 3}, []string{"h", "w"}, nil), nil},
		col{"d3_cycle", arrow.PrimitiveTypes.Int16, metadata.MustNew([]int{2, 3, 4}, []string{"a", "b", "c"}, []int{2, 0, 1}), nil},
		col{"d4_perm", arrow.PrimitiveTypes.Float64, metadata.MustNew([]int{2, 3, 4, 5}, nil, []int{3, 1, 0, 2}), nil},
		col{"d5", arrow.PrimitiveTypes.Uint8, metadata.MustNew([]int{1, 2, 3, 2, 2}, nil, []int{4, 3, 2, 1, 0}), nil},
	)
	if nulls {
		valid := make([]bool, n)
		for i := range valid {
			valid[i] = i%2 == 0
		}
		cols = append(cols, col{"nulls", arrow.PrimitiveTypes.Float64, metadata.MustNew([]int{2, 2}, nil, nil), valid})
	}
	var fields []arrow.Field
	var arrs []arrow.Array
	for _, c := range cols {
		typ := fixedshape.MustNewType(c.elem, c.meta)
		a := seqColumn(t, mem, typ, n, c.valid)
		defer a.Release()
		fields = append(fields, arrow.Field{Name: c.name, Type: typ, Nullable: true})
		arrs = append(arrs, a)
	}
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, int64(n))
}

func TestInteropGoWritesPyarrowReads(t *testing.T) {
	py := python(t, "pyarrow", "numpy")
	mem := checkedMem(t)
	dir := t.TempDir()
	full := interopRecord(t, mem, 8, true)
	defer full.Release()
	rec := full.NewSlice(1, 7) // sliced columns
	defer rec.Release()
	var man manifest
	entries := func(r arrow.RecordBatch) []manifestColumn {
		var cs []manifestColumn
		for i, c := range r.Columns() {
			cs = append(cs, columnEntry(t, r.Schema().Field(i).Name, c.(*fixedshape.Array)))
		}
		return cs
	}
	write := func(name, format string, r arrow.RecordBatch, opts ...arrowipc.Option) {
		path := filepath.Join(dir, name)
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		opts = append(opts, arrowipc.WithAllocator(mem))
		var w *arrowipc.IPCWriter
		if format == "file" {
			w, err = arrowipc.NewIPCFileWriter(f, r.Schema(), opts...)
		} else {
			w, err = arrowipc.NewIPCStreamWriter(f, r.Schema(), opts...)
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range [][2]int64{{0, 2}, {2, r.NumRows()}} { // two batches
			s := r.NewSlice(b[0], b[1])
			if err := w.Write(s); err != nil {
				t.Fatal(err)
			}
			s.Release()
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		man.Files = append(man.Files, manifestFile{Path: path, Format: format, Columns: entries(r)})
	}
	write("go.arrow", "file", rec)
	write("go_lz4.arrow", "file", rec, arrowipc.WithCompression(arrowipc.LZ4))
	write("go_zstd.arrows", "stream", rec, arrowipc.WithCompression(arrowipc.ZSTD))
	write("go_lz4.arrows", "stream", rec, arrowipc.WithCompression(arrowipc.LZ4))
	b, err := json.Marshal(man)
	if err != nil {
		t.Fatal(err)
	}
	mpath := filepath.Join(dir, "manifest.json")
	if err := os.WriteFile(mpath, b, 0o644); err != nil {
		t.Fatal(err)
	}
	runPy(t, py, "check", mpath)
}

// dropColumn returns r without the named column.
func dropColumn(r arrow.RecordBatch, name string) arrow.RecordBatch {
	var fields []arrow.Field
	var cols []arrow.Array
	for i, f := range r.Schema().Fields() {
		if f.Name != name {
			fields = append(fields, f)
			cols = append(cols, r.Column(i))
		}
	}
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, r.NumRows())
}

func TestInteropPyarrowWritesGoReads(t *testing.T) {
	py := python(t, "pyarrow", "numpy")
	dir := t.TempDir()
	runPy(t, py, "write", dir)
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var man manifest
	if err := json.Unmarshal(b, &man); err != nil {
		t.Fatal(err)
	}
	for _, f := range man.Files {
		t.Run(filepath.Base(f.Path), func(t *testing.T) {
			mem := checkedMem(t)
			var recs []arrow.RecordBatch
			defer func() {
				for _, r := range recs {
					r.Release()
				}
			}()
			switch f.Format {
			case "file":
				r, err := arrowipc.OpenMappedIPCFile(f.Path, arrowipc.WithAllocator(mem))
				if err != nil {
					t.Fatal(err)
				}
				defer r.Close()
				for i := range r.NumRecords() {
					rec, err := r.RecordBatch(i)
					if err != nil {
						t.Fatal(err)
					}
					recs = append(recs, rec)
				}
			default:
				var rr array.RecordReader
				var err error
				{
					fh, ferr := os.Open(f.Path)
					if ferr != nil {
						t.Fatal(ferr)
					}
					defer fh.Close()
					rr, err = arrowipc.NewIPCStreamReader(fh, arrowipc.WithAllocator(mem))
				}
				if err != nil {
					t.Fatal(err)
				}
				defer rr.Release()
				for rr.Next() {
					rec := rr.RecordBatch()
					rec.Retain()
					recs = append(recs, rec)
				}
				if err := rr.Err(); err != nil {
					t.Fatal(err)
				}
			}
			for _, c := range f.Columns {
				var got [][]float64
				for _, rec := range recs {
					idx := rec.Schema().FieldIndices(c.Name)
					if len(idx) != 1 {
						t.Fatalf("column %s missing", c.Name)
					}
					arr, ok := rec.Column(idx[0]).(*fixedshape.Array)
					if !ok {
						t.Fatalf("column %s is %T", c.Name, rec.Column(idx[0]))
					}
					typ := arr.TensorType()
					if diff := cmp.Diff(c.PhysicalShape, typ.PhysicalShape()); diff != "" {
						t.Errorf("%s physical shape (-want +got):\n%s", c.Name, diff)
					}
					if diff := cmp.Diff(c.Permutation, typ.Permutation()); diff != "" {
						t.Errorf("%s permutation (-want +got):\n%s", c.Name, diff)
					}
					if diff := cmp.Diff(c.DimNames, typ.PhysicalDimNames()); diff != "" {
						t.Errorf("%s dim names (-want +got):\n%s", c.Name, diff)
					}
					for i := range arr.Len() {
						got = append(got, logicalValues(t, arr, i))
					}
				}
				if diff := cmp.Diff(c.Values, got); diff != "" {
					t.Errorf("%s values (-want +got):\n%s", c.Name, diff)
				}
			}
		})
	}
}
