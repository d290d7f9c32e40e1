//go:build !purego

package numeric

import "unsafe"

// divToF32x4 is DivToF32 over n elements, a multiple of 4, n > 0.
//
//go:noescape
func divToF32x4(d, v unsafe.Pointer, n int, c float64)

// divToF32 runs divToF32x4 over the leading len(d)&^3 elements and
// returns their number (0 without AVX2).
func divToF32(d []float32, v []float64, c float64) int {
	n := len(d) &^ 3
	if !useAVX2 || n == 0 {
		return 0
	}
	divToF32x4(unsafe.Pointer(&d[0]), unsafe.Pointer(&v[0]), n, c)
	return n
}
