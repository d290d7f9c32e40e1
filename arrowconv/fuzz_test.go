package arrowconv_test

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/arrowconv"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/validate"
)

// streamSeed returns an IPC stream of a small tensor record.
func streamSeed(f *testing.F, cmp arrowconv.Compression) []byte {
	mem := memory.NewGoAllocator()
	rec := testRecord(f, mem, 3, true)
	defer rec.Release()
	var buf bytes.Buffer
	w, err := arrowconv.NewIPCStreamWriter(&buf, rec.Schema(), arrowconv.WithCompression(cmp))
	if err != nil {
		f.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		f.Fatal(err)
	}
	if err := w.Close(); err != nil {
		f.Fatal(err)
	}
	return buf.Bytes()
}

// checkHandedOut checks a batch a reader handed out: valid in full
// (internal/validate), its tensor columns valid, and written back by
// arrowconv's IPC writer without an error or a panic.
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
	w, err := arrowconv.NewIPCStreamWriter(io.Discard, rec.Schema())
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
	f.Add(streamSeed(f, arrowconv.Uncompressed))
	f.Add(streamSeed(f, arrowconv.ZSTD))
	for _, b := range corruptSeeds(f, false) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := arrowconv.NewIPCStreamReader(bytes.NewReader(data), arrowconv.WithBodySizeLimit(1<<20))
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
func fileSeed(f *testing.F, cmp arrowconv.Compression) []byte {
	mem := memory.NewGoAllocator()
	rec := testRecord(f, mem, 3, true)
	defer rec.Release()
	var buf bytes.Buffer
	w, err := arrowconv.NewIPCFileWriter(&buf, rec.Schema(), arrowconv.WithCompression(cmp))
	if err != nil {
		f.Fatal(err)
	}
	for range 2 {
		if err := w.Write(rec); err != nil {
			f.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		f.Fatal(err)
	}
	return buf.Bytes()
}

// FuzzIPCFile feeds arbitrary bytes to the IPC file reader: it must
// return errors wrapping arrow.ErrInvalid, never panic, and every batch
// it hands out must pass checkHandedOut.
func FuzzIPCFile(f *testing.F) {
	f.Add(fileSeed(f, arrowconv.Uncompressed))
	for _, b := range corruptSeeds(f, true) {
		f.Add(b)
	}
	f.Add(fileSeed(f, arrowconv.ZSTD))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := arrowconv.NewIPCFileReader(bytes.NewReader(data), arrowconv.WithBodySizeLimit(1<<20))
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

// FuzzFromTensor builds tensors with arbitrary shapes and byte strides
// over a small buffer: FromTensor must refuse or convert without
// panicking, and a conversion must read back the source's elements.
func FuzzFromTensor(f *testing.F) {
	f.Add([]byte{2, 3, 4}, []byte{48, 16, 4}, false)
	f.Add([]byte{2, 2, 3, 4}, []byte{96, 4, 32, 8}, false)
	f.Add([]byte{3, 2, 2}, []byte{0, 4, 8}, true)
	f.Fuzz(func(t *testing.T, shapeB, strideB []byte, copyIt bool) {
		if len(shapeB) > 6 || len(strideB) > 6 {
			return
		}
		shape := make([]int, len(shapeB))
		for i, b := range shapeB {
			shape[i] = int(b % 8)
		}
		strides := make([]int, len(strideB))
		for i, b := range strideB {
			strides[i] = int(int8(b)) * 4
		}
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		src := newTensor(t, mem, arrow.PrimitiveTypes.Int32, 64, shape, strides, nil)
		defer src.Release()
		opts := []arrowconv.Option{arrowconv.WithAllocator(mem)}
		if copyIt {
			opts = append(opts, arrowconv.WithCopy())
		}
		got, err := arrowconv.FromTensor(src, opts...)
		if err != nil {
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("error does not wrap arrow.ErrInvalid: %v", err)
			}
			return
		}
		defer got.Release()
		if got.Len() == 0 {
			return
		}
		back, err := arrowconv.ToTensor(got)
		if err != nil {
			t.Fatal(err)
		}
		defer back.Release()
		for _, idx := range indices(shape) {
			if g, w := tensorAt(back, idx), tensorAt(src, idx); g != w {
				t.Fatalf("shape %v strides %v: element %v = %v, want %v", shape, strides, idx, g, w)
			}
		}
	})
}
