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

// Implemented in compare_amd64.s: each compares n bytes (unsigned), a
// multiple of 32, n > 0, writing 1 or 0 bytes to d.
//
//go:noescape
func cmpLTU8x32(d, a, b unsafe.Pointer, n int)

//go:noescape
func cmpLEU8x32(d, a, b unsafe.Pointer, n int)

//go:noescape
func cmpGTU8x32(d, a, b unsafe.Pointer, n int)

//go:noescape
func cmpGEU8x32(d, a, b unsafe.Pointer, n int)

//go:noescape
func cmpEQU8x32(d, a, b unsafe.Pointer, n int)

//go:noescape
func cmpNEU8x32(d, a, b unsafe.Pointer, n int)

var compareU8Kernels = [...]func(d, a, b unsafe.Pointer, n int){
	CmpLT: cmpLTU8x32, CmpLE: cmpLEU8x32, CmpGT: cmpGTU8x32,
	CmpGE: cmpGEU8x32, CmpEQ: cmpEQU8x32, CmpNE: cmpNEU8x32,
}

// compareU8 is compareF32 for bytes.
func compareU8(c Cmp, d, a, b []uint8) int {
	n := len(d) &^ 31
	if !useAVX2 || n == 0 || int(c) >= len(compareU8Kernels) {
		return 0
	}
	compareU8Kernels[c](unsafe.Pointer(&d[0]), unsafe.Pointer(&a[0]), unsafe.Pointer(&b[0]), n)
	return n
}

// Implemented in compare_amd64.s: n elements of 1, 2, 4 or 8 bytes, a
// multiple of 32, 16, 8 or 4, n > 0.
//
//go:noescape
func selectU8x32(d, c, a, b unsafe.Pointer, n int)

//go:noescape
func selectW16x16(d, c, a, b unsafe.Pointer, n int)

//go:noescape
func selectW32x8(d, c, a, b unsafe.Pointer, n int)

//go:noescape
func selectW64x4(d, c, a, b unsafe.Pointer, n int)

// selectN selects the longest prefix of a whole number of 32 bytes with
// the AVX2 kernel of T's size and returns its length in elements (0
// without AVX2).
func selectN[T Number](d []T, c []uint8, a, b []T) int {
	var zero T
	size := int(unsafe.Sizeof(zero))
	n := len(d) &^ (32/size - 1)
	if !useAVX2 || n == 0 {
		return 0
	}
	kernel := selectU8x32
	switch size {
	case 2:
		kernel = selectW16x16
	case 4:
		kernel = selectW32x8
	case 8:
		kernel = selectW64x4
	}
	kernel(unsafe.Pointer(&d[0]), unsafe.Pointer(&c[0]), unsafe.Pointer(&a[0]), unsafe.Pointer(&b[0]), n)
	return n
}
