//go:build !amd64 || purego

package layout

import "unsafe"

// streamCopy copies n bytes from src to dst with copy(): the pure-Go
// build has no non-temporal stores.
func streamCopy(dst, src unsafe.Pointer, n int) {
	copy(unsafe.Slice((*byte)(dst), n), unsafe.Slice((*byte)(src), n))
}

// interleave3Stream is interleave3x32 in the pure-Go build.
func interleave3Stream(dst, src unsafe.Pointer, n, ss int) int {
	return interleave3x32(dst, src, n, ss)
}
