//go:build !amd64 || purego

package kernel

import "unsafe"

// copyRunsFast copies nothing in the pure-Go build: the caller's loop of
// copy() calls does.
func copyRunsFast(dst, src unsafe.Pointer, n, count, srcStride int, stream bool) bool {
	return false
}
