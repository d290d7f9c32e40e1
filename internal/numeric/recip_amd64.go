//go:build !purego

package numeric

import "unsafe"

// Implemented in recip_amd64.s.
//
//go:noescape
func recipF32x8(d, a unsafe.Pointer, n int, r float64, nt bool) (tiny bool)

// divScalarF32 runs recipF32x8 over the leading len(d)&^7 elements and
// returns their number, or 0 (nothing done) without AVX2 or when a
// result fell below 2^-125: the caller then divides them.
func divScalarF32(d, a []float32, c float32, stream bool) int {
	n := len(d) &^ 7
	if !useAVX2 || n == 0 {
		return 0
	}
	if recipF32x8(unsafe.Pointer(&d[0]), unsafe.Pointer(&a[0]), n, 1/float64(c), stream && aligned32(d)) {
		return 0
	}
	return n
}
