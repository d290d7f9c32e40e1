//go:build !purego

#include "textflag.h"

// The sumU8L* kernels add blocks of 32*L bytes by position: the two
// 16-byte halves of each of the block's L 32-byte pieces widen to 16
// uint16 words (VPMOVZXBW, in order) and add into their own accumulator,
// 2L in all (Y0..Y13), so word k of accumulator r holds byte position
// 16*r + k of every block. After at most 256 blocks (256*255 < 2^16) the
// accumulators widen to uint32 and add into out[16*r .. 16*r+16].

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

// func sumU8L1(out, x unsafe.Pointer, n int)
TEXT ·sumU8L1(SB), NOSPLIT, $0-24
	MOVQ out+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
l1group:
	MOVQ    $256, DX
	CMPQ    CX, DX
	CMOVQLT CX, DX
	SUBQ    DX, CX
l1block:
	ADDHALF(0, Y0)
	ADDHALF(16, Y1)
	ADDQ $32, SI
	DECQ DX
	JNZ  l1block
	FLUSH(0, Y0, X0)
	FLUSH(64, Y1, X1)
	TESTQ CX, CX
	JNZ   l1group
	VZEROUPPER
	RET

// func sumU8L3(out, x unsafe.Pointer, n int)
TEXT ·sumU8L3(SB), NOSPLIT, $0-24
	MOVQ out+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	VPXOR Y2, Y2, Y2
	VPXOR Y3, Y3, Y3
	VPXOR Y4, Y4, Y4
	VPXOR Y5, Y5, Y5
l3group:
	MOVQ    $256, DX
	CMPQ    CX, DX
	CMOVQLT CX, DX
	SUBQ    DX, CX
l3block:
	ADDHALF(0, Y0)
	ADDHALF(16, Y1)
	ADDHALF(32, Y2)
	ADDHALF(48, Y3)
	ADDHALF(64, Y4)
	ADDHALF(80, Y5)
	ADDQ $96, SI
	DECQ DX
	JNZ  l3block
	FLUSH(0, Y0, X0)
	FLUSH(64, Y1, X1)
	FLUSH(128, Y2, X2)
	FLUSH(192, Y3, X3)
	FLUSH(256, Y4, X4)
	FLUSH(320, Y5, X5)
	TESTQ CX, CX
	JNZ   l3group
	VZEROUPPER
	RET

// func sumU8L5(out, x unsafe.Pointer, n int)
TEXT ·sumU8L5(SB), NOSPLIT, $0-24
	MOVQ out+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
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
	MOVQ    $256, DX
	CMPQ    CX, DX
	CMOVQLT CX, DX
	SUBQ    DX, CX
l5block:
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
	DECQ DX
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
	TESTQ CX, CX
	JNZ   l5group
	VZEROUPPER
	RET

// func sumU8L7(out, x unsafe.Pointer, n int)
TEXT ·sumU8L7(SB), NOSPLIT, $0-24
	MOVQ out+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
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
	MOVQ    $256, DX
	CMPQ    CX, DX
	CMOVQLT CX, DX
	SUBQ    DX, CX
l7block:
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
	DECQ DX
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
	TESTQ CX, CX
	JNZ   l7group
	VZEROUPPER
	RET
