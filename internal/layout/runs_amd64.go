//go:build !purego

package layout

import "unsafe"

// copyRuns copies count runs of n bytes (n >= 32), srcStride bytes apart
// from src (any sign), one after the other to dst, with a software
// prefetch cursor over pfCount runs of pfRun bytes, pfStride apart from
// pf, started pfOff bytes into the first. With nt the stores are
// non-temporal (dst and n must be multiples of 32), and fenced before it
// returns with fence. Implemented in runs_amd64.s.
//
//go:noescape
func copyRuns(dst, src unsafe.Pointer, n, count, srcStride int, pf uintptr, pfOff, pfRun, pfCount, pfStride int, nt, fence bool)

// Fence orders the non-temporal stores of CopyRuns calls with stream
// before every later store of the calling thread (SFENCE on amd64): a
// caller of CopyRuns with stream calls it once after its last call,
// before the result is read elsewhere. Implemented in runs_amd64.s.
//
//go:noescape
func Fence()

// copyRunsFast copies count runs of n bytes, srcStride bytes apart from
// src, to the contiguous dst with the AVX2 kernel and reports whether it
// did (not without AVX2 or for runs shorter than 32 bytes), prefetching
// runsAhead bytes of run data ahead of the copy. With stream, a batch
// whose destination lines are whole (dst and n multiples of 32) is written
// with non-temporal stores, fenced before it returns unless noFence.
func copyRunsFast(dst, src unsafe.Pointer, n, count, srcStride int, stream, noFence bool) bool {
	if !useAVX2 || n < 32 {
		return false
	}
	skip := runsAhead / n
	// An address only prefetched, perhaps past the runs: not a pointer.
	pf := uintptr(src) + uintptr(skip*srcStride)
	copyRuns(dst, src, n, count, srcStride, pf, runsAhead%n&^63, n, count-skip, srcStride,
		ntOK(dst, n, stream), !noFence)
	return true
}

// copyRunsNext is copyRunsFast without fence, prefetching the next
// nextCount runs of nextRun bytes, nextStride apart from next, instead of
// the copied runs: the runs of the following call.
func copyRunsNext(dst, src unsafe.Pointer, n, count, srcStride int, next uintptr, nextRun, nextCount, nextStride int, stream bool) bool {
	if !useAVX2 || n < 32 {
		return false
	}
	if nextRun <= 0 {
		nextCount = 0
	}
	copyRuns(dst, src, n, count, srcStride, next, 0, max(nextRun, 1), nextCount, nextStride, ntOK(dst, n, stream), false)
	return true
}

// ntOK reports whether runs of n bytes to dst are written with
// non-temporal stores: with stream, when the destination lines are whole.
func ntOK(dst unsafe.Pointer, n int, stream bool) bool {
	return stream && n%32 == 0 && uintptr(dst)%32 == 0 && n >= runsNTMin
}
