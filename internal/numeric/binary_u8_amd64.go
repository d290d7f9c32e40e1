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
