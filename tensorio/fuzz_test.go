package tensorio_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/tensorio"
)

// FuzzOpen opens arbitrary bytes as a file of every format with the
// reader's options and reads it to the end: no panic, no leak.
func FuzzOpen(f *testing.F) {
	a := tensors(&testing.T{}, metadata.MustNew([]int{2, 3}, nil, []int{1, 0}), 3, 1, []bool{true, false, true})
	rec := batch(a)
	for i, format := range tensorio.Formats() {
		var buf bytes.Buffer
		w, err := tensorio.NewWriter(&buf, rec.Schema(), tensorio.WithFormat(format), tensorio.WithFillNulls(0))
		if err != nil { // WithFillNulls is for .npy and .npz only
			w, err = tensorio.NewWriter(&buf, rec.Schema(), tensorio.WithFormat(format))
		}
		if err != nil {
			f.Fatal(err)
		}
		if err := w.Write(rec); err != nil {
			f.Fatal(err)
		}
		if err := w.Close(); err != nil {
			continue // a format without nulls
		}
		f.Add(uint8(i), buf.Bytes(), int64(1), int64(2), 1)
	}
	rec.Release()
	a.Release()
	f.Fuzz(func(t *testing.T, format uint8, data []byte, offset, limit int64, batchRows int) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		ft := tensorio.Formats()[int(format)%len(tensorio.Formats())]
		path := filepath.Join(t.TempDir(), "f")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		r, err := tensorio.Open(path, tensorio.WithFormat(ft), tensorio.WithAllocator(mem), tensorio.WithOffset(offset), tensorio.WithLimit(limit), tensorio.WithBatchRows(batchRows%8))
		if err != nil {
			return
		}
		defer r.Release()
		var rows int64
		for r.Next() {
			rec := r.RecordBatch()
			rows += rec.NumRows()
			if rec.NumRows() == 0 || batchRows%8 > 0 && rec.NumRows() > int64(batchRows%8) {
				t.Errorf("a batch of %d rows with WithBatchRows(%d)", rec.NumRows(), batchRows%8)
			}
			if !rec.Schema().Equal(r.Schema()) {
				t.Errorf("batch schema %v, reader schema %v", rec.Schema(), r.Schema())
			}
			_ = arrow.RecordBatch(rec)
		}
		if limit >= 0 && rows > limit {
			t.Errorf("%d rows with WithLimit(%d)", rows, limit)
		}
	})
}
