package parquetconv_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/parquetconv"
)

// FuzzReader feeds arbitrary bytes to the reader under small limits: it
// must return errors wrapping arrow.ErrInvalid, never panic, hand out
// only valid tensor columns, and leave nothing allocated. Seeds: small
// files of the writer (plain, v2 with zstd and null tensors, byte stream
// split with snappy), plus testdata/fuzz/FuzzReader (pyarrow files with
// dictionary pages).
func FuzzReader(f *testing.F) {
	rec := testRecord(f, memory.NewGoAllocator(), 4, true)
	defer rec.Release()
	for _, opts := range [][]parquetconv.Option{
		nil,
		{parquetconv.WithDataPageV2(), parquetconv.WithCompression(parquetconv.ZSTD), parquetconv.WithRowGroupRows(2)},
		{parquetconv.WithByteStreamSplit(), parquetconv.WithCompression(parquetconv.Snappy)},
	} {
		f.Add(writeFile(f, rec.Schema(), []arrow.RecordBatch{rec}, opts...))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		err := readAll(mem, data, parquetconv.WithMaxPageBytes(1<<20), parquetconv.WithMaxChunkBytes(1<<20), parquetconv.WithWorkers(2), parquetconv.WithBatchRows(3))
		if err != nil && !errors.Is(err, arrow.ErrInvalid) {
			t.Fatalf("error does not wrap arrow.ErrInvalid: %v", err)
		}
	})
}

// TestReadSeedsUnchanged keeps the fuzz seeds readable.
func TestReadFuzzSeeds(t *testing.T) {
	rec := testRecord(t, memory.NewGoAllocator(), 4, true)
	defer rec.Release()
	mem := checkedMem(t)
	if err := readAll(mem, writeFile(t, rec.Schema(), []arrow.RecordBatch{rec}), parquetconv.WithMaxChunkBytes(16<<20)); err != nil {
		t.Fatal(err)
	}
	_ = bytes.MinRead
}
