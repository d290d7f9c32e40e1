package numeric_test

import (
	"testing"
	"unsafe"

	"github.com/fstensor/fstensor/internal/numeric"
)

// Benchmarks of the reduction kernels over 64 MiB of float32, in runs of
// 4096 elements (a 64x64 tensor each), beside copy() of the same bytes.
func BenchmarkKernels(b *testing.B) {
	x := make([]float32, 16<<20)
	for i := range x {
		x[i] = float32(i%1000) / 1000
	}
	const run = 4096
	bytes := int64(len(x) * 4)
	b.Run("op=sum/impl=numeric", func(b *testing.B) {
		b.SetBytes(bytes)
		b.ReportAllocs()
		var s float64
		for b.Loop() {
			for q := 0; q < len(x); q += run {
				s += numeric.SumF32(x[q : q+run])
			}
		}
	})
	y := unsafe.Slice((*float64)(unsafe.Pointer(&x[0])), len(x)/2)
	b.Run("op=sum64/impl=numeric", func(b *testing.B) {
		b.SetBytes(bytes)
		b.ReportAllocs()
		var s float64
		for b.Loop() {
			for q := 0; q < len(y); q += run {
				s += numeric.SumF64(y[q : q+run])
			}
		}
	})
	b.Run("op=max/impl=numeric", func(b *testing.B) {
		b.SetBytes(bytes)
		b.ReportAllocs()
		var s float32
		for b.Loop() {
			for q := 0; q < len(x); q += run {
				s = max(s, numeric.MaxF32(x[q:q+run]))
			}
		}
	})
	b.Run("op=sumsq/impl=numeric", func(b *testing.B) {
		b.SetBytes(bytes)
		b.ReportAllocs()
		var s float64
		for b.Loop() {
			for q := 0; q < len(x); q += 256 {
				s += numeric.SumSqF32(x[q : q+256])
			}
		}
	})
	b.Run("op=rows/impl=numeric", func(b *testing.B) {
		b.SetBytes(bytes)
		b.ReportAllocs()
		acc := make([]float64, 64)
		for b.Loop() {
			for q := 0; q < len(x); q += run {
				numeric.AccRowsF32(acc, x[q:q+run], 64, 64)
			}
		}
	})
	b.Run("op=copy/impl=copy", func(b *testing.B) {
		b.SetBytes(bytes)
		b.ReportAllocs()
		dst := make([]byte, bytes)
		src := unsafe.Slice((*byte)(unsafe.Pointer(&x[0])), bytes)
		for b.Loop() {
			copy(dst, src)
		}
	})
}
