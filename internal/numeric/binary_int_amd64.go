//go:build !purego

package numeric

import "unsafe"

// Implemented in binary_int_amd64.s: n bytes, a multiple of 32, n > 0.
//
//go:noescape
func addU8x32(d, a, b unsafe.Pointer, n int)

//go:noescape
func subU8x32(d, a, b unsafe.Pointer, n int)

//go:noescape
func minU8x32(d, a, b unsafe.Pointer, n int)

//go:noescape
func maxU8x32(d, a, b unsafe.Pointer, n int)

//go:noescape
func andU8x32(d, a, b unsafe.Pointer, n int)

//go:noescape
func orU8x32(d, a, b unsafe.Pointer, n int)

//go:noescape
func xorU8x32(d, a, b unsafe.Pointer, n int)

//go:noescape
func mulU8x32(d, a, b unsafe.Pointer, n int)

//go:noescape
func minI8x32(d, a, b unsafe.Pointer, n int)

//go:noescape
func maxI8x32(d, a, b unsafe.Pointer, n int)

//go:noescape
func addI16x32(d, a, b unsafe.Pointer, n int)

//go:noescape
func subI16x32(d, a, b unsafe.Pointer, n int)

//go:noescape
func mulI16x32(d, a, b unsafe.Pointer, n int)

//go:noescape
func minI16x32(d, a, b unsafe.Pointer, n int)

//go:noescape
func maxI16x32(d, a, b unsafe.Pointer, n int)

//go:noescape
func minU16x32(d, a, b unsafe.Pointer, n int)

//go:noescape
func maxU16x32(d, a, b unsafe.Pointer, n int)

//go:noescape
func addI32x32(d, a, b unsafe.Pointer, n int)

//go:noescape
func subI32x32(d, a, b unsafe.Pointer, n int)

//go:noescape
func mulI32x32(d, a, b unsafe.Pointer, n int)

//go:noescape
func minI32x32(d, a, b unsafe.Pointer, n int)

//go:noescape
func maxI32x32(d, a, b unsafe.Pointer, n int)

//go:noescape
func minU32x32(d, a, b unsafe.Pointer, n int)

//go:noescape
func maxU32x32(d, a, b unsafe.Pointer, n int)

type intKernels [U8Mul + 1]func(d, a, b unsafe.Pointer, n int)

// The kernels by width and signedness; the bitwise ones are the bytes'.
var (
	i8Kernels  = intKernels{U8Add: addU8x32, U8Sub: subU8x32, U8Min: minI8x32, U8Max: maxI8x32, U8And: andU8x32, U8Or: orU8x32, U8Xor: xorU8x32, U8Mul: mulU8x32}
	i16Kernels = intKernels{U8Add: addI16x32, U8Sub: subI16x32, U8Min: minI16x32, U8Max: maxI16x32, U8And: andU8x32, U8Or: orU8x32, U8Xor: xorU8x32, U8Mul: mulI16x32}
	u16Kernels = intKernels{U8Add: addI16x32, U8Sub: subI16x32, U8Min: minU16x32, U8Max: maxU16x32, U8And: andU8x32, U8Or: orU8x32, U8Xor: xorU8x32, U8Mul: mulI16x32}
	i32Kernels = intKernels{U8Add: addI32x32, U8Sub: subI32x32, U8Min: minI32x32, U8Max: maxI32x32, U8And: andU8x32, U8Or: orU8x32, U8Xor: xorU8x32, U8Mul: mulI32x32}
	u32Kernels = intKernels{U8Add: addI32x32, U8Sub: subI32x32, U8Min: minU32x32, U8Max: maxU32x32, U8And: andU8x32, U8Or: orU8x32, U8Xor: xorU8x32, U8Mul: mulI32x32}
	u8Kernels  = intKernels{U8Add: addU8x32, U8Sub: subU8x32, U8Min: minU8x32, U8Max: maxU8x32, U8And: andU8x32, U8Or: orU8x32, U8Xor: xorU8x32, U8Mul: mulU8x32}
)

// binaryInt runs the longest prefix of a multiple of 32 bytes through the
// AVX2 kernel of op for elements of width bytes and returns its length
// in elements (0 without AVX2, for 64-bit elements, or an unknown op).
func binaryInt[T Int](op U8Op, width uintptr, signed bool, d, a, b []T) int {
	var k *intKernels
	switch {
	case width == 1 && signed:
		k = &i8Kernels
	case width == 1:
		k = &u8Kernels
	case width == 2 && signed:
		k = &i16Kernels
	case width == 2:
		k = &u16Kernels
	case width == 4 && signed:
		k = &i32Kernels
	case width == 4:
		k = &u32Kernels
	}
	per := 32 / int(width)
	n := len(d) / per * per
	if !useAVX2 || k == nil || n == 0 || int(op) >= len(k) {
		return 0
	}
	k[op](unsafe.Pointer(&d[0]), unsafe.Pointer(&a[0]), unsafe.Pointer(&b[0]), n*int(width))
	return n
}
