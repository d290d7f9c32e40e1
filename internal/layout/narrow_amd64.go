//go:build !purego

package layout

import "unsafe"

// narrow8AVX2 is NarrowInt32To8 for len(dst) a multiple of 32, 32 values
// a step. Implemented in narrow_amd64.s.
func narrow8AVX2(dst, src []byte, bias uint32) bool {
	return narrow8x32(unsafe.Pointer(unsafe.SliceData(dst)), unsafe.Pointer(unsafe.SliceData(src)), len(dst)/32, bias)
}

// narrow16AVX2 is NarrowInt32To16 for len(dst)/2 a multiple of 16, 16
// values a step. Implemented in narrow_amd64.s.
func narrow16AVX2(dst, src []byte, bias uint32) bool {
	return narrow16x16(unsafe.Pointer(unsafe.SliceData(dst)), unsafe.Pointer(unsafe.SliceData(src)), len(dst)/32, bias)
}

//go:noescape
func narrow8x32(dst, src unsafe.Pointer, steps int, bias uint32) bool

//go:noescape
func narrow16x16(dst, src unsafe.Pointer, steps int, bias uint32) bool
