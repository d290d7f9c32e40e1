//go:build !purego

package numeric

import "unsafe"

// Implemented in exp_amd64.s.
//
//go:noescape
func expF32x8(d, a unsafe.Pointer, n int)

// expF32 runs expF32x8 over the leading len(d)&^7 elements and returns
// their number (0 without AVX2 and FMA).
func expF32(d, a []float32) int {
	n := len(d) &^ 7
	if !useAVX2 || !useFMA || n == 0 {
		return 0
	}
	expF32x8(unsafe.Pointer(&d[0]), unsafe.Pointer(&a[0]), n)
	return n
}
