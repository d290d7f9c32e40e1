//go:build !purego

package layout

import "unsafe"

// The uint8 image kernels of image_amd64.s: groups steps of 32 pixels,
// planes plane bytes apart, non-temporal stores with nt (32-byte aligned
// planes or interleaved destination).

//go:noescape
func interleave3u8(dst, src unsafe.Pointer, groups, plane int, nt bool)

//go:noescape
func deinterleave3u8(dst, src unsafe.Pointer, groups, plane int, nt bool)

//go:noescape
func interleave4u8(dst, src unsafe.Pointer, groups, plane int, nt bool)

//go:noescape
func deinterleave4u8(dst, src unsafe.Pointer, groups, plane int, nt bool)

// interleaveU8 writes pixels [0, n&^31) of c (3 or 4) planes of 1-byte
// elements, plane bytes apart from src, to dst as interleaved pixels
// (CHW -> HWC) with the AVX2 kernels, and returns the number written (0
// without AVX2). With stream, a 32-byte aligned dst takes non-temporal
// stores.
func interleaveU8(dst, src unsafe.Pointer, n, c, plane int, stream bool) int {
	if !useAVX2 || n < 32 {
		return 0
	}
	nt := stream && uintptr(dst)%32 == 0
	if c == 3 {
		interleave3u8(dst, src, n/32, plane, nt)
	} else {
		interleave4u8(dst, src, n/32, plane, nt)
	}
	return n &^ 31
}

// deinterleaveU8 splits pixels [0, n&^31) of c (3 or 4) interleaved
// channels of 1-byte elements at src into c planes plane bytes apart from
// dst (HWC -> CHW) with the AVX2 kernels, and returns the number split (0
// without AVX2). With stream, 32-byte aligned planes take non-temporal
// stores.
func deinterleaveU8(dst, src unsafe.Pointer, n, c, plane int, stream bool) int {
	if !useAVX2 || n < 32 {
		return 0
	}
	nt := stream && (uintptr(dst)|uintptr(plane))%32 == 0
	if c == 3 {
		deinterleave3u8(dst, src, n/32, plane, nt)
	} else {
		deinterleave4u8(dst, src, n/32, plane, nt)
	}
	return n &^ 31
}
