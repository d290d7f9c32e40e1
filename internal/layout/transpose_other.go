//go:build !amd64 || purego

package layout

import "unsafe"

// transposeBlocks copies nothing in the pure-Go build.
func transposeBlocks(w int, dst, src unsafe.Pointer, a, b, dstRow, sb int, stream bool) (int, int) {
	return 0, 0
}

// deinterleave3 splits nothing in the pure-Go build.
func deinterleave3(dst, src unsafe.Pointer, n, dstRow int, stream bool) int {
	return 0
}

// interleaveU8 writes nothing in the pure-Go build.
func interleaveU8(dst, src unsafe.Pointer, n, c, plane int, stream bool) int { return 0 }

// deinterleaveU8 splits nothing in the pure-Go build.
func deinterleaveU8(dst, src unsafe.Pointer, n, c, plane int, stream bool) int { return 0 }
