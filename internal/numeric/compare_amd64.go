//go:build !purego

package numeric

import "unsafe"

// Implemented in compare_amd64.s: each compares n elements, a multiple
// of 32, n > 0, writing 1 or 0 bytes to d.
//
//go:noescape
func cmpLTF32x32(d, a, b unsafe.Pointer, n int)

//go:noescape
func cmpLEF32x32(d, a, b unsafe.Pointer, n int)

//go:noescape
func cmpGTF32x32(d, a, b unsafe.Pointer, n int)

//go:noescape
func cmpGEF32x32(d, a, b unsafe.Pointer, n int)

//go:noescape
func cmpEQF32x32(d, a, b unsafe.Pointer, n int)

//go:noescape
func cmpNEF32x32(d, a, b unsafe.Pointer, n int)

var compareKernels = [...]func(d, a, b unsafe.Pointer, n int){
	CmpLT: cmpLTF32x32, CmpLE: cmpLEF32x32, CmpGT: cmpGTF32x32,
	CmpGE: cmpGEF32x32, CmpEQ: cmpEQF32x32, CmpNE: cmpNEF32x32,
}

// compareF32 compares the longest prefix of a multiple of 32 elements
// with the AVX2 kernels and returns its length (0 without AVX2).
func compareF32(c Cmp, d []uint8, a, b []float32) int {
	n := len(d) &^ 31
	if !useAVX2 || n == 0 || int(c) >= len(compareKernels) {
		return 0
	}
	compareKernels[c](unsafe.Pointer(&d[0]), unsafe.Pointer(&a[0]), unsafe.Pointer(&b[0]), n)
	return n
}
