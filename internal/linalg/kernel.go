package linalg

import "math"

// float is the element types of the kernels.
type float interface{ float32 | float64 }

// The register tile is mr rows by nr columns, nr chosen with the kernel:
// 16 float32 or 8 float64 (two AVX2 vectors a row), 32 float32 or 16
// float64 with AVX-512. A packed operand is packed for one nr and keeps
// it; the Go kernel takes any.
const (
	mr = 6
	// nrMax is the widest tile, which sizes the scratch tiles.
	nrMax = 32
)

// isF32 reports whether T is float32.
func isF32[T float]() bool {
	var z T
	_, ok := any(z).(float32)
	return ok
}

// tileWidth returns the nr of the fastest kernel for T that may run now.
func tileWidth[T float]() int {
	nr := 8
	if isF32[T]() {
		nr = 16
	}
	if useAsm && useAVX512 {
		nr *= 2
	}
	return nr
}

// micro sets the mr x nr tile at c (row stride ldc elements) to a @ b
// over kc >= 1 steps, plus the tile's own values when acc is set: a holds
// mr rows of kc elements (row stride lda), b kc rows of nr elements, one
// after the other. Each element is one chain of fused multiply-adds, in
// the assembly kernels or the Go one alike.
func micro[T float](a []T, lda int, b []T, nr, kc int, c []T, ldc int, acc bool) {
	if useAsm {
		switch a := any(a).(type) {
		case []float32:
			b, c := any(b).([]float32), any(c).([]float32)
			_, _, _ = a[(mr-1)*lda+kc-1], b[kc*nr-1], c[(mr-1)*ldc+nr-1]
			switch {
			case nr == 16:
				kern6x16F32(&a[0], lda*4, &b[0], nr*4, kc, &c[0], ldc*4, acc)
				return
			case nr == 32 && useAVX512:
				kern6x32F32Z(&a[0], lda*4, &b[0], nr*4, kc, &c[0], ldc*4, acc)
				return
			}
		case []float64:
			b, c := any(b).([]float64), any(c).([]float64)
			_, _, _ = a[(mr-1)*lda+kc-1], b[kc*nr-1], c[(mr-1)*ldc+nr-1]
			switch {
			case nr == 8:
				kern6x8F64(&a[0], lda*8, &b[0], nr*8, kc, &c[0], ldc*8, acc)
				return
			case nr == 16 && useAVX512:
				kern6x16F64Z(&a[0], lda*8, &b[0], nr*8, kc, &c[0], ldc*8, acc)
				return
			}
		}
	}
	microGo(a, lda, b, nr, kc, c, ldc, acc)
}

// microGo is micro in Go.
func microGo[T float](a []T, lda int, b []T, nr, kc int, c []T, ldc int, acc bool) {
	var t [mr * nrMax]T
	if acc {
		for i := range mr {
			copy(t[i*nr:i*nr+nr], c[i*ldc:])
		}
	}
	for p := range kc {
		bp := b[p*nr : p*nr+nr]
		for i := range mr {
			x := a[i*lda+p]
			ti := t[i*nr : i*nr+nr]
			ti = ti[:len(bp)]
			for j, y := range bp {
				ti[j] = fma(x, y, ti[j])
			}
		}
	}
	for i := range mr {
		copy(c[i*ldc:i*ldc+nr], t[i*nr:])
	}
}

// fma returns x*y + z rounded once for float64. For float32 the product
// is exact in float64 and the sum is rounded to float64 and then to
// float32, which gives the bits of a float32 fused multiply-add except
// when the float64 sum falls exactly halfway between two float32 values
// without being exact (a double rounding; rare in practice).
func fma[T float](x, y, z T) T {
	return T(math.FMA(float64(x), float64(y), float64(z)))
}
