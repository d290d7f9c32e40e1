//go:build !purego

#include "textflag.h"

// func copyRuns(dst, src unsafe.Pointer, n, count, srcStride int, pf uintptr, pfOff, pfRun, pfCount, pfStride int, nt, fence bool)
//
// copyRuns copies count runs of n bytes (n >= 32), srcStride bytes apart
// from src, one after the other to dst, 32 bytes a move; the last move of
// a run whose length is not a multiple of 32 overlaps the one before it.
// With nt the stores are non-temporal (dst and n must then be multiples
// of 32) and, with fence, fenced before returning. A prefetch cursor walks
// pfCount runs of pfRun bytes (pfRun > 0), pfStride bytes apart from pf,
// starting pfOff bytes into the first, one cache line per 64 bytes
// copied and the last line of each run: the caller points it ahead of the copy in the same runs, or at
// the runs it copies next, so that the start of each run is already on
// its way when the copy reaches it: the hardware prefetchers do not follow
// jumps between runs.
//
// Registers: DI dst, SI the current run, DX n, CX runs left, R8
// srcStride, BX offset in the run, R9 the prefetch cursor's run, R10 its
// offset, R12 runs left to the cursor, R13 pfRun, AX pfStride.
TEXT ·copyRuns(SB), NOSPLIT, $0-82
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), DX
	MOVQ count+24(FP), CX
	MOVQ srcStride+32(FP), R8
	MOVQ pf+40(FP), R9
	MOVQ pfOff+48(FP), R10
	MOVQ pfRun+56(FP), R13
	MOVQ pfCount+64(FP), R12
	MOVQ pfStride+72(FP), AX
	TESTQ CX, CX
	JLE  done
	LEAQ -32(DX), R11 // offset of the last whole move of a run
	CMPB nt+80(FP), $0
	JNE  ntrun

run:
	XORQ BX, BX

chunk:
	TESTQ R12, R12
	JLE  nopf
	PREFETCHT0 (R9)(R10*1)
	ADDQ $64, R10
	CMPQ R10, R13
	JLT  nopf
	PREFETCHT0 -1(R9)(R13*1) // the run's last line, when its start is not on a line
	XORQ R10, R10
	ADDQ AX, R9
	DECQ R12

nopf:
	CMPQ BX, R11
	JGE  last
	VMOVDQU (SI)(BX*1), Y0
	VMOVDQU Y0, (DI)(BX*1)
	ADDQ $32, BX
	CMPQ BX, R11
	JGE  last
	VMOVDQU (SI)(BX*1), Y1
	VMOVDQU Y1, (DI)(BX*1)
	ADDQ $32, BX
	JMP  chunk

last:
	// The last 32 bytes of the run, overlapping the previous move when
	// n is not a multiple of 32.
	VMOVDQU (SI)(R11*1), Y0
	VMOVDQU Y0, (DI)(R11*1)
	ADDQ DX, DI
	ADDQ R8, SI
	DECQ CX
	JNZ  run
	VZEROUPPER
	RET

ntrun:
	XORQ BX, BX

ntchunk:
	TESTQ R12, R12
	JLE  ntnopf
	PREFETCHT0 (R9)(R10*1)
	ADDQ $64, R10
	CMPQ R10, R13
	JLT  ntnopf
	PREFETCHT0 -1(R9)(R13*1) // the run's last line, when its start is not on a line
	XORQ R10, R10
	ADDQ AX, R9
	DECQ R12

ntnopf:
	VMOVDQU  (SI)(BX*1), Y0
	VMOVNTDQ Y0, (DI)(BX*1)
	ADDQ     $32, BX
	CMPQ     BX, DX
	JGE      ntend
	VMOVDQU  (SI)(BX*1), Y1
	VMOVNTDQ Y1, (DI)(BX*1)
	ADDQ     $32, BX
	CMPQ     BX, DX
	JLT      ntchunk

ntend:
	ADDQ DX, DI
	ADDQ R8, SI
	DECQ CX
	JNZ  ntrun
	CMPB fence+81(FP), $0
	JEQ  nofence
	SFENCE

nofence:
	VZEROUPPER
	RET

done:
	RET

// func Fence()
TEXT ·Fence(SB), NOSPLIT, $0-0
	SFENCE
	RET
