package parquetconv_test

import (
	"bytes"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/parquetconv"
)

// rangesReader is a source that prefetches several ranges at once, as
// object storage does: it records the calls of PrefetchRanges and every
// read made after the first.
type rangesReader struct {
	*bytes.Reader
	mu    sync.Mutex
	calls [][][2]int64
	after [][2]int64 // reads after the first PrefetchRanges
}

func (r *rangesReader) ReadAt(p []byte, off int64) (int, error) {
	r.mu.Lock()
	if len(r.calls) > 0 {
		r.after = append(r.after, [2]int64{off, int64(len(p))})
	}
	r.mu.Unlock()
	return r.Reader.ReadAt(p, off)
}

func (r *rangesReader) Prefetch(off, n int64) error { return nil }

func (r *rangesReader) PrefetchRanges(ranges [][2]int64) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, append([][2]int64(nil), ranges...))
	return nil
}

// covered reports whether [off, off+n) lies inside one of ranges.
func covered(ranges [][][2]int64, off, n int64) bool {
	for _, call := range ranges {
		for _, r := range call {
			if off >= r[0] && off+n <= r[0]+r[1] {
				return true
			}
		}
	}
	return false
}

// TestTakePrefetchesRanges takes rows of 9 of the 10 row groups of a
// file with a page index from a source that prefetches several ranges at
// once: the page indexes of the tensor column are asked in one call, the
// pages holding the rows in one more, the int64 column's chunks in a
// third, and every read after the first call lies in a range asked.
func TestTakePrefetchesRanges(t *testing.T) {
	mem := checkedMem(t)
	rec := buildRecord(t, mem, 20_000, colSpec{"emb", arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{64}, nil, nil), nil})
	defer rec.Release()
	data := writeFile(t, rec.Schema(), []arrow.RecordBatch{rec}, parquetconv.WithAllocator(mem), parquetconv.WithRowGroupRows(2_000), parquetconv.WithPageBytes(4<<10))
	rows := []int64{19_999, 5, 17, 3_000, 5_999, 12_345, 12_000, 7_999, 9_000, 11_000, 15_000, 17_500, 5, 6}
	src := &rangesReader{Reader: bytes.NewReader(data)}
	got, err := parquetconv.Take(src, int64(len(data)), rows, parquetconv.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	defer got.Release()
	for i, r := range rows {
		w, g := sliceRecord(rec, int(r), int(r)+1), sliceRecord(got, i, i+1)
		checkRecordsEqual(t, w, g)
		w.Release()
		g.Release()
	}
	tensorCols := 1
	if want := 2*tensorCols + int(rec.NumCols()) - tensorCols; len(src.calls) != want {
		t.Errorf("%d calls of PrefetchRanges, want %d (page indexes and pages of each tensor column, chunks of the others)", len(src.calls), want)
	}
	for i, call := range src.calls {
		if len(call) < 9 {
			t.Errorf("call %d asks %d ranges, want one or more for each of the 9 row groups", i, len(call))
		}
	}
	for _, r := range src.after {
		if !covered(src.calls, r[0], r[1]) {
			t.Errorf("read of %d bytes at %d lies in no range asked", r[1], r[0])
		}
	}
}
