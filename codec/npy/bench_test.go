package npy_test

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/codec/internal/codectest"
	"github.com/fstensor/fstensor/codec/npy"
	"github.com/fstensor/fstensor/fixedshape"
)

// benchSizes are the column shapes (batch axis first) of the benchmarks:
// 16 KiB, and 256 MiB of float32 (the size the issue names).
var benchSizes = [][]int{{64, 8, 8}, {4096, 128, 128}}

// BenchmarkWrite writes a column with WriteColumn into a reused
// bytes.Buffer: C order is one Write of the array's buffer (one copy, into
// the bytes.Buffer), big-endian and permuted layouts go through the 64
// KiB chunk buffer. impl=copy is copy() of the same bytes.
func BenchmarkWrite(b *testing.B) {
	for _, shape := range benchSizes {
		a := codectest.Float32Column(b, shape, nil)
		size := len(a.ValueBytes())
		var buf bytes.Buffer
		buf.Grow(size + 1024)
		name := "/dtype=float32/shape=" + codectest.ShapeName(shape)
		b.Run("op=write/impl=npy"+name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(size))
			for b.Loop() {
				buf.Reset()
				if err := npy.WriteColumn(&buf, a); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("op=write/impl=copy"+name, func(b *testing.B) {
			codectest.BenchCopy(b, a.ValueBytes())
		})
		b.Run("op=write-big-endian/impl=npy"+name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(size))
			for b.Loop() {
				buf.Reset()
				if err := npy.WriteColumn(&buf, a, npy.WithBigEndian(true)); err != nil {
					b.Fatal(err)
				}
			}
		})
		a.Release()
		// Transposed tensors are gathered element by element to C order.
		p := codectest.Float32Column(b, shape, []int{1, 0})
		b.Run("op=write-transposed/impl=npy"+name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(size))
			for b.Loop() {
				buf.Reset()
				if err := npy.WriteColumn(&buf, p); err != nil {
					b.Fatal(err)
				}
			}
		})
		p.Release()
	}
}

// BenchmarkRead reads a .npy column: op=decode is DecodeColumn over the
// file's bytes (a zero-copy view, as over a memory-mapped file), op=read
// is ReadColumn from a bytes.Reader (one copy into Arrow memory),
// op=read-big-endian adds the byte swap, op=read-fortran the transpose of
// a Fortran-order file. impl=copy is copy() of the same bytes into reused
// memory, impl=make-copy into freshly allocated memory, as a read must.
func BenchmarkRead(b *testing.B) {
	for _, shape := range benchSizes {
		a := codectest.Float32Column(b, shape, nil)
		size := len(a.ValueBytes())
		var little, big bytes.Buffer
		if err := npy.WriteColumn(&little, a); err != nil {
			b.Fatal(err)
		}
		if err := npy.WriteColumn(&big, a, npy.WithBigEndian(true)); err != nil {
			b.Fatal(err)
		}
		a.Release()
		// A Fortran-order file of the same shape and data.
		fortran, err := npy.AppendHeader(nil, npy.Header{Type: arrow.PrimitiveTypes.Float32, Shape: shape, FortranOrder: true})
		if err != nil {
			b.Fatal(err)
		}
		fortran = append(fortran, little.Bytes()[little.Len()-size:]...)
		name := "/dtype=float32/shape=" + codectest.ShapeName(shape)
		mem := memory.NewGoAllocator()
		runs := []struct {
			op   string
			file []byte
			fn   func([]byte) (*fixedshape.Array, error)
		}{
			{"decode", little.Bytes(), func(f []byte) (*fixedshape.Array, error) { return npy.DecodeColumn(f, npy.WithAllocator(mem)) }},
			{"read", little.Bytes(), func(f []byte) (*fixedshape.Array, error) {
				return npy.ReadColumn(bytes.NewReader(f), npy.WithAllocator(mem))
			}},
			{"read-big-endian", big.Bytes(), func(f []byte) (*fixedshape.Array, error) {
				return npy.ReadColumn(bytes.NewReader(f), npy.WithAllocator(mem))
			}},
			{"read-fortran", fortran, func(f []byte) (*fixedshape.Array, error) {
				return npy.ReadColumn(bytes.NewReader(f), npy.WithAllocator(mem))
			}},
		}
		for _, r := range runs {
			b.Run("op="+r.op+"/impl=npy"+name, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(size))
				for b.Loop() {
					c, err := r.fn(r.file)
					if err != nil {
						b.Fatal(err)
					}
					c.Release()
				}
			})
		}
		// What op=read cannot avoid: fresh memory for the column, then the
		// copy into it.
		b.Run("op=read/impl=make-copy"+name, func(b *testing.B) {
			src := little.Bytes()[little.Len()-size:]
			b.ReportAllocs()
			b.SetBytes(int64(size))
			for b.Loop() {
				dst := make([]byte, size)
				copy(dst, src)
			}
		})
		b.Run("op=read/impl=copy"+name, func(b *testing.B) {
			codectest.BenchCopy(b, little.Bytes()[len(little.Bytes())-size:])
		})
	}
}
