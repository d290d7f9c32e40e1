//go:build !purego

package numeric

import "unsafe"

// Implemented in recip_amd64.s.
//
//go:noescape
func recipF32x8(d, a unsafe.Pointer, n int, r float64, nt bool) (tiny bool)

//go:noescape
func recipF32x8PF(d, a unsafe.Pointer, n int, r float64, pf unsafe.Pointer, lines int) (tiny bool)

// divScalarPF runs recipF32x8PF over the leading len(d)&^7 elements,
// prefetching pf's whole lines, and returns their number, or 0 (nothing
// done, nothing prefetched) without AVX2, when d is not 32-byte aligned
// or when a result fell below 2^-125 (the lines are then prefetched).
func divScalarPF(d, a []float32, c float32, pf []byte) int {
	n := len(d) &^ 7
	if !useAVX2 || n == 0 || !aligned32(d) {
		return 0
	}
	var p unsafe.Pointer
	if len(pf) >= 64 {
		p = unsafe.Pointer(&pf[0])
	}
	if recipF32x8PF(unsafe.Pointer(&d[0]), unsafe.Pointer(&a[0]), n, 1/float64(c), p, len(pf)/64) {
		return 0
	}
	return n
}

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
