package linalg

import "math"

// float is the element types of the kernels.
type float interface{ float32 | float64 }

// The register tile is mr rows by nr[T] columns: 6 x 16 for float32
// (two 8-lane vectors a row) and 6 x 8 for float64.
const (
	mr    = 6
	nrF32 = 16
	nrF64 = 8
	// nrMax is the widest tile, which sizes the scratch tiles.
	nrMax = nrF32
)

// nrOf returns the tile width for T.
func nrOf[T float]() int {
	var z T
	if _, ok := any(z).(float32); ok {
		return nrF32
	}
	return nrF64
}

// micro sets the mr x nr tile at c (row stride ldc elements) to a @ b
// over kc >= 1 steps, plus the tile's own values when acc is set: a holds
// mr rows of kc elements (row stride lda), b kc rows of nr elements (row
// stride ldb). Each element is one chain of fused multiply-adds, in the
// assembly kernel or the Go one alike.
func micro[T float](a []T, lda int, b []T, ldb, kc int, c []T, ldc int, acc bool) {
	if useAsm {
		switch a := any(a).(type) {
		case []float32:
			b, c := any(b).([]float32), any(c).([]float32)
			_, _, _ = a[(mr-1)*lda+kc-1], b[(kc-1)*ldb+nrF32-1], c[(mr-1)*ldc+nrF32-1]
			kern6x16F32(&a[0], lda*4, &b[0], ldb*4, kc, &c[0], ldc*4, acc)
			return
		case []float64:
			b, c := any(b).([]float64), any(c).([]float64)
			_, _, _ = a[(mr-1)*lda+kc-1], b[(kc-1)*ldb+nrF64-1], c[(mr-1)*ldc+nrF64-1]
			kern6x8F64(&a[0], lda*8, &b[0], ldb*8, kc, &c[0], ldc*8, acc)
			return
		}
	}
	microGo(a, lda, b, ldb, kc, c, ldc, acc, nrOf[T]())
}

// microGo is micro in Go, for a tile nr wide.
func microGo[T float](a []T, lda int, b []T, ldb, kc int, c []T, ldc int, acc bool, nr int) {
	var t [mr * nrMax]T
	if acc {
		for i := range mr {
			copy(t[i*nr:i*nr+nr], c[i*ldc:])
		}
	}
	for p := range kc {
		bp := b[p*ldb : p*ldb+nr]
		for i := range mr {
			x := a[i*lda+p]
			ti := t[i*nr : i*nr+nr]
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
