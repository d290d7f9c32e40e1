package npy_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/codec/internal/codectest"
	"github.com/fstensor/fstensor/codec/npy"
	"github.com/fstensor/fstensor/fixedshape"
)

// npzBenchSizes are the column shapes of the archive benchmarks: 16 KiB
// and 16 MiB of float32 (deflate makes 256 MiB too slow to iterate).
var npzBenchSizes = [][]int{{64, 8, 8}, {1024, 64, 64}}

// BenchmarkNPZ writes and reads a one-column archive, stored and
// deflated: op=write into a reused bytes.Buffer, op=read from a
// bytes.Reader into fresh Arrow memory. impl=copy is copy() of the same
// bytes into reused memory, the floor of a stored archive.
func BenchmarkNPZ(b *testing.B) {
	for _, shape := range npzBenchSizes {
		a := codectest.Float32Column(b, shape, nil)
		size := len(a.ValueBytes())
		name := "/dtype=float32/shape=" + codectest.ShapeName(shape)
		cols := []*fixedshape.Array{a}
		for _, method := range []string{"stored", "deflated"} {
			opts := []npy.WriteOption{npy.WithCompression(deflate(method == "deflated"))}
			var buf bytes.Buffer
			if err := npy.WriteNPZ(&buf, []string{"x"}, cols, opts...); err != nil {
				b.Fatal(err)
			}
			archive := bytes.Clone(buf.Bytes())
			b.Run("op=write/impl=npz-"+method+name, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(size))
				for b.Loop() {
					buf.Reset()
					if err := npy.WriteNPZ(&buf, []string{"x"}, cols, opts...); err != nil {
						b.Fatal(err)
					}
				}
			})
			mem := memory.NewGoAllocator()
			b.Run("op=read/impl=npz-"+method+name, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(size))
				for b.Loop() {
					_, got, err := npy.ReadNPZ(bytes.NewReader(archive), int64(len(archive)), npy.WithAllocator(mem))
					if err != nil {
						b.Fatal(err)
					}
					release(got)
				}
			})
		}
		b.Run("op=read/impl=copy"+name, func(b *testing.B) {
			codectest.BenchCopy(b, a.ValueBytes())
		})
		a.Release()
	}
}

// BenchmarkMap opens a .npy file: op=map is MapColumn (mmap, header
// parse, a view; the data pages are not touched), op=read is ReadColumn
// from the open file, impl=copy is copy() of the data bytes into reused
// memory.
func BenchmarkMap(b *testing.B) {
	dir := b.TempDir()
	for _, shape := range benchSizes {
		a := codectest.Float32Column(b, shape, nil)
		size := len(a.ValueBytes())
		path := filepath.Join(dir, codectest.ShapeName(shape)+".npy")
		f, err := os.Create(path)
		if err != nil {
			b.Fatal(err)
		}
		if err := npy.WriteColumn(f, a); err != nil {
			b.Fatal(err)
		}
		f.Close()
		name := "/dtype=float32/shape=" + codectest.ShapeName(shape)
		b.Run("op=map/impl=npy"+name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(size))
			for b.Loop() {
				c, closer, err := npy.MapColumn(path)
				if err != nil {
					b.Fatal(err)
				}
				c.Release()
				closer.Close()
			}
		})
		b.Run("op=read/impl=npy"+name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(size))
			for b.Loop() {
				f, err := os.Open(path)
				if err != nil {
					b.Fatal(err)
				}
				c, err := npy.ReadColumn(f)
				f.Close()
				if err != nil {
					b.Fatal(err)
				}
				c.Release()
			}
		})
		b.Run("op=read/impl=copy"+name, func(b *testing.B) {
			codectest.BenchCopy(b, a.ValueBytes())
		})
		a.Release()
	}
}
