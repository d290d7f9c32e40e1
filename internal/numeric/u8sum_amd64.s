//go:build !purego

#include "textflag.h"
#include "ahead_amd64.h"

// The sumU8L* kernels add blocks of 32*L bytes by position: the two
// 16-byte halves of each of the block's L 32-byte pieces widen to 16
// uint16 words (VPMOVZXBW, in order) and add into their own accumulator,
// 2L in all (Y0..Y13), so word k of accumulator r holds byte position
// 16*r + k of every block. After at most 256 blocks (256*255 < 2^16) the
// accumulators widen to uint32 and add into out[16*r .. 16*r+16].
//
// Each kernel touches the three pages after x on entry (RUNAHEAD) and the
// page TLBAHEAD bytes ahead of its reads at least once every 4 KiB:
// sumU8L1 the two pages 16 and 20 KiB ahead at the start of each group
// of 256 blocks (8 KiB; a test every 128 blocks of 32 bytes read 0.93x
// as fast on huge pages), sumU8L3, L5 and L7 every MASK+1 blocks
// (PAGEAHEADN on the block count in CX: 3 KiB for L = 3, 2.5 KiB for 5,
// 3.5 KiB for 7), sumU8Lanes at each block whose page ahead it has not
// touched (PAGEONCE). TOUCH's four bytes never pass those at last, the
// last four bytes of the data (at or after x's).

// U8ARGS loads the arguments of the sumU8L* kernels: out in DI, x in SI,
// the n blocks in DX (counted down a group of at most 256 at a time, the
// group's blocks in CX), last in R13; it touches the three pages after
// x.
#define U8ARGS \
	MOVQ out+0(FP), DI; \
	MOVQ x+8(FP), SI; \
	MOVQ n+16(FP), DX; \
	MOVQ last+24(FP), R13; \
	RUNAHEAD

// U8GROUP starts a group of at most 256 blocks: CX = min(DX, 256),
// taken from DX.
#define U8GROUP \
	MOVQ    $256, CX; \
	CMPQ    DX, CX; \
	CMOVQLT DX, CX; \
	SUBQ    CX, DX

// ADDHALF adds the 16 bytes at off(SI) to the words of acc.
#define ADDHALF(off, acc) \
	VPMOVZXBW off(SI), Y14 \
	VPADDW    Y14, acc, acc

// FLUSH adds the 16 words of acc (xacc its low half) to the 16 uint32 at
// off(DI) and clears acc.
#define FLUSH(off, acc, xacc) \
	VPMOVZXWD    xacc, Y14 \
	VPADDD       off(DI), Y14, Y14 \
	VMOVDQU      Y14, off(DI) \
	VEXTRACTI128 $1, acc, X15 \
	VPMOVZXWD    X15, Y15 \
	VPADDD       off+32(DI), Y15, Y15 \
	VMOVDQU      Y15, off+32(DI) \
	VPXOR        acc, acc, acc

// func sumU8L1(out, x unsafe.Pointer, n int, last unsafe.Pointer)
TEXT ·sumU8L1(SB), NOSPLIT, $0-32
	U8ARGS
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
l1group:
	U8GROUP
	TOUCH(TLBAHEAD, SI)
	TOUCH(TLBAHEAD+4096, SI)
l1block:
	ADDHALF(0, Y0)
	ADDHALF(16, Y1)
	ADDQ $32, SI
	DECQ CX
	JNZ  l1block
	FLUSH(0, Y0, X0)
	FLUSH(64, Y1, X1)
	TESTQ DX, DX
	JNZ   l1group
	VZEROUPPER
	RET

// func sumU8L3(out, x unsafe.Pointer, n int, last unsafe.Pointer)
TEXT ·sumU8L3(SB), NOSPLIT, $0-32
	U8ARGS
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	VPXOR Y2, Y2, Y2
	VPXOR Y3, Y3, Y3
	VPXOR Y4, Y4, Y4
	VPXOR Y5, Y5, Y5
l3group:
	U8GROUP
l3block:
	PAGEAHEADN($31, SI)
	ADDHALF(0, Y0)
	ADDHALF(16, Y1)
	ADDHALF(32, Y2)
	ADDHALF(48, Y3)
	ADDHALF(64, Y4)
	ADDHALF(80, Y5)
	ADDQ $96, SI
	DECQ CX
	JNZ  l3block
	FLUSH(0, Y0, X0)
	FLUSH(64, Y1, X1)
	FLUSH(128, Y2, X2)
	FLUSH(192, Y3, X3)
	FLUSH(256, Y4, X4)
	FLUSH(320, Y5, X5)
	TESTQ DX, DX
	JNZ   l3group
	VZEROUPPER
	RET

// func sumU8L5(out, x unsafe.Pointer, n int, last unsafe.Pointer)
TEXT ·sumU8L5(SB), NOSPLIT, $0-32
	U8ARGS
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	VPXOR Y2, Y2, Y2
	VPXOR Y3, Y3, Y3
	VPXOR Y4, Y4, Y4
	VPXOR Y5, Y5, Y5
	VPXOR Y6, Y6, Y6
	VPXOR Y7, Y7, Y7
	VPXOR Y8, Y8, Y8
	VPXOR Y9, Y9, Y9
l5group:
	U8GROUP
l5block:
	PAGEAHEADN($15, SI)
	ADDHALF(0, Y0)
	ADDHALF(16, Y1)
	ADDHALF(32, Y2)
	ADDHALF(48, Y3)
	ADDHALF(64, Y4)
	ADDHALF(80, Y5)
	ADDHALF(96, Y6)
	ADDHALF(112, Y7)
	ADDHALF(128, Y8)
	ADDHALF(144, Y9)
	ADDQ $160, SI
	DECQ CX
	JNZ  l5block
	FLUSH(0, Y0, X0)
	FLUSH(64, Y1, X1)
	FLUSH(128, Y2, X2)
	FLUSH(192, Y3, X3)
	FLUSH(256, Y4, X4)
	FLUSH(320, Y5, X5)
	FLUSH(384, Y6, X6)
	FLUSH(448, Y7, X7)
	FLUSH(512, Y8, X8)
	FLUSH(576, Y9, X9)
	TESTQ DX, DX
	JNZ   l5group
	VZEROUPPER
	RET

// func sumU8L7(out, x unsafe.Pointer, n int, last unsafe.Pointer)
TEXT ·sumU8L7(SB), NOSPLIT, $0-32
	U8ARGS
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	VPXOR Y2, Y2, Y2
	VPXOR Y3, Y3, Y3
	VPXOR Y4, Y4, Y4
	VPXOR Y5, Y5, Y5
	VPXOR Y6, Y6, Y6
	VPXOR Y7, Y7, Y7
	VPXOR Y8, Y8, Y8
	VPXOR Y9, Y9, Y9
	VPXOR Y10, Y10, Y10
	VPXOR Y11, Y11, Y11
	VPXOR Y12, Y12, Y12
	VPXOR Y13, Y13, Y13
l7group:
	U8GROUP
l7block:
	PAGEAHEADN($15, SI)
	ADDHALF(0, Y0)
	ADDHALF(16, Y1)
	ADDHALF(32, Y2)
	ADDHALF(48, Y3)
	ADDHALF(64, Y4)
	ADDHALF(80, Y5)
	ADDHALF(96, Y6)
	ADDHALF(112, Y7)
	ADDHALF(128, Y8)
	ADDHALF(144, Y9)
	ADDHALF(160, Y10)
	ADDHALF(176, Y11)
	ADDHALF(192, Y12)
	ADDHALF(208, Y13)
	ADDQ $224, SI
	DECQ CX
	JNZ  l7block
	FLUSH(0, Y0, X0)
	FLUSH(64, Y1, X1)
	FLUSH(128, Y2, X2)
	FLUSH(192, Y3, X3)
	FLUSH(256, Y4, X4)
	FLUSH(320, Y5, X5)
	FLUSH(384, Y6, X6)
	FLUSH(448, Y7, X7)
	FLUSH(512, Y8, X8)
	FLUSH(576, Y9, X9)
	FLUSH(640, Y10, X10)
	FLUSH(704, Y11, X11)
	FLUSH(768, Y12, X12)
	FLUSH(832, Y13, X13)
	TESTQ DX, DX
	JNZ   l7group
	VZEROUPPER
	RET

// func sumU8Lanes(lanes, out, x unsafe.Pointer, l, n int, last unsafe.Pointer)
// The same for any L: the 32*L uint16 lanes live in memory at lanes
// (zero on entry and on return), the pieces of a block added into them
// one after another.
TEXT ·sumU8Lanes(SB), NOSPLIT, $0-48
	MOVQ lanes+0(FP), DI
	MOVQ x+16(FP), SI
	MOVQ l+24(FP), R8
	MOVQ n+32(FP), DX
	MOVQ last+40(FP), R13
	RUNAHEAD
	XORQ R12, R12
	VPXOR Y2, Y2, Y2
lgroup:
	U8GROUP
lblock:
	PAGEONCE(SI)
	MOVQ DI, R9
	MOVQ R8, R10
lpiece:
	VPMOVZXBW (SI), Y0
	VPADDW    (R9), Y0, Y0
	VMOVDQU   Y0, (R9)
	VPMOVZXBW 16(SI), Y1
	VPADDW    32(R9), Y1, Y1
	VMOVDQU   Y1, 32(R9)
	ADDQ      $32, SI
	ADDQ      $64, R9
	DECQ      R10
	JNZ       lpiece
	DECQ      CX
	JNZ       lblock
	// Widen the lanes into out, 16 at a time, and clear them.
	MOVQ DI, R9
	MOVQ out+8(FP), R11
	MOVQ R8, R10
	SHLQ $1, R10
lflush:
	VPMOVZXWD (R9), Y0
	VPADDD    (R11), Y0, Y0
	VMOVDQU   Y0, (R11)
	VPMOVZXWD 16(R9), Y1
	VPADDD    32(R11), Y1, Y1
	VMOVDQU   Y1, 32(R11)
	VMOVDQU   Y2, (R9)
	ADDQ      $32, R9
	ADDQ      $64, R11
	DECQ      R10
	JNZ       lflush
	TESTQ DX, DX
	JNZ   lgroup
	VZEROUPPER
	RET
