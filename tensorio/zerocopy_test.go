package tensorio_test

import (
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/tensorio"
)

// TestParquetZeroCopy reads an uncompressed Parquet file that Create
// wrote: by default its tensor column points into the mapped file (the
// allocator holds nothing for it), with WithoutZeroCopy it is copied
// into memory from the allocator; both hold the values written, read
// by Open and by OpenDataset.
func TestParquetZeroCopy(t *testing.T) {
	m := metadata.MustNew([]int{8, 8}, nil, nil)
	a := tensors(t, m, 100, 0, nil)
	defer a.Release()
	rec := batch(a)
	defer rec.Release()
	path := filepath.Join(t.TempDir(), "t.parquet")
	w, err := tensorio.Create(path, rec.Schema())
	if err != nil {
		t.Fatal(err)
	}
	testvec.WriteAll(t, w, rec)
	if !testvec.Leases(t, path) {
		t.Skip("no read lease on the file: Parquet files are then copied")
	}
	for _, dataset := range []bool{false, true} {
		for _, copyAll := range []bool{false, true} {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			opts := []tensorio.Option{tensorio.WithAllocator(mem)}
			if copyAll {
				opts = append(opts, tensorio.WithoutZeroCopy())
			}
			var r *tensorio.Reader
			var err error
			if dataset {
				r, err = tensorio.OpenDataset([]string{path}, opts...)
			} else {
				r, err = tensorio.Open(path, opts...)
			}
			if err != nil {
				t.Fatal(err)
			}
			if !r.Next() {
				t.Fatalf("no batch: %v", r.Err())
			}
			got := r.RecordBatch()
			held := mem.CurrentAlloc()
			if copyAll && held < len(a.ValueBytes()) || !copyAll && held != 0 {
				t.Errorf("dataset %v, WithoutZeroCopy %v: the allocator holds %d bytes for %d bytes of values", dataset, copyAll, held, len(a.ValueBytes()))
			}
			testvec.CheckRecordsEqual(t, rec, got)
			r.Release()
			mem.AssertSize(t, 0)
		}
	}
}
