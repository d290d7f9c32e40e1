//go:build !purego

package layout

import "unsafe"

// copyNT copies n bytes, a multiple of 64, from src to dst (16-byte
// aligned) with non-temporal stores, which bypass the caches: no read for
// ownership of the destination lines. Implemented in stream_amd64.s.
//
//go:noescape
func copyNT(dst, src unsafe.Pointer, n int)

// copyNT32 is copyNT with 32-byte AVX moves and no software prefetch,
// for CPUs with AVX2 (useAVX2), where it measured faster on runs of a few
// KiB (slices of tensors): dst must be 32-byte aligned. Implemented in
// stream_amd64.s.
//
//go:noescape
func copyNT32(dst, src unsafe.Pointer, n int)

// streamCopy copies n bytes from src to dst, the whole cache lines of dst
// with non-temporal stores when n is at least streamMin, like copy() does
// for copies of at least 1 MiB.
func streamCopy(dst, src unsafe.Pointer, n int) {
	if n < streamMin {
		copy(unsafe.Slice((*byte)(dst), n), unsafe.Slice((*byte)(src), n))
		return
	}
	head := int(-uintptr(dst) & 63)
	copy(unsafe.Slice((*byte)(dst), head), unsafe.Slice((*byte)(src), head))
	body := (n - head) &^ 63
	if useAVX2 {
		copyNT32(unsafe.Add(dst, head), unsafe.Add(src, head), body)
	} else {
		copyNT(unsafe.Add(dst, head), unsafe.Add(src, head), body)
	}
	if tail := n - head - body; tail > 0 {
		copy(unsafe.Slice((*byte)(unsafe.Add(dst, head+body)), tail), unsafe.Slice((*byte)(unsafe.Add(src, head+body)), tail))
	}
}

// interleave3NT is interleave3x32 with non-temporal stores for pairs
// pairs of pixels. Implemented in stream_amd64.s.
//
//go:noescape
func interleave3NT(dst, src unsafe.Pointer, pairs, ss int)

// interleave3Stream is interleave3x32 with non-temporal stores: it writes
// pixels [0, n&^1) and returns their number.
func interleave3Stream(dst, src unsafe.Pointer, n, ss int) int {
	interleave3NT(dst, src, n/2, ss)
	return n &^ 1
}
