package fixedshape_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
)

// ipcColumn builds a float32 column of 2x3x4 tensors stored with the
// 3-cycle permutation, named axes, null tensors and a sliced offset.
func ipcColumn(t *testing.T, mem memory.Allocator) *fixedshape.Array {
	t.Helper()
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32,
		metadata.MustNew([]int{2, 3, 4}, []string{"t", "h", "w"}, []int{2, 0, 1}))
	b, err := fixedshape.NewBuilder[float32](mem, typ)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	vals := make([]float32, 24)
	for i := range 7 {
		if i%3 == 1 {
			b.AppendNull()
			continue
		}
		for k := range vals {
			vals[k] = float32(i*100 + k)
		}
		if err := b.Append(vals); err != nil {
			t.Fatal(err)
		}
	}
	full := b.NewArray()
	defer full.Release()
	return array.NewSlice(full, 2, 7).(*fixedshape.Array)
}

// ipcRecord returns a record of ipcColumn as its one nullable column "x".
func ipcRecord(t *testing.T, mem memory.Allocator) arrow.RecordBatch {
	t.Helper()
	col := ipcColumn(t, mem)
	defer col.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: col.DataType(), Nullable: true}}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{col}, int64(col.Len()))
}

func TestIPCRoundTrip(t *testing.T) {
	codecs := []struct {
		name string
		opts []ipc.Option
	}{
		{"none", nil},
		{"lz4", []ipc.Option{ipc.WithLZ4()}},
		{"zstd", []ipc.Option{ipc.WithZstd()}},
	}
	for _, format := range []string{"file", "stream"} {
		for _, c := range codecs {
			t.Run("format="+format+"/codec="+c.name, func(t *testing.T) {
				mem := testvec.CheckedMem(t)
				rec := ipcRecord(t, mem)
				defer rec.Release()
				col, schema := rec.Column(0).(*fixedshape.Array), rec.Schema()

				var buf bytes.Buffer
				opts := append([]ipc.Option{ipc.WithSchema(schema), ipc.WithAllocator(mem)}, c.opts...)
				var w interface {
					Write(arrow.RecordBatch) error
					Close() error
				}
				var err error
				if format == "file" {
					w, err = ipc.NewFileWriter(&buf, opts...)
				} else {
					w = ipc.NewWriter(&buf, opts...)
				}
				if err != nil {
					t.Fatal(err)
				}
				if err := w.Write(rec); err != nil {
					t.Fatal(err)
				}
				if err := w.Close(); err != nil {
					t.Fatal(err)
				}

				got := readBack(t, mem, format, buf.Bytes())
				defer got.Release()
				if !arrow.TypeEqual(got.DataType(), col.DataType()) {
					t.Errorf("type %v, want %v", got.DataType(), col.DataType())
				}
				gotT := got.DataType().(*fixedshape.Type)
				if gotT.Serialize() != col.TensorType().Serialize() {
					t.Errorf("metadata %s, want %s", gotT.Serialize(), col.TensorType().Serialize())
				}
				ga := got.(*fixedshape.Array)
				if !fixedshape.Equal(ga, col) || !array.Equal(ga, col) {
					t.Errorf("values differ:\n%v\n%v", ga, col)
				}
			})
		}
	}
}

// readBack reads the single column of the single record of an IPC file or
// stream and returns it retained.
func readBack(t *testing.T, mem memory.Allocator, format string, data []byte) arrow.Array {
	t.Helper()
	if format == "file" {
		r, err := ipc.NewFileReader(bytes.NewReader(data), ipc.WithAllocator(mem))
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		rec, err := r.RecordBatch(0)
		if err != nil {
			t.Fatal(err)
		}
		col := rec.Column(0)
		col.Retain()
		return col
	}
	r, err := ipc.NewReader(bytes.NewReader(data), ipc.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Release()
	if !r.Next() {
		t.Fatalf("no record: %v", r.Err())
	}
	col := r.RecordBatch().Column(0)
	col.Retain()
	return col
}

// ipcRoundTrip writes rec to an IPC stream allocating from mem and
// returns the first batch read back. The reader, which owns the batch,
// is released when the test ends, before the checks of allocators made
// by testvec.CheckedMem earlier.
func ipcRoundTrip(t *testing.T, mem memory.Allocator, rec arrow.RecordBatch) arrow.RecordBatch {
	t.Helper()
	r, err := ipc.NewReader(bytes.NewReader(ipcStream(t, mem, rec)), ipc.WithAllocator(mem))
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	t.Cleanup(r.Release)
	if !r.Next() {
		t.Fatalf("no batch: %v", r.Err())
	}
	return r.RecordBatch()
}

// ipcStream returns rec written as an IPC stream allocating from mem.
func ipcStream(t *testing.T, mem memory.Allocator, rec arrow.RecordBatch) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(rec.Schema()), ipc.WithAllocator(mem))
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestIPCCorruptMetadata rewrites the extension metadata inside an IPC
// stream (same length, so the framing stays valid) and checks that the
// reader reports an error instead of panicking or guessing.
func TestIPCCorruptMetadata(t *testing.T) {
	mem := testvec.CheckedMem(t)
	rec := ipcRecord(t, mem)
	defer rec.Release()
	stream := ipcStream(t, mem, rec)
	good := []byte(rec.Column(0).(*fixedshape.Array).TensorType().Serialize())
	corrupt := []struct{ name, json string }{
		{"repeated axis", `{"shape":[3,4,2],"permutation":[2,0,0],"dim_names":["h","w","t"]}`},
		{"out of range axis", `{"shape":[3,4,2],"permutation":[2,0,9],"dim_names":["h","w","t"]}`},
		{"list size", `{"shape":[3,4,3],"permutation":[2,0,1],"dim_names":["h","w","t"]}`},
		{"negative", `{"shape":[3,-4,2],"permutation":[2,0,1],"dim_names":["h","w",""]}`},
		{"broken JSON", `{"shape":[3,4,2],"permutation":[2,0,1],"dim_names":["h","w","t"]]`},
		{"names type", `{"shape":[3,4,2],"permutation":[2,0,1],"dim_names":["h","w",123]}`},
	}
	for _, c := range corrupt {
		t.Run(c.name, func(t *testing.T) {
			if len(c.json) != len(good) {
				t.Fatalf("replacement %d bytes, original %d", len(c.json), len(good))
			}
			data := bytes.Replace(stream, good, []byte(c.json), 1)
			if bytes.Equal(data, stream) {
				t.Fatal("metadata not found in the stream")
			}
			// The column opens as its storage, with the metadata kept
			// and the reason why it is no tensor type.
			r, err := ipc.NewReader(bytes.NewReader(data), ipc.WithAllocator(mem))
			if err != nil {
				t.Fatalf("reader refused the file: %v", err)
			}
			defer r.Release()
			u, ok := fixedshape.UnsupportedOf(r.Schema().Field(0).Type)
			if !ok {
				t.Fatalf("field type %v, want an Unsupported type", r.Schema().Field(0).Type)
			}
			if !errors.Is(u.Reason(), arrow.ErrInvalid) {
				t.Errorf("reason %v does not wrap arrow.ErrInvalid", u.Reason())
			}
			if u.Serialize() != c.json {
				t.Errorf("metadata %q, want %q kept", u.Serialize(), c.json)
			}
			if !r.Next() {
				t.Fatalf("no batch: %v", r.Err())
			}
			if _, ok := r.RecordBatch().Column(0).(*fixedshape.UnsupportedArray); !ok {
				t.Errorf("column is %T", r.RecordBatch().Column(0))
			}
		})
	}
}
