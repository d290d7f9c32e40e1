//go:build !purego

package layout

import "unsafe"

// gatherEven4 sets dst[i] = src[2*i] for n 4-byte elements, n a multiple
// of 8, reading src[2*n-1] too. Implemented in gather2_amd64.s.
//
//go:noescape
func gatherEven4(dst, src unsafe.Pointer, n int)

// gatherEvenFast copies the first elements of a gather of n 4-byte
// elements 2 apart with the AVX2 kernel and returns how many: a multiple
// of 8 that leaves at least one element, so that the kernel's read of the
// odd element after its last stays inside the source (0 without AVX2).
func gatherEvenFast(dst, src unsafe.Pointer, n int) int {
	if !useAVX2 {
		return 0
	}
	k := (n - 1) &^ 7
	if k > 0 {
		gatherEven4(dst, src, k)
	}
	return max(k, 0)
}
