//go:build !purego

package numeric

import "unsafe"

// Implemented in binary_u8_amd64.s: n bytes, a multiple of 32, n > 0.
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

var binaryU8Kernels = [...]func(d, a, b unsafe.Pointer, n int){
	U8Add: addU8x32, U8Sub: subU8x32, U8Min: minU8x32, U8Max: maxU8x32,
	U8And: andU8x32, U8Or: orU8x32, U8Xor: xorU8x32, U8Mul: mulU8x32,
}

// binaryU8 runs the longest prefix of a multiple of 32 bytes through the
// AVX2 kernels and returns its length (0 without AVX2).
func binaryU8(op U8Op, d, a, b []uint8) int {
	n := len(d) &^ 31
	if !useAVX2 || n == 0 || int(op) >= len(binaryU8Kernels) {
		return 0
	}
	binaryU8Kernels[op](unsafe.Pointer(&d[0]), unsafe.Pointer(&a[0]), unsafe.Pointer(&b[0]), n)
	return n
}
