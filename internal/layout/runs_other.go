//go:build !amd64 || purego

package layout

import "unsafe"

// copyRunsFast copies nothing in the pure-Go build: the caller's loop of
// copy() calls does.
func copyRunsFast(dst, src unsafe.Pointer, n, count, srcStride int, stream, noFence bool) bool {
	return false
}

// copyRunsNext copies nothing in the pure-Go build.
func copyRunsNext(dst, src unsafe.Pointer, n, count, srcStride int, next uintptr, nextRun, nextCount, nextStride int, stream bool) bool {
	return false
}

// Fence does nothing in the pure-Go build, which has no non-temporal
// stores; on amd64 it orders the non-temporal stores of CopyRuns calls
// with stream before later stores.
func Fence() {}

// gatherEvenFast gathers nothing in the pure-Go build.
func gatherEvenFast(dst, src unsafe.Pointer, n int) int { return 0 }
