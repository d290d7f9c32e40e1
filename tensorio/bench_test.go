package tensorio_test

import (
	"fmt"
	"io"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/arrowipc"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/tensorio"
)

// BenchmarkRead reads a 16 MiB IPC file of float32 64x64 tensors (16
// batches of 64) through tensorio and through arrowipc's own loop; the
// copy baseline copies the same bytes once.
func BenchmarkRead(b *testing.B) {
	const batches, rows = 16, 64
	m := metadata.MustNew([]int{64, 64}, nil, nil)
	size := batches * rows * m.Size() * 4
	path := filepath.Join(b.TempDir(), "b.arrow")
	a := tensors(&testing.T{}, m, rows, 0, nil)
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
	rec.Release()
	a.Release()
	for _, mapped := range []bool{false, true} {
		name := fmt.Sprintf("format=arrow/mmap=%v", mapped)
		b.Run(name+"/impl=tensorio", func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			var opts []tensorio.Option
			if mapped {
				opts = append(opts, tensorio.WithMmap())
			}
			for b.Loop() {
				if err := testvec.Drain(tensorio.Open(path, opts...)); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/impl=arrowipc", func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			open := arrowipc.OpenIPCFile
			if mapped {
				open = arrowipc.OpenMappedIPCFile
			}
			for b.Loop() {
				if err := testvec.ReadEveryBatch(open(path)); err != nil {
					b.Fatal(err)
				}
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

// BenchmarkWrite writes 16 batches of 64 float32 64x64 tensors (16 MiB)
// to io.Discard through Writer.Write, which validates each batch before
// arrow-go's writers see it; the copy baseline copies the same bytes once.
func BenchmarkWrite(b *testing.B) {
	const batches, rows = 16, 64
	m := metadata.MustNew([]int{64, 64}, nil, nil)
	size := batches * rows * m.Size() * 4
	a := tensors(&testing.T{}, m, rows, 0, nil)
	defer a.Release()
	rec := batch(a)
	defer rec.Release()
	for _, f := range []tensorio.Format{tensorio.IPCStream, tensorio.IPCFile} {
		b.Run(fmt.Sprintf("format=%s/impl=tensorio", f), func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				w, err := tensorio.NewWriter(io.Discard, rec.Schema(), tensorio.WithFormat(f))
				if err != nil {
					b.Fatal(err)
				}
				for range batches {
					if err := w.Write(rec); err != nil {
						b.Fatal(err)
					}
				}
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
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
