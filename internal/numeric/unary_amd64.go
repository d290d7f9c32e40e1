//go:build !purego

package numeric

import "unsafe"

// Implemented in unary_amd64.s: n elements, a multiple of 8, n > 0.
//
//go:noescape
func sqrtF32x8(d, a unsafe.Pointer, n int)

//go:noescape
func absF32x8(d, a unsafe.Pointer, n int)

//go:noescape
func negF32x8(d, a unsafe.Pointer, n int)

//go:noescape
func squareF32x8(d, a unsafe.Pointer, n int)

//go:noescape
func floorF32x8(d, a unsafe.Pointer, n int)

//go:noescape
func ceilF32x8(d, a unsafe.Pointer, n int)

//go:noescape
func roundF32x8(d, a unsafe.Pointer, n int)

var unaryF32Kernels = [...]func(d, a unsafe.Pointer, n int){
	F32Sqrt: sqrtF32x8, F32Abs: absF32x8, F32Neg: negF32x8, F32Square: squareF32x8,
	F32Floor: floorF32x8, F32Ceil: ceilF32x8, F32Round: roundF32x8,
}

// unaryF32 runs the longest prefix of a multiple of 8 elements through
// the AVX2 kernels and returns its length (0 without AVX2).
func unaryF32(op F32Op, d, a []float32) int {
	n := len(d) &^ 7
	if !useAVX2 || n == 0 || int(op) >= len(unaryF32Kernels) {
		return 0
	}
	unaryF32Kernels[op](unsafe.Pointer(&d[0]), unsafe.Pointer(&a[0]), n)
	return n
}
