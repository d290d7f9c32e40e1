package tensorio_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/tensorio"
)

// BenchmarkDatasetScan reads 64 MiB of float32 64x64 tensors (16 batches
// of 256 rows, uncompressed Parquet) as a directory of 16 files, one batch
// each, and as one file of the same 16 batches, with 1 and 2 workers; the
// copy baseline copies the same bytes once.
func BenchmarkDatasetScan(b *testing.B) {
	const files, rows = 16, 256
	m := metadata.MustNew([]int{64, 64}, nil, nil)
	size := files * rows * m.Size() * 4
	a := tensors(&testing.T{}, m, rows, 0, nil)
	rec := batch(a)
	dir := b.TempDir()
	for _, d := range []string{"files", "one"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			b.Fatal(err)
		}
	}
	recs := make([]arrow.RecordBatch, files)
	for i := range recs {
		recs[i] = rec
		w, err := tensorio.Create(filepath.Join(dir, "files", fmt.Sprintf("part-%05d.parquet", i)), rec.Schema())
		if err != nil {
			b.Fatal(err)
		}
		testvec.WriteAll(b, w, rec)
	}
	one := filepath.Join(dir, "one", "all.parquet")
	w, err := tensorio.Create(one, rec.Schema())
	if err != nil {
		b.Fatal(err)
	}
	testvec.WriteAll(b, w, recs...)
	rec.Release()
	a.Release()
	for _, src := range []string{"dir16", "file1"} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("source=%s/workers=%d", src, workers), func(b *testing.B) {
				path := filepath.Join(dir, "files")
				if src == "file1" {
					path = filepath.Join(dir, "one")
				}
				b.SetBytes(int64(size))
				b.ReportAllocs()
				for b.Loop() {
					if err := testvec.Drain(tensorio.OpenDataset([]string{path}, tensorio.WithWorkers(workers))); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
	b.Run("impl=copy", func(b *testing.B) {
		src, dst := make([]byte, size), make([]byte, size)
		b.SetBytes(int64(size))
		b.ReportAllocs()
		for b.Loop() {
			copy(dst, src)
		}
	})
}
