package tensorio_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/tensorio"
)

// BenchmarkTake takes 1,000 random rows of an IPC file of 100,000 float32
// tensors of 768 elements (100 batches of 1,000 rows, 293 MiB) and of
// Parquet files of the same rows (row groups of 21,845 rows), uncompressed
// and with zstd and snappy, in pages of 1 MiB (341 rows, the default) and
// 16 KiB (5 rows); the copy baseline copies the bytes returned once.
func BenchmarkTake(b *testing.B) {
	const batches, batchRows, take = 100, 1000, 1000
	m := metadata.MustNew([]int{768}, nil, nil)
	size := take * m.Size() * 4
	path := filepath.Join(b.TempDir(), "take.arrow")
	a := tensors(&testing.T{}, m, batchRows, 0, nil)
	rec := batch(a)
	recs := make([]arrow.RecordBatch, batches)
	for i := range recs {
		recs[i] = rec
	}
	w, err := tensorio.Create(path, rec.Schema())
	if err != nil {
		b.Fatal(err)
	}
	testvec.WriteAll(b, w, recs...)
	type pqCase struct {
		name  string
		codec tensorio.Compression
		page  int
	}
	pqCases := []pqCase{
		{"codec=none/page=chunk", tensorio.Uncompressed, 0},
		{"codec=none/page=1MiB", tensorio.Uncompressed, 1 << 20},
		{"codec=none/page=16KiB", tensorio.Uncompressed, 16 << 10},
		{"codec=zstd/page=1MiB", tensorio.ZSTD, 1 << 20},
		{"codec=zstd/page=16KiB", tensorio.ZSTD, 16 << 10},
		{"codec=snappy/page=16KiB", tensorio.Snappy, 16 << 10},
	}
	pqPath := func(c pqCase) string {
		return filepath.Join(filepath.Dir(path), strings.ReplaceAll(c.name, "/", "_")+".parquet")
	}
	for _, c := range pqCases {
		opts := []tensorio.Option{tensorio.WithCompression(c.codec)}
		if c.page > 0 { // else the default: one page per uncompressed chunk
			opts = append(opts, tensorio.WithPageBytes(c.page))
		}
		w, err := tensorio.Create(pqPath(c), rec.Schema(), opts...)
		if err != nil {
			b.Fatal(err)
		}
		testvec.WriteAll(b, w, recs...)
	}
	rec.Release()
	a.Release()
	rng := rand.New(rand.NewPCG(1, 2))
	rows := make([]int64, take)
	for i := range rows {
		rows[i] = rng.Int64N(batches * batchRows)
	}
	b.Run("format=arrow/rows=1000", func(b *testing.B) {
		b.SetBytes(int64(size))
		b.ReportAllocs()
		for b.Loop() {
			out, err := tensorio.Take(path, rows)
			if err != nil {
				b.Fatal(err)
			}
			out.Release()
		}
	})
	for _, c := range pqCases {
		b.Run("format=parquet/"+c.name+"/rows=1000", func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				out, err := tensorio.Take(pqPath(c), rows)
				if err != nil {
					b.Fatal(err)
				}
				out.Release()
			}
		})
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

// BenchmarkTakeFiles is fstensor's side of bench/peers/take_peers.sh: it
// takes the rows of $FSTENSOR_TAKE_DIR/ids.npy (a 1-D int64 array) from
// every fstensor_*.arrow and fstensor_*.parquet file of that directory,
// one sub-benchmark a file; the copy baseline copies the bytes returned.
// It skips without the variable.
func BenchmarkTakeFiles(b *testing.B) {
	dir := os.Getenv("FSTENSOR_TAKE_DIR")
	if dir == "" {
		b.Skip("FSTENSOR_TAKE_DIR not set: run bench/peers/take_peers.sh")
	}
	r, err := tensorio.Open(filepath.Join(dir, "ids.npy"), tensorio.WithSingleTensor())
	if err != nil {
		b.Fatal(err)
	}
	if !r.Next() {
		b.Fatalf("ids.npy: no rows: %v", r.Err())
	}
	ids, err := fixedshape.ColumnOf[int64](r.RecordBatch().Column(0).(*fixedshape.Array))
	if err != nil {
		b.Fatal(err)
	}
	rows := ids.Tensor(0).AppendLogical(nil)
	r.Release()
	files, err := filepath.Glob(filepath.Join(dir, "fstensor_*"))
	if err != nil || len(files) == 0 {
		b.Fatalf("no fstensor_* files in %s: %v", dir, err)
	}
	var size int64
	for _, f := range files {
		b.Run("file="+strings.TrimPrefix(filepath.Base(f), "fstensor_"), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				out, err := tensorio.Take(f, rows)
				if err != nil {
					b.Fatal(err)
				}
				size = int64(len(out.Column(0).(*fixedshape.Array).ValueBytes()))
				out.Release()
			}
			b.SetBytes(size)
		})
	}
	b.Run("impl=copy", func(b *testing.B) {
		src, dst := make([]byte, size), make([]byte, size)
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			copy(dst, src)
		}
	})
}
