package arrowipc_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/arrowconv"
	"github.com/fstensor/fstensor/arrowipc"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/pyrun"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/parquetconv"
	"github.com/google/go-cmp/cmp"
)

// The interop matrix's column: ROWS int32 tensors of physical shape
// [2,3,4] with physical dimension names d0..d2, values 0, 1, 2, ... in
// physical order, with or without the 3-cycle permutation [2,0,1]
// (logical shape [4,2,3]).
var (
	rsShape = []int{2, 3, 4}
	rsNames = []string{"d0", "d1", "d2"}
	rsPerm  = []int{2, 0, 1}
)

const rsRows = 2

// arrowRS returns the arrow-rs interop binary (testdata/arrowrs), building
// it with cargo when FSTENSOR_ARROW_RS=1, or skips the test.
func arrowRS(t *testing.T) string {
	t.Helper()
	dir := filepath.Join("..", "testdata", "arrowrs")
	bin := filepath.Join(dir, "target", "release", "fstensor-arrowrs")
	if os.Getenv("FSTENSOR_ARROW_RS") == "1" {
		cmd := exec.Command("cargo", "build", "--release", "--manifest-path", filepath.Join(dir, "Cargo.toml"))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("cargo build (testdata/arrowrs): %v\n%s", err, out)
		}
	}
	if _, err := os.Stat(bin); err != nil {
		t.Skipf("arrow-rs interop binary %s not built: run `cargo build --release` in testdata/arrowrs or set FSTENSOR_ARROW_RS=1", bin)
	}
	return bin
}

// rsColumn is what one reader sees in one column.
type rsColumn struct {
	Accepted    bool     `json:"accepted"`
	Error       string   `json:"error"`
	Shape       []int    `json:"shape"` // physical
	Permutation []int    `json:"permutation"`
	DimNames    []string `json:"dim_names"`
	Values      []int64  `json:"values"` // physical
}

// verdict is a matrix cell: "ok", or what went wrong.
func (c rsColumn) verdict(perm, names bool) string {
	if !c.Accepted {
		return "refused: " + c.Error
	}
	want := make([]int64, rsRows*24)
	for i := range want {
		want[i] = int64(i)
	}
	var wantPerm []int
	if perm {
		wantPerm = rsPerm
	}
	switch {
	case !slices.Equal(c.Shape, rsShape):
		return fmt.Sprintf("wrong shape %v", c.Shape)
	case perm && len(c.Permutation) == 0:
		return fmt.Sprintf("wrong: no permutation, logical shape %v", c.Shape)
	case !slices.Equal(c.Permutation, wantPerm):
		logical := slices.Clone(c.Shape)
		if c.Permutation != nil {
			logical = make([]int, len(c.Permutation))
			for i, p := range c.Permutation {
				logical[i] = c.Shape[p]
			}
		}
		return fmt.Sprintf("wrong: permutation %v, logical shape %v", c.Permutation, logical)
	case names && !slices.Equal(c.DimNames, rsNames) || !names && c.DimNames != nil:
		return fmt.Sprintf("wrong dim_names %v", c.DimNames)
	case !slices.Equal(c.Values, want):
		return "wrong values"
	}
	return "ok"
}

// rsColumnOf returns the test column of the given metadata and values.
func rsTensorColumn(t *testing.T, mem memory.Allocator, perm bool) *fixedshape.Array {
	t.Helper()
	var p []int
	if perm {
		p = rsPerm
	}
	m, err := metadata.FromPhysical(rsShape, rsNames, p)
	if err != nil {
		t.Fatal(err)
	}
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Int32, m)
	b := array.NewInt32Builder(mem)
	defer b.Release()
	for i := range rsRows * 24 {
		b.Append(int32(i))
	}
	vals := b.NewArray()
	defer vals.Release()
	data := array.NewData(typ.StorageType(), rsRows, []*memory.Buffer{nil}, []arrow.ArrayData{vals.Data()}, 0, 0)
	defer data.Release()
	st := array.MakeFromData(data)
	defer st.Release()
	arr, err := fixedshape.NewArray(typ, st)
	if err != nil {
		t.Fatal(err)
	}
	return arr
}

// writeFstensor writes the test column with arrowipc's IPC file writer,
// through NonNullableValuesRecord when nonNull is set.
func writeFstensor(t *testing.T, path string, perm, nonNull bool) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	arr := rsTensorColumn(t, mem, perm)
	defer arr.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "t", Type: arr.DataType(), Nullable: true}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{arr}, rsRows)
	defer rec.Release()
	if nonNull {
		nn, err := arrowconv.NonNullableValuesRecord(rec)
		if err != nil {
			t.Fatal(err)
		}
		defer nn.Release()
		rec = nn
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := arrowipc.NewIPCFileWriter(f, rec.Schema(), arrowipc.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	testvec.WriteAll(t, w, rec)
}

// readFstensor reads the first column of an IPC file with arrowipc.
func readFstensor(t *testing.T, path string) rsColumn {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r, err := arrowipc.OpenIPCFile(path, arrowipc.WithAllocator(mem))
	if err != nil {
		return rsColumn{Error: err.Error()}
	}
	defer r.Close()
	var c rsColumn
	for i := range r.NumRecords() {
		rec, err := r.RecordBatch(i)
		if err != nil {
			return rsColumn{Error: err.Error()}
		}
		arr, ok := rec.Column(0).(*fixedshape.Array)
		if !ok {
			rec.Release()
			return rsColumn{Error: fmt.Sprintf("column of type %v", rec.Column(0).DataType())}
		}
		m := arr.TensorType().Metadata()
		c.Accepted, c.Shape, c.Permutation, c.DimNames = true, m.PhysicalShape(), m.Permutation(), m.PhysicalDimNames()
		b := arr.ValueBytes()
		for j := 0; j+4 <= len(b); j += 4 {
			c.Values = append(c.Values, int64(int32(binary.LittleEndian.Uint32(b[j:]))))
		}
		rec.Release()
	}
	return c
}

// rsPyScript writes ("write", path, perm) or reads ("read", path) the test
// column with pyarrow; a read prints one JSON rsColumn.
const rsPyScript = `
import json, sys
import pyarrow as pa
op, path = sys.argv[1], sys.argv[2]
if op == "write":
    perm = [2, 0, 1] if sys.argv[3] == "1" else None
    typ = pa.fixed_shape_tensor(pa.int32(), [2, 3, 4], dim_names=["d0", "d1", "d2"], permutation=perm)
    storage = pa.FixedSizeListArray.from_arrays(pa.array(range(2 * 24), pa.int32()), 24)
    arr = pa.ExtensionArray.from_storage(typ, storage)
    with pa.ipc.new_file(path, pa.schema([pa.field("t", typ)])) as w:
        w.write_table(pa.table({"t": arr}))
    sys.exit(0)
try:
    col = pa.ipc.open_file(path).read_all().column(0)
except Exception as e:
    print(json.dumps({"accepted": False, "error": str(e)}))
    sys.exit(0)
typ = col.type
if not isinstance(typ, pa.FixedShapeTensorType):
    print(json.dumps({"accepted": False, "error": "read as " + str(typ)}))
    sys.exit(0)
values = pa.concat_arrays([c.storage for c in col.chunks]).flatten().to_pylist()
print(json.dumps({"accepted": True, "shape": list(typ.shape),
    "permutation": None if typ.permutation is None else list(typ.permutation),
    "dim_names": None if typ.dim_names is None else list(typ.dim_names), "values": values}))
`

func readPyarrow(t *testing.T, path string) rsColumn {
	t.Helper()
	out := pyrun.Run(t, rsPyScript, nil, []string{"pyarrow"}, "read", path)
	var c rsColumn
	if err := json.Unmarshal(out, &c); err != nil {
		t.Fatalf("pyarrow read %s: %v: %s", path, err, out)
	}
	return c
}

func readArrowRS(t *testing.T, bin, path string) rsColumn {
	t.Helper()
	out, err := exec.Command(bin, "read", path).Output()
	if err != nil {
		return rsColumn{Error: fmt.Sprintf("%v: %s", err, errText(err))}
	}
	var c struct {
		rsColumn
		Permutations []int `json:"permutations"`
	}
	if err := json.Unmarshal(bytes.SplitN(out, []byte("\n"), 2)[0], &c); err != nil {
		t.Fatalf("arrow-rs read %s: %v: %s", path, err, out)
	}
	c.Permutation = c.Permutations
	return c.rsColumn
}

func writeArrowRS(t *testing.T, bin, path string, perm, names bool) {
	t.Helper()
	args := []string{"write", path, fmt.Sprint(rsRows), "2,3,4", "-", "-"}
	if perm {
		args[4] = "2,0,1"
	}
	if names {
		args = args[:5]
	}
	if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
		t.Fatalf("arrow-rs write: %v: %s", err, out)
	}
}

func errText(err error) string {
	if ee, ok := err.(*exec.ExitError); ok {
		return strings.TrimSpace(string(ee.Stderr))
	}
	return ""
}

// TestArrowRSMatrix runs every reader (fstensor, pyarrow, arrow-rs) over
// the files every writer (fstensor, fstensor with NonNullableValuesRecord,
// pyarrow, arrow-rs) makes of one int32 tensor column, with and without a
// permutation, and logs the table (go test -v). It fails when fstensor
// reads a file wrong, when a reader that accepts a column sees other
// values, or when arrow-rs refuses a NonNullableValuesRecord column
// without a permutation.
func TestArrowRSMatrix(t *testing.T) {
	bin := arrowRS(t)
	pyrun.Python(t, "pyarrow")
	dir := t.TempDir()
	writers := []struct {
		name    string
		noNames bool // the writer leaves dim_names out
		write   func(path string, perm bool)
	}{
		{"fstensor", false, func(path string, perm bool) { writeFstensor(t, path, perm, false) }},
		{"fstensor NonNullableValues", false, func(path string, perm bool) { writeFstensor(t, path, perm, true) }},
		{"pyarrow", false, func(path string, perm bool) {
			p := "0"
			if perm {
				p = "1"
			}
			pyrun.Run(t, rsPyScript, nil, []string{"pyarrow"}, "write", path, p)
		}},
		{"arrow-rs", false, func(path string, perm bool) { writeArrowRS(t, bin, path, perm, true) }},
		{"arrow-rs, no dim_names", true, func(path string, perm bool) { writeArrowRS(t, bin, path, perm, false) }},
	}
	readers := []string{"fstensor", "pyarrow", "arrow-rs"}
	var table strings.Builder
	table.WriteString("| writer | permutation | " + strings.Join(readers, " reads | ") + " reads |\n|---|---|---|---|---|\n")
	for _, w := range writers {
		for _, perm := range []bool{false, true} {
			path := filepath.Join(dir, fmt.Sprintf("%s-%v.arrow", strings.ReplaceAll(w.name, " ", "_"), perm))
			w.write(path, perm)
			cells := map[string]rsColumn{
				"fstensor": readFstensor(t, path),
				"pyarrow":  readPyarrow(t, path),
				"arrow-rs": readArrowRS(t, bin, path),
			}
			permText := "none"
			if perm {
				permText = "[2,0,1]"
			}
			row := []string{w.name, permText}
			for _, r := range readers {
				c := cells[r]
				v := c.verdict(perm, !w.noNames)
				row = append(row, v)
				if c.Accepted && !slices.Equal(c.Values, cells["fstensor"].Values) {
					t.Errorf("%s reads %s's column (permutation %v) with values %v", r, w.name, perm, c.Values)
				}
			}
			if v := cells["fstensor"].verdict(perm, !w.noNames); v != "ok" {
				t.Errorf("fstensor reads %s's column (permutation %v): %s", w.name, perm, v)
			}
			if w.name == "fstensor NonNullableValues" && !perm {
				if v := cells["arrow-rs"].verdict(perm, true); v != "ok" {
					t.Errorf("arrow-rs reads the NonNullableValues column: %s", v)
				}
			}
			table.WriteString("| " + strings.Join(row, " | ") + " |\n")
		}
	}
	t.Logf("reader x writer, int32 tensors of physical shape %v, dim_names %v:\n%s", rsShape, rsNames, table.String())
}

// TestArrowRSPermutationsKey converts a column carrying arrow-rs's
// metadata, exactly as arrow-rs 60.1 writes it (the plural
// "permutations", null for an absent key), and checks that the output
// carries the spec's "permutation" and no "permutations" or null.
func TestArrowRSPermutationsKey(t *testing.T) {
	tests := []struct {
		name, json, want string
	}{
		{"permuted", `{"shape":[2,3,4],"dim_names":["d0","d1","d2"],"permutations":[2,0,1]}`,
			`{"shape":[2,3,4],"permutation":[2,0,1],"dim_names":["d0","d1","d2"]}`},
		{"nulls", `{"shape":[2,3,4],"dim_names":null,"permutations":null}`, `{"shape":[2,3,4]}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			arr := rsTensorColumn(t, mem, false)
			defer arr.Release()
			storage := arrow.FixedSizeListOfNonNullable(24, arrow.PrimitiveTypes.Int32)
			data := array.NewData(storage, rsRows, arr.Storage().Data().Buffers(), arr.Storage().Data().Children(), 0, 0)
			defer data.Release()
			st := array.MakeFromData(data)
			defer st.Release()
			f := arrow.Field{Name: "t", Type: storage, Nullable: true, Metadata: arrow.NewMetadata(
				[]string{arrowconv.ExtensionNameKey, arrowconv.ExtensionMetadataKey}, []string{fixedshape.ExtensionName, tc.json})}
			rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{f}, nil), []arrow.Array{st}, rsRows)
			defer rec.Release()
			in := arrowGoIPC(t, false, []arrow.RecordBatch{rec}, ipc.WithAllocator(mem))

			// Read with arrowipc, write with arrowipc, read the
			// output's field metadata back with plain arrow-go.
			r, err := arrowipc.NewIPCStreamReader(bytes.NewReader(in), arrowipc.WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			defer r.Release()
			var out bytes.Buffer
			ow, err := arrowipc.NewIPCStreamWriter(&out, r.Schema(), arrowipc.WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			for r.Next() {
				if err := ow.Write(r.RecordBatch()); err != nil {
					t.Fatal(err)
				}
			}
			if err := r.Err(); err != nil {
				t.Fatal(err)
			}
			if err := ow.Close(); err != nil {
				t.Fatal(err)
			}
			// arrow-go's reader turns the keys into a registered
			// extension type, so look for the metadata as stored: the
			// schema message holds the JSON verbatim.
			if !bytes.Contains(out.Bytes(), []byte(tc.want)) || bytes.Contains(out.Bytes(), []byte("permutations")) ||
				bytes.Contains(out.Bytes(), []byte("null")) {
				t.Errorf("output stream does not carry %s alone: %q", tc.want, out.Bytes())
			}
			pr, err := arrowipc.NewIPCStreamReader(&out, arrowipc.WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			defer pr.Release()
			typ, ok := pr.Schema().Field(0).Type.(*fixedshape.Type)
			if !ok {
				t.Fatalf("output column type %v", pr.Schema().Field(0).Type)
			}
			if diff := cmp.Diff(tc.want, typ.Serialize()); diff != "" {
				t.Errorf("output metadata (-want +got):\n%s", diff)
			}
		})
	}
}

// TestNonNullableValues checks that NonNullableValuesRecord declares the
// child non-nullable, keeps every value and null tensor (sliced columns,
// bool elements, a child validity bitmap) and survives an IPC round trip.
func TestNonNullableValues(t *testing.T) {
	tests := []struct {
		name  string
		elem  arrow.DataType
		perm  []int
		nulls bool
		lo    int
	}{
		{name: "int32", elem: arrow.PrimitiveTypes.Int32},
		{name: "3-cycle permutation", elem: arrow.PrimitiveTypes.Float32, perm: []int{2, 0, 1}},
		{name: "null tensors, sliced", elem: arrow.PrimitiveTypes.Int16, nulls: true, lo: 1},
		{name: "bool, sliced", elem: arrow.FixedWidthTypes.Boolean, nulls: true, lo: 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			typ := fixedshape.MustNewType(tc.elem, metadata.MustNew([]int{2, 3, 5}, nil, tc.perm))
			// Built through arrow-go's FixedSizeList builder, whose
			// null lists give the child null elements too.
			b := array.NewFixedSizeListBuilder(mem, int32(typ.ListSize()), tc.elem)
			defer b.Release()
			for i := range 6 {
				if tc.nulls && i%3 == 2 {
					b.AppendNull()
					continue
				}
				b.Append(true)
				for j := range typ.ListSize() {
					switch vb := b.ValueBuilder().(type) {
					case *array.BooleanBuilder:
						vb.Append((i+j)%3 == 0)
					case *array.Int16Builder:
						vb.Append(int16(i*100 + j))
					case *array.Int32Builder:
						vb.Append(int32(i*100 + j))
					case *array.Float32Builder:
						vb.Append(float32(i*100 + j))
					}
				}
			}
			st := b.NewArray()
			defer st.Release()
			whole, err := fixedshape.NewArray(typ, st)
			if err != nil {
				t.Fatal(err)
			}
			defer whole.Release()
			arr := array.NewSlice(whole, int64(tc.lo), 6).(*fixedshape.Array)
			defer arr.Release()
			schema := arrow.NewSchema([]arrow.Field{{Name: "t", Type: arr.DataType(), Nullable: true}}, nil)
			rec := array.NewRecordBatch(schema, []arrow.Array{arr}, int64(arr.Len()))
			defer rec.Release()

			nn, err := arrowconv.NonNullableValuesRecord(rec)
			if err != nil {
				t.Fatal(err)
			}
			defer nn.Release()
			data := writeIPC(t, false, []arrow.RecordBatch{nn}, arrowipc.WithAllocator(mem))
			r, err := arrowipc.NewIPCStreamReader(bytes.NewReader(data), arrowipc.WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			defer r.Release()
			if !r.Next() {
				t.Fatal(r.Err())
			}
			for name, c := range map[string]arrow.Array{"NonNullableValuesRecord": nn.Column(0), "IPC round trip": r.RecordBatch().Column(0)} {
				got, ok := c.(*fixedshape.Array)
				if !ok {
					t.Fatalf("%s: column of type %v", name, c.DataType())
				}
				if got.TensorType().StorageType().(*arrow.FixedSizeListType).ElemField().Nullable {
					t.Errorf("%s: child field %v is nullable", name, got.TensorType().StorageType())
				}
				if !fixedshape.Equal(arr, got) {
					t.Errorf("%s: %v, want %v", name, got, arr)
				}
				if !got.TensorType().Metadata().Equal(typ.Metadata()) {
					t.Errorf("%s: metadata %v, want %v", name, got.TensorType().Metadata(), typ.Metadata())
				}
			}
		})
	}
}

// TestNonNullableValuesParquet checks what NonNullableValues costs in
// Parquet: nothing, because parquetconv declares the child nullable in the
// stored Arrow schema, so pyarrow still reads the extension type.
func TestNonNullableValuesParquet(t *testing.T) {
	pyrun.Python(t, "pyarrow")
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	arr := rsTensorColumn(t, mem, false)
	defer arr.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "t", Type: arr.DataType(), Nullable: true}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{arr}, rsRows)
	defer rec.Release()
	nn, err := arrowconv.NonNullableValuesRecord(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer nn.Release()
	path := filepath.Join(t.TempDir(), "nn.parquet")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := parquetconv.NewWriter(f, nn.Schema(), parquetconv.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	testvec.WriteAll(t, w, nn)
	f.Close()
	out := pyrun.Run(t, `
import sys, pyarrow.parquet as pq
t = pq.read_table(sys.argv[1])
print(t.schema.field(0).type)
print(t.column(0).chunk(0).storage.flatten().to_pylist() == list(range(48)))
`, nil, []string{"pyarrow"}, path)
	want := "extension<arrow.fixed_shape_tensor[value_type=int32, shape=[2,3,4], dim_names=[d0,d1,d2]]>\nTrue\n"
	if diff := cmp.Diff(want, string(out)); diff != "" {
		t.Errorf("pyarrow reads the Parquet file as (-want +got):\n%s", diff)
	}
}
