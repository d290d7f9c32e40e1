package parquetconv_test

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
	"github.com/fstensor/fstensor/parquetconv"
)

// interopRecord returns a sliced record covering every element type, 0-D
// to 3-D shapes with a 3-cycle, null and all-null columns, a column whose
// storage child is non-nullable (as arrow-rs writes it), NaN payloads and
// an int64 and a string column beside the tensors.
func interopRecord(t *testing.T, mem memory.Allocator) arrow.RecordBatch {
	t.Helper()
	specs := []colSpec{
		{"d0", arrow.PrimitiveTypes.Int32, shape0D, nil},
		{"cyc", arrow.PrimitiveTypes.Int16, shapeCycle3, nil},
		{"vec", arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{5}, []string{"x"}, nil), everyThird},
		{"none", arrow.PrimitiveTypes.Float64, shapeVector, allNull},
		{"none8", arrow.PrimitiveTypes.Uint8, shapeVector, allNull},
	}
	for _, dt := range elemTypes {
		specs = append(specs, colSpec{"e_" + dt.String(), dt, shapeNonSquare, everyThird})
	}
	full := mixedRecord(t, mem, 12, specs...)
	defer full.Release()

	// A non-nullable child, NaN payloads in both widths.
	nn, err := fixedshape.NewTypeWithStorage(arrow.FixedSizeListOfNonNullable(6, arrow.PrimitiveTypes.Float32), shapeNonSquare)
	if err != nil {
		t.Fatal(err)
	}
	nonNull := seqColumn(t, mem, nn, 12, nil)
	defer nonNull.Release()
	n32, n64 := nanColumns(t, mem, 12)
	defer n32.Release()
	defer n64.Release()
	fields := append(full.Schema().Fields(),
		arrow.Field{Name: "nonnull_child", Type: nn, Nullable: true},
		arrow.Field{Name: "nan32", Type: n32.DataType(), Nullable: true},
		arrow.Field{Name: "nan64", Type: n64.DataType(), Nullable: true})
	cols := append(append([]arrow.Array{}, full.Columns()...), nonNull, n32, n64)
	rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, 12)
	defer rec.Release()
	return sliceRecord(rec, 1, 12)
}

// interopManifest names the tensor columns and gives the logical values
// of one valid tensor of each column without NaNs.
func interopManifest(t *testing.T, rec arrow.RecordBatch) []byte {
	t.Helper()
	type logical struct {
		Row    int       `json:"row"`
		Shape  []int     `json:"shape"`
		Values []float64 `json:"values"`
	}
	man := struct {
		Tensors []string           `json:"tensors"`
		Logical map[string]logical `json:"logical"`
	}{Tensors: []string{}, Logical: map[string]logical{}}
	for i, c := range rec.Columns() {
		a, ok := c.(*fixedshape.Array)
		if !ok {
			continue
		}
		name := rec.Schema().Field(i).Name
		man.Tensors = append(man.Tensors, name)
		if strings.HasPrefix(name, "nan") {
			continue
		}
		for r := a.Len() - 1; r >= 0; r-- {
			if a.IsValid(r) {
				b, err := json.Marshal(a.GetOneForMarshal(r))
				if err != nil {
					t.Fatal(err)
				}
				var x any
				if err := json.Unmarshal(b, &x); err != nil {
					t.Fatal(err)
				}
				man.Logical[name] = logical{Row: r, Shape: a.TensorType().Shape(), Values: testvec.Flatten(nil, x)}
				break
			}
		}
	}
	b, err := json.Marshal(man)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestInteropGoWritesOthersRead writes a Parquet file with the Go writer
// and checks it with pyarrow, DuckDB and polars (testdata/parquetconv/
// interop.py), against an Arrow IPC file of the same record.
func TestInteropGoWritesOthersRead(t *testing.T) {
	py := pyrun.Python(t, "pyarrow", "numpy")
	readers := []string{"pyarrow"}
	for _, m := range []string{"duckdb", "polars"} {
		if exec.Command(py, "-c", "import "+m).Run() == nil {
			readers = append(readers, m)
		} else {
			t.Logf("%s not importable: skipping its checks", m)
		}
	}
	mem := checkedMem(t)
	full := interopRecord(t, mem)
	defer full.Release()
	empty := sliceRecord(full, 0, 0)
	defer empty.Release()
	// Pages of many groups of bit-packed indexes (identity dictionary),
	// pages of one tensor.
	large := buildRecord(t, mem, 9,
		colSpec{"img", arrow.PrimitiveTypes.Uint8, metadata.MustNew([]int{3, 224, 224}, []string{"c", "h", "w"}, nil), everyThird},
		colSpec{"depth", arrow.PrimitiveTypes.Int16, metadata.MustNew([]int{480, 640}, nil, []int{1, 0}), nil})
	defer large.Release()
	for _, rc := range []struct {
		name string
		rec  arrow.RecordBatch
	}{{"rows", full}, {"empty", empty}, {"large", large}} {
		t.Run(rc.name, func(t *testing.T) { checkOthersRead(t, py, readers, mem, rc.rec) })
	}
}

// checkOthersRead writes rec as Parquet under several options and as an
// Arrow IPC reference, and runs interop.py on them.
func checkOthersRead(t *testing.T, py string, readers []string, mem memory.Allocator, rec arrow.RecordBatch) {
	dir := t.TempDir()
	ref := filepath.Join(dir, "ref.arrow")
	f, err := os.Create(ref)
	if err != nil {
		t.Fatal(err)
	}
	iw, err := arrowipc.NewIPCFileWriter(f, rec.Schema(), arrowipc.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	testvec.WriteAll(t, iw, rec)
	f.Close()
	man := filepath.Join(dir, "manifest.json")
	if err := os.WriteFile(man, interopManifest(t, rec), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{testvec.Path("parquetconv/interop.py"), strings.Join(readers, ","), ref, man}
	for _, tc := range []struct {
		name string
		opts []parquetconv.Option
	}{
		{"v1", []parquetconv.Option{parquetconv.WithRowGroupRows(4)}},
		{"plain", []parquetconv.Option{parquetconv.WithoutIdentityDictionary()}},
		{"identity_dictionary_16", []parquetconv.Option{parquetconv.WithIdentityDictionary(), parquetconv.WithRowGroupRows(5)}},
		{"v2_zstd_bss", []parquetconv.Option{parquetconv.WithDataPageV2(), parquetconv.WithCompression(parquetconv.ZSTD), parquetconv.WithByteStreamSplit()}},
		{"snappy", []parquetconv.Option{parquetconv.WithCompression(parquetconv.Snappy)}},
		{"lz4", []parquetconv.Option{parquetconv.WithCompression(parquetconv.LZ4), parquetconv.WithRowGroupRows(3)}},
		{"identity_dictionary_v2_gzip", []parquetconv.Option{parquetconv.WithIdentityDictionary(), parquetconv.WithDataPageV2(), parquetconv.WithCompression(parquetconv.Gzip)}},
	} {
		path := filepath.Join(dir, tc.name+".parquet")
		if err := os.WriteFile(path, writeFile(t, rec.Schema(), []arrow.RecordBatch{rec}, append(tc.opts, parquetconv.WithAllocator(mem))...), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, path)
	}
	out, err := exec.Command(py, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("interop.py: %v\n%s", err, out)
	}
	t.Logf("%s", strings.TrimSpace(string(out)))
}
