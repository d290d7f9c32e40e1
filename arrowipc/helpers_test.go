package arrowipc_test

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"

	"github.com/fstensor/fstensor/arrowipc"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
)

// Shared test helpers (internal/testvec).
var (
	checkedMem = testvec.CheckedMem
	seqColumn  = testvec.SeqColumn
	putElem    = testvec.PutElem

	testRecord        = testvec.Record
	checkRecordsEqual = testvec.CheckRecordsEqual
	exampleRecord     = testvec.ExampleRecord
	elemType          = testvec.MustDataType
)

// ipcVector is an "ipc_roundtrip" case of
// testdata/arrow_fixed_shape_tensor.json, with the fields TestIPCVectors
// reads.
type ipcVector struct {
	testvec.TypeSpec
	ID            string            `json:"id"`
	StorageType   string            `json:"storage_type"`
	StorageValues []any             `json:"storage_values"`
	FieldMetadata map[string]string `json:"field_metadata"`
	Serialized    *string           `json:"serialized"`
}

// ipcVectors returns the "ipc_roundtrip" cases.
func ipcVectors(t testing.TB) []ipcVector {
	t.Helper()
	return testvec.Vectors[ipcVector](t, "ipc_roundtrip")
}

// writeIPC writes recs, which share a schema, with this package's IPC
// file or stream writer and opts and returns the bytes.
func writeIPC(t testing.TB, file bool, recs []arrow.RecordBatch, opts ...arrowipc.Option) []byte {
	t.Helper()
	var buf bytes.Buffer
	newW := arrowipc.NewIPCStreamWriter
	if file {
		newW = arrowipc.NewIPCFileWriter
	}
	w, err := newW(&buf, recs[0].Schema(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	testvec.WriteAll(t, w, recs...)
	return buf.Bytes()
}

// arrowGoIPC writes recs, which share a schema, with arrow-go's own IPC
// file or stream writer, which copies invalid data as it is, and returns
// the bytes. The writer takes ipc.WithSchema of recs[0], then opts.
func arrowGoIPC(t testing.TB, file bool, recs []arrow.RecordBatch, opts ...ipc.Option) []byte {
	t.Helper()
	var buf bytes.Buffer
	opts = append([]ipc.Option{ipc.WithSchema(recs[0].Schema())}, opts...)
	var w testvec.BatchWriter
	if file {
		fw, err := ipc.NewFileWriter(&buf, opts...)
		if err != nil {
			t.Fatal(err)
		}
		w = fw
	} else {
		w = ipc.NewWriter(&buf, opts...)
	}
	testvec.WriteAll(t, w, recs...)
	return buf.Bytes()
}
