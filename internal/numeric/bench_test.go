package numeric_test

import (
	"testing"
	"unsafe"

	"github.com/fstensor/fstensor/internal/numeric"
)

// Benchmarks of the reduction kernels over 64 MiB of float32, in runs of
// 4096 elements (a 64x64 tensor each), beside copy() of the same bytes.
func BenchmarkKernels(b *testing.B) {
	x := benchInput()
	const run = 4096
	bytes := int64(len(x) * 4)
	// runs benchmarks f over the n elements from 0 in steps of step.
	runs := func(name string, n, step int, f func(q int)) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(bytes)
			b.ReportAllocs()
			for b.Loop() {
				for q := 0; q < n; q += step {
					f(q)
				}
			}
		})
	}
	var s, s64 float64
	var m float32
	runs("op=sum/impl=numeric", len(x), run, func(q int) { s += numeric.SumF32(x[q : q+run]) })
	y := unsafe.Slice((*float64)(unsafe.Pointer(&x[0])), len(x)/2)
	runs("op=sum64/impl=numeric", len(y), run, func(q int) { s64 += numeric.SumF64(y[q : q+run]) })
	runs("op=max/impl=numeric", len(x), run, func(q int) { m = max(m, numeric.MaxF32(x[q:q+run])) })
	runs("op=sumsq/impl=numeric", len(x), 256, func(q int) { s += numeric.SumSqF32(x[q : q+256]) })
	acc := make([]float64, 64)
	runs("op=rows/impl=numeric", len(x), run, func(q int) { numeric.AccRowsF32(acc, x[q:q+run], 64, 64) })
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

// benchInput returns the 64 MiB of float32 the benchmarks read: 16Mi
// values of i%1000 / 1000.
func benchInput() []float32 {
	x := make([]float32, 16<<20)
	for i := range x {
		x[i] = float32(i%1000) / 1000
	}
	return x
}

// BenchmarkElementwise times the element-wise kernels writing 16 MiB
// (bytes: the output) from a separate 16 MiB (uint8 multiplication and
// where: two, where also a mask), on the SIMD path and
// the Go loops, beside copy() of the same bytes.
func BenchmarkElementwise(b *testing.B) {
	const size = 16 << 20
	x := make([]float32, size/4)
	for i := range x {
		x[i] = float32(i%1000)/100 - 5
	}
	d := make([]float32, len(x))
	type kernel struct {
		name string
		run  func()
	}
	var kernels []kernel
	for _, op := range []struct {
		name string
		op   numeric.F32Op
	}{
		{"sqrt", numeric.F32Sqrt}, {"abs", numeric.F32Abs}, {"neg", numeric.F32Neg},
		{"square", numeric.F32Square}, {"floor", numeric.F32Floor}, {"ceil", numeric.F32Ceil},
		{"round", numeric.F32Round},
	} {
		kernels = append(kernels, kernel{"op=" + op.name + "/dtype=float32", func() { numeric.UnaryF32(op.op, d, x) }})
	}
	u, v, du := make([]uint8, size), make([]uint8, size), make([]uint8, size)
	for i := range u {
		u[i], v[i] = uint8(i*7), 2
	}
	kernels = append(kernels, kernel{"op=mul/dtype=uint8", func() { numeric.BinaryInt(numeric.U8Mul, du, u, v) }})
	y := make([]float32, len(x))
	c := make([]uint8, 2*len(x)) // one per int16
	for i := range c {
		c[i] = uint8(i % 3 & 1)
	}
	kernels = append(kernels, kernel{"op=where/dtype=float32", func() { numeric.Select(d, c, x, y) }})
	x64, y64, d64 := asF64(x), asF64(y), asF64(d)
	kernels = append(kernels, kernel{"op=where/dtype=float64", func() { numeric.Select(d64, c, x64, y64) }})
	x16, y16, d16 := asI16(x), asI16(y), asI16(d)
	kernels = append(kernels, kernel{"op=where/dtype=int16", func() { numeric.Select(d16, c, x16, y16) }})
	for _, k := range kernels {
		for _, path := range []string{"simd", "go"} {
			b.Run(k.name+"/path="+path, func(b *testing.B) {
				if path == "go" {
					defer numeric.SetAVX2(false)()
				}
				b.SetBytes(size)
				b.ReportAllocs()
				for b.Loop() {
					k.run()
				}
			})
		}
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

// asF64 and asI16 view x's bytes as float64 or int16.
func asF64(x []float32) []float64 { return unsafe.Slice((*float64)(unsafe.Pointer(&x[0])), len(x)/2) }
func asI16(x []float32) []int16   { return unsafe.Slice((*int16)(unsafe.Pointer(&x[0])), len(x)*2) }
