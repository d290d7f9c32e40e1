package arrowipc_test

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/arrowipc"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/validate"
)

// streamSeed returns an IPC stream of a small tensor record.
func streamSeed(f *testing.F, cmp arrowipc.Compression) []byte {
	mem := memory.NewGoAllocator()
	rec := testRecord(f, mem, 3, true)
	defer rec.Release()
	return encodeIPC(f, rec, false, cmp)
}

// checkHandedOut checks a batch a reader handed out: valid in full
// (internal/validate), its tensor columns valid, and written back by
// arrowipc's IPC writer without an error or a panic.
func checkHandedOut(t *testing.T, rec arrow.RecordBatch) {
	t.Helper()
	if err := validate.Record(rec); err != nil {
		t.Fatalf("reader handed out an invalid batch: %v", err)
	}
	for _, c := range rec.Columns() {
		if a, ok := c.(*fixedshape.Array); ok {
			if err := a.Validate(); err != nil {
				t.Fatalf("reader handed out an invalid column: %v", err)
			}
			_ = a.ValueBytes()
		}
	}
	w, err := arrowipc.NewIPCStreamWriter(io.Discard, rec.Schema())
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatalf("writing back a batch the reader handed out: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatalf("writing back a batch the reader handed out: %v", err)
	}
}

// FuzzIPCStream feeds arbitrary bytes to the IPC stream reader: it must
// return errors, never panic, and every batch it hands out must be valid
// in full and written back without error (checkHandedOut). The corpus
// holds structurally valid but semantically invalid streams (string
// offsets past their data or decreasing, invalid UTF-8).
func FuzzIPCStream(f *testing.F) {
	f.Add(streamSeed(f, arrowipc.Uncompressed))
	f.Add(streamSeed(f, arrowipc.ZSTD))
	for _, b := range corruptSeeds(f, false) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := arrowipc.NewIPCStreamReader(bytes.NewReader(data), arrowipc.WithBodySizeLimit(1<<20))
		if err != nil {
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("error does not wrap arrow.ErrInvalid: %v", err)
			}
			return
		}
		defer r.Release()
		for r.Next() {
			checkHandedOut(t, r.RecordBatch())
		}
		if err := r.Err(); err != nil && !errors.Is(err, arrow.ErrInvalid) {
			t.Fatalf("error does not wrap arrow.ErrInvalid: %v", err)
		}
	})
}

// fileSeed returns an IPC file of a small tensor record.
func fileSeed(f *testing.F, cmp arrowipc.Compression) []byte {
	mem := memory.NewGoAllocator()
	rec := testRecord(f, mem, 3, true)
	defer rec.Release()
	return writeIPC(f, true, []arrow.RecordBatch{rec, rec}, arrowipc.WithCompression(cmp))
}

// FuzzIPCFile feeds arbitrary bytes to the IPC file reader: it must
// return errors wrapping arrow.ErrInvalid, never panic, and every batch
// it hands out must pass checkHandedOut.
func FuzzIPCFile(f *testing.F) {
	f.Add(fileSeed(f, arrowipc.Uncompressed))
	for _, b := range corruptSeeds(f, true) {
		f.Add(b)
	}
	f.Add(fileSeed(f, arrowipc.ZSTD))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := arrowipc.NewIPCFileReader(bytes.NewReader(data), arrowipc.WithBodySizeLimit(1<<20))
		if err != nil {
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("error does not wrap arrow.ErrInvalid: %v", err)
			}
			return
		}
		defer r.Close()
		for i := range r.NumRecords() {
			rec, err := r.RecordBatch(i)
			if err != nil {
				if !errors.Is(err, arrow.ErrInvalid) {
					t.Fatalf("record batch %d: error does not wrap arrow.ErrInvalid: %v", i, err)
				}
				continue
			}
			checkHandedOut(t, rec)
			rec.Release()
		}
	})
}
