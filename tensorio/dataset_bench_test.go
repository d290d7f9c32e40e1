package tensorio_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/tensorio"
)

// datasetFiles writes the files of the dataset benchmarks under a new
// directory: dir16 holds 16 Parquet files of one batch of 256 float32
// 64x64 tensors (16 KiB a row), one/all.parquet the same 16 batches in one
// file. It returns the directory and the bytes of the tensors.
func datasetFiles(b *testing.B) (string, int) {
	const files, rows = 16, 256
	m := metadata.MustNew([]int{64, 64}, nil, nil)
	a := tensors(&testing.T{}, m, rows, 0, nil)
	defer a.Release()
	rec := batch(a)
	defer rec.Release()
	dir := b.TempDir()
	for _, d := range []string{"dir16", "one"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			b.Fatal(err)
		}
	}
	recs := make([]arrow.RecordBatch, files)
	for i := range recs {
		recs[i] = rec
		w, err := tensorio.Create(filepath.Join(dir, "dir16", fmt.Sprintf("part-%05d.parquet", i)), rec.Schema())
		if err != nil {
			b.Fatal(err)
		}
		testvec.WriteAll(b, w, rec)
	}
	w, err := tensorio.Create(filepath.Join(dir, "one", "all.parquet"), rec.Schema())
	if err != nil {
		b.Fatal(err)
	}
	testvec.WriteAll(b, w, recs...)
	return dir, files * rows * m.Size() * 4
}

// BenchmarkDatasetTake takes 64 random rows (1 MiB) of the 4,096 of
// datasetFiles, from the 16 files and from the one file; the copy
// baseline copies the rows' bytes once.
func BenchmarkDatasetTake(b *testing.B) {
	dir, size := datasetFiles(b)
	rowBytes := size / 4096
	rng := rand.New(rand.NewPCG(1, 2))
	rows := make([]int64, 64)
	for i := range rows {
		rows[i] = rng.Int64N(4096)
	}
	for _, src := range []string{"dir16", "one"} {
		b.Run("source="+src, func(b *testing.B) {
			d, err := tensorio.NewDataset([]string{filepath.Join(dir, src)})
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(rows) * rowBytes))
			b.ReportAllocs()
			for b.Loop() {
				rec, err := d.Take(rows)
				if err != nil {
					b.Fatal(err)
				}
				rec.Release()
			}
		})
	}
	b.Run("impl=copy", func(b *testing.B) {
		src, dst := make([]byte, len(rows)*rowBytes), make([]byte, len(rows)*rowBytes)
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			copy(dst, src)
		}
	})
}

// BenchmarkDatasetScan reads 64 MiB of float32 64x64 tensors (16 batches
// of 256 rows, uncompressed Parquet) as one file of the 16 batches and
// as a directory of 16 files of one batch each, with 1 and 2 workers;
// the two sources of a worker count sit side by side (same bytes), so
// that their ratio reads off one run, and the copy baseline copies the
// same bytes once. mode=copy decodes every chunk into memory
// (WithoutZeroCopy); mode=view, the default, hands the chunks out where
// they lie in the mapped files, so it measures opening the files and
// checking their levels, not moving the bytes.
func BenchmarkDatasetScan(b *testing.B) {
	dir, size := datasetFiles(b)
	for _, mode := range []string{"copy", "view"} {
		for _, workers := range []int{1, 2} {
			for _, src := range []string{"file1", "dir16"} {
				b.Run(fmt.Sprintf("mode=%s/workers=%d/source=%s", mode, workers, src), func(b *testing.B) {
					path := filepath.Join(dir, "dir16")
					if src == "file1" {
						path = filepath.Join(dir, "one")
					}
					opts := []tensorio.Option{tensorio.WithWorkers(workers)}
					if mode == "copy" {
						opts = append(opts, tensorio.WithoutZeroCopy())
					}
					b.SetBytes(int64(size))
					b.ReportAllocs()
					for b.Loop() {
						if err := testvec.Drain(tensorio.OpenDataset([]string{path}, opts...)); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
	b.Run("impl=copy", func(b *testing.B) {
		src, dst := make([]byte, size), make([]byte, size)
		copy(dst, src) // fault the pages in
		b.SetBytes(int64(size))
		b.ReportAllocs()
		for b.Loop() {
			copy(dst, src)
		}
	})
}
