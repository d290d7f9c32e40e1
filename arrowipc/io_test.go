package arrowipc_test

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
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
	"github.com/fstensor/fstensor/metadata"
)

func TestIPCFileRoundTrip(t *testing.T) {
	for _, cmp := range []arrowipc.Compression{arrowipc.Uncompressed, arrowipc.LZ4, arrowipc.ZSTD} {
		for _, mapped := range []bool{false, true} {
			name := cmp.String()
			if mapped {
				name += "/mapped"
			}
			t.Run(name, func(t *testing.T) {
				mem := checkedMem(t)
				rec := testRecord(t, mem, 7, true)
				defer rec.Release()
				sliced := rec.NewSlice(2, 6)
				defer sliced.Release()
				path := filepath.Join(t.TempDir(), "t.arrow")
				f, err := os.Create(path)
				if err != nil {
					t.Fatal(err)
				}
				w, err := arrowipc.NewIPCFileWriter(f, rec.Schema(), arrowipc.WithCompression(cmp), arrowipc.WithAllocator(mem))
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range []arrow.RecordBatch{rec, sliced} {
					if err := w.Write(r); err != nil {
						t.Fatal(err)
					}
				}
				if err := w.Close(); err != nil {
					t.Fatal(err)
				}
				f.Close()
				open := arrowipc.OpenIPCFile
				if mapped {
					open = arrowipc.OpenMappedIPCFile
				}
				r, err := open(path, arrowipc.WithAllocator(mem))
				if err != nil {
					t.Fatal(err)
				}
				defer r.Close()
				if r.NumRecords() != 2 || r.Mapped() != mapped {
					t.Fatalf("%d records, mapped %v", r.NumRecords(), r.Mapped())
				}
				for i, want := range []arrow.RecordBatch{rec, sliced} {
					got, err := r.RecordBatch(i)
					if err != nil {
						t.Fatal(err)
					}
					checkRecordsEqual(t, want, got)
					if mapped && cmp == arrowipc.Uncompressed {
						checkInMapping(t, path, got.Column(1).(*fixedshape.Array))
					}
					got.Release()
				}
				if _, err := r.RecordBatch(2); !errors.Is(err, arrow.ErrIndex) {
					t.Errorf("record 2: err = %v, want arrow.ErrIndex", err)
				}
			})
		}
	}
}

// checkInMapping checks that the values of arr equal the bytes of the file
// at path at some offset, and that they are not a copy: writing through
// the mapping is impossible, so the check is that the slice's address
// lies outside the Go heap allocations of the checked allocator, which we
// approximate by finding the bytes in the file.
func checkInMapping(t *testing.T, path string, arr *fixedshape.Array) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	vb := arr.ValueBytes()
	if !bytes.Contains(data, vb) {
		t.Errorf("mapped values are not the file's bytes")
	}
}

func TestIPCStreamRoundTrip(t *testing.T) {
	for _, cmp := range []arrowipc.Compression{arrowipc.Uncompressed, arrowipc.LZ4, arrowipc.ZSTD} {
		t.Run(cmp.String(), func(t *testing.T) {
			mem := checkedMem(t)
			rec := testRecord(t, mem, 9, true)
			defer rec.Release()
			batches := []arrow.RecordBatch{rec.NewSlice(0, 3), rec.NewSlice(3, 4), rec.NewSlice(4, 9)}
			defer func() {
				for _, b := range batches {
					b.Release()
				}
			}()
			data := writeIPC(t, false, batches, arrowipc.WithCompression(cmp), arrowipc.WithAllocator(mem))
			r, err := arrowipc.NewIPCStreamReader(bytes.NewReader(data), arrowipc.WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			defer r.Release()
			i := 0
			for r.Next() {
				checkRecordsEqual(t, batches[i], r.RecordBatch())
				i++
			}
			if err := r.Err(); err != nil || i != len(batches) {
				t.Fatalf("read %d batches, err %v", i, err)
			}
		})
	}
}

func TestIPCVectors(t *testing.T) {
	for _, v := range ipcVectors(t) {
		t.Run(v.ID, func(t *testing.T) {
			mem := checkedMem(t)
			typ := v.Type(t)
			rows := [][]float64{make([]float64, typ.ListSize()), make([]float64, typ.ListSize())}
			for k := range rows[0] {
				rows[0][k], rows[1][k] = float64(k), float64(100-k)
			}
			if v.StorageValues != nil {
				rows = nil
			}
			for _, row := range v.StorageValues {
				var phys []float64
				for _, x := range row.([]any) {
					phys = append(phys, x.(float64))
				}
				rows = append(rows, phys)
			}
			arr := columnOf(t, mem, typ, rows)
			defer arr.Release()
			rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "t", Type: typ, Nullable: true}}, nil), []arrow.Array{arr}, int64(arr.Len()))
			defer rec.Release()
			var data []byte
			if md := v.FieldMetadata; md != nil {
				// A plain FixedSizeList field carrying the extension keys,
				// as Arrow C++ writes it.
				var keys, vals []string
				for k, x := range md {
					keys, vals = append(keys, k), append(vals, x)
				}
				f := arrow.Field{Name: "t", Type: elemType(t, v.StorageType), Nullable: true, Metadata: arrow.NewMetadata(keys, vals)}
				st := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{f}, nil), []arrow.Array{arr.Storage()}, int64(arr.Len()))
				defer st.Release()
				data = arrowGoIPC(t, true, []arrow.RecordBatch{st}, ipc.WithAllocator(mem))
			} else {
				data = writeIPC(t, true, []arrow.RecordBatch{rec}, arrowipc.WithAllocator(mem))
			}
			r, err := arrowipc.NewIPCFileReader(bytes.NewReader(data), arrowipc.WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			got, err := r.RecordBatch(0)
			if err != nil {
				t.Fatal(err)
			}
			defer got.Release()
			gt := got.Column(0).(*fixedshape.Array)
			if v.Serialized != nil && gt.TensorType().Serialize() != *v.Serialized {
				t.Errorf("metadata %s, want %s", gt.TensorType().Serialize(), *v.Serialized)
			}
			checkRecordsEqual(t, rec, got)
		})
	}
}

// TestForeignMetadata reads IPC files whose tensor field metadata was
// written the way other implementations write it.
func TestForeignMetadata(t *testing.T) {
	tests := []struct {
		name     string
		json     string
		wantPerm []int
		wantErr  bool
	}{
		{name: "pyarrow identity", json: `{"shape":[2,3],"permutation":[0,1]}`, wantPerm: []int{0, 1}},
		{name: "arrow-cpp", json: `{"shape":[3,2],"permutation":[1,0],"dim_names":["x","y"]}`, wantPerm: []int{1, 0}},
		{name: "arrow-rs plural and nulls", json: `{"shape":[3,2],"permutations":[1,0],"dim_names":null}`, wantPerm: []int{1, 0}},
		{name: "arrow-rs all null", json: `{"shape":[2,3],"permutations":null,"dim_names":null}`},
		{name: "bad permutation", json: `{"shape":[2,3],"permutation":[0,0]}`, wantErr: true},
		{name: "list size mismatch", json: `{"shape":[2,2]}`, wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mem := checkedMem(t)
			typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Int16, metadata.MustNew([]int{6}, nil, nil))
			arr := seqColumn(t, mem, typ, 2, nil)
			defer arr.Release()
			f := arrow.Field{Name: "t", Type: typ.StorageType(), Nullable: true, Metadata: arrow.NewMetadata(
				[]string{arrowconv.ExtensionNameKey, arrowconv.ExtensionMetadataKey}, []string{fixedshape.ExtensionName, tc.json})}
			rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{f}, nil), []arrow.Array{arr.Storage()}, 2)
			defer rec.Release()
			data := arrowGoIPC(t, false, []arrow.RecordBatch{rec}, ipc.WithAllocator(mem))
			r, err := arrowipc.NewIPCStreamReader(bytes.NewReader(data), arrowipc.WithAllocator(mem))
			if tc.wantErr {
				// Invalid metadata: the column opens as its storage
				// with the reason kept.
				if err != nil {
					t.Fatal(err)
				}
				defer r.Release()
				u, ok := fixedshape.UnsupportedOf(r.Schema().Field(0).Type)
				if !ok || !errors.Is(u.Reason(), arrow.ErrInvalid) || u.Serialize() != tc.json {
					t.Fatalf("field type %v, want an Unsupported type keeping %s", r.Schema().Field(0).Type, tc.json)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer r.Release()
			if !r.Next() {
				t.Fatal(r.Err())
			}
			got, ok := r.RecordBatch().Column(0).(*fixedshape.Array)
			if !ok {
				t.Fatalf("column is %T", r.RecordBatch().Column(0))
			}
			if p := got.TensorType().Permutation(); !slices.Equal(p, tc.wantPerm) {
				t.Errorf("permutation %v, want %v", p, tc.wantPerm)
			}
			// The same field restored by TensorRecord (C Data, Parquet
			// without a stored schema).
			tr, err := arrowconv.TensorRecord(rec)
			if err != nil {
				t.Fatal(err)
			}
			defer tr.Release()
			if !fixedshape.Equal(got, tr.Column(0).(*fixedshape.Array)) {
				t.Errorf("TensorRecord gave %v, want %v", tr.Column(0), got)
			}
		})
	}
}

// columnOf returns a column of typ whose tensor i has the physical
// elements rows[i].
func columnOf(t testing.TB, mem memory.Allocator, typ *fixedshape.Type, rows [][]float64) *fixedshape.Array {
	t.Helper()
	arr := seqColumn(t, mem, typ, len(rows), nil)
	b := arr.ValueBytes()
	w := typ.ElemWidth()
	k := 0
	for _, row := range rows {
		for _, x := range row {
			putElem(b[k*w:], typ.ElemType(), x)
			k++
		}
	}
	return arr
}

// TestOpenMissingFile checks that opening a missing file fails with an
// error that wraps fs.ErrNotExist and names the path once.
func TestOpenMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nope.arrow")
	for name, open := range map[string]func(string, ...arrowipc.Option) (*arrowipc.FileReader, error){
		"OpenIPCFile":       arrowipc.OpenIPCFile,
		"OpenMappedIPCFile": arrowipc.OpenMappedIPCFile,
	} {
		t.Run(name, func(t *testing.T) {
			_, err := open(path)
			if !errors.Is(err, fs.ErrNotExist) || !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("err = %v, want fs.ErrNotExist and arrow.ErrInvalid", err)
			}
			if n := strings.Count(err.Error(), path); n != 1 {
				t.Errorf("%q names the path %d times, want 1", err, n)
			}
		})
	}
}
