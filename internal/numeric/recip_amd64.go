//go:build !purego

package numeric

import "unsafe"

// Implemented in recip_amd64.s.
//
//go:noescape
func recipF32x8(d, a unsafe.Pointer, n int, r float64, nt bool) (tiny bool)

//go:noescape
func recipF32x8PF(d, a unsafe.Pointer, n int, r float64, pf unsafe.Pointer, lines int) (tiny bool)

//go:noescape
func divF32x16PF(d, a unsafe.Pointer, n int, c float32, pf unsafe.Pointer, lines int)

// divScalarPF divides the leading elements of a into d, prefetching pf's
// whole lines, and returns their number, or 0 (nothing done, nothing
// prefetched). With AVX-512 and d 64-byte aligned, divF32x16PF divides
// the leading len(d)&^15 (VDIVPS on 16 lanes outruns the reciprocal
// there: 0.84-0.98x copy() against 0.74-0.85x for a normalization of
// 200,000 x 768 float32, interleaved runs on one Intel core); otherwise
// recipF32x8PF the leading len(d)&^7, or none without AVX2, when d is not
// 32-byte aligned or when a result fell below 2^-125 (the lines are then
// prefetched).
func divScalarPF(d, a []float32, c float32, pf []byte) int {
	if n := len(d) &^ 15; useAVX2 && useAVX512 && n > 0 && uintptr(unsafe.Pointer(&d[0]))&63 == 0 {
		var p unsafe.Pointer
		if len(pf) >= 64 {
			p = unsafe.Pointer(&pf[0])
		}
		divF32x16PF(unsafe.Pointer(&d[0]), unsafe.Pointer(&a[0]), n, c, p, len(pf)/64)
		return n
	}
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
