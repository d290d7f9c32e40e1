//go:build !purego

package kernel

import "unsafe"

// copyRuns copies count runs of n bytes (n >= 32), srcStride bytes apart
// from src (any sign), one after the other to dst, with a software
// prefetch ahead bytes of run data in front of the copy. With nt the
// stores are non-temporal (dst and n must be multiples of 32), and fenced
// before it returns with fence. Implemented in runs_amd64.s.
//
//go:noescape
func copyRuns(dst, src unsafe.Pointer, n, count, srcStride, ahead int, nt, fence bool)

// Fence orders the non-temporal stores of CopyRuns calls with stream
// before every later store of the calling thread (SFENCE on amd64): a
// caller of CopyRuns with stream calls it once after its last call,
// before the result is read elsewhere. Implemented in runs_amd64.s.
//
//go:noescape
func Fence()

// copyRunsFast copies count runs of n bytes, srcStride bytes apart from
// src, to the contiguous dst with the AVX2 kernel and reports whether it
// did (not without AVX2 or for runs shorter than 32 bytes). With stream,
// a batch whose destination lines are whole (dst and n multiples of 32)
// is written with non-temporal stores, fenced before it returns unless
// noFence.
func copyRunsFast(dst, src unsafe.Pointer, n, count, srcStride int, stream, noFence bool) bool {
	if !useAVX2 || n < 32 {
		return false
	}
	nt := stream && n%32 == 0 && uintptr(dst)%32 == 0 && n >= runsNTMin
	copyRuns(dst, src, n, count, srcStride, runsAhead, nt, !noFence)
	return true
}
