//go:build !purego

#include "textflag.h"

// 2-D transposes of 2-byte elements with AVX2 (1-byte ones are in
// transpose_w1_amd64.s), in sub-blocks of 16 source lines. Each register
// holds 16 bytes of source line k in its lower lane and of line k+8 in its
// upper lane, so three rounds of in-lane unpacks transpose both halves at
// once and each lane ends with 8 source lines of one destination row.
// Registers and macros: transpose_narrow_amd64.h.

#include "transpose_narrow_amd64.h"

// TRANSPOSE16 transposes the 8x8 2-byte elements of each lane of Y0-Y7:
// Y8+c holds destination row c (lines 0-7 in the lower lane, 8-15 in the
// upper). Y0-Y7 are clobbered.
#define TRANSPOSE16 \
	VPUNPCKLWD Y1, Y0, Y8; \
	VPUNPCKHWD Y1, Y0, Y9; \
	VPUNPCKLWD Y3, Y2, Y10; \
	VPUNPCKHWD Y3, Y2, Y11; \
	VPUNPCKLWD Y5, Y4, Y12; \
	VPUNPCKHWD Y5, Y4, Y13; \
	VPUNPCKLWD Y7, Y6, Y14; \
	VPUNPCKHWD Y7, Y6, Y15; \
	VPUNPCKLDQ Y10, Y8, Y0; \
	VPUNPCKHDQ Y10, Y8, Y1; \
	VPUNPCKLDQ Y11, Y9, Y2; \
	VPUNPCKHDQ Y11, Y9, Y3; \
	VPUNPCKLDQ Y14, Y12, Y4; \
	VPUNPCKHDQ Y14, Y12, Y5; \
	VPUNPCKLDQ Y15, Y13, Y6; \
	VPUNPCKHDQ Y15, Y13, Y7; \
	VPUNPCKLQDQ Y4, Y0, Y8; \
	VPUNPCKHQDQ Y4, Y0, Y9; \
	VPUNPCKLQDQ Y5, Y1, Y10; \
	VPUNPCKHQDQ Y5, Y1, Y11; \
	VPUNPCKLQDQ Y6, Y2, Y12; \
	VPUNPCKHQDQ Y6, Y2, Y13; \
	VPUNPCKLQDQ Y7, Y3, Y14; \
	VPUNPCKHQDQ Y7, Y3, Y15

// func transpose8x16w2(dst, src unsafe.Pointer, steps, tiles, dstRow, srcRow int)
//
// transpose8x16w2 copies tiles x steps blocks of 8 source columns by 16
// source lines of 2-byte elements: dst[i*dstRow+k] = src[i+k*srcRow] for
// i < 8*steps, k < 16*tiles, strides in bytes. Each block writes 32 bytes
// to each of 8 destination rows.
TEXT ·transpose8x16w2(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DX
	MOVQ src+8(FP), CX
	MOVQ tiles+24(FP), BX
	MOVQ dstRow+32(FP), R11
	MOVQ srcRow+40(FP), R8
	LEAQ (R8)(R8*2), R9
	LEAQ (R11)(R11*2), R12
	CMPQ steps+16(FP), $0
	JLE  transpose8x16w2done
	TESTQ BX, BX
	JLE  transpose8x16w2done

transpose8x16w2tile:
	MOVQ steps+16(FP), AX
	MOVQ CX, SI
	LEAQ (SI)(R8*4), R10
	LEAQ (R10)(R8*4), R14
	LEAQ (R14)(R8*4), R15
	MOVQ DX, DI

transpose8x16w2step:
	PREFETCHNEXT
	LOADLINES
	TRANSPOSE16
	LEAQ    (DI)(R11*4), R13
	VMOVDQU Y8, (DI)
	VMOVDQU Y9, (DI)(R11*1)
	VMOVDQU Y10, (DI)(R11*2)
	VMOVDQU Y11, (DI)(R12*1)
	VMOVDQU Y12, (R13)
	VMOVDQU Y13, (R13)(R11*1)
	VMOVDQU Y14, (R13)(R11*2)
	VMOVDQU Y15, (R13)(R12*1)
	ADDQ $16, SI
	ADDQ $16, R10
	ADDQ $16, R14
	ADDQ $16, R15
	LEAQ (DI)(R11*8), DI
	DECQ AX
	JNZ  transpose8x16w2step

	// Next tile: 16 source lines down, 16 destination columns right.
	MOVQ R8, AX
	SHLQ $4, AX
	ADDQ AX, CX
	ADDQ $32, DX
	DECQ BX
	JNZ  transpose8x16w2tile

transpose8x16w2done:
	VZEROUPPER
	RET

// func transpose8x32w2nt(dst, src unsafe.Pointer, steps, tiles, dstRow, srcRow int)
//
// transpose8x32w2nt is transpose8x16w2 in blocks of 8 source columns by
// 32 source lines (k < 32*tiles) with non-temporal stores (dst and dstRow
// multiples of 64 bytes), fenced before returning. The rows of the first
// 16 lines wait on the stack while the next 16 are transposed, so that
// each destination row receives its whole 64-byte line in two adjacent
// stores, which the write-combining buffers need.
TEXT ·transpose8x32w2nt(SB), NOSPLIT, $256-48
	MOVQ dst+0(FP), DX
	MOVQ src+8(FP), CX
	MOVQ tiles+24(FP), BX
	MOVQ dstRow+32(FP), R11
	MOVQ srcRow+40(FP), R8
	LEAQ (R8)(R8*2), R9
	LEAQ (R11)(R11*2), R12
	CMPQ steps+16(FP), $0
	JLE  w2ntdone
	TESTQ BX, BX
	JLE  w2ntdone

w2nttile:
	MOVQ steps+16(FP), AX
	MOVQ CX, SI
	LEAQ (SI)(R8*4), R10
	LEAQ (R10)(R8*4), R14
	LEAQ (R14)(R8*4), R15
	MOVQ DX, DI

w2ntstep:
	PREFETCHNEXT
	LOADLINES
	TRANSPOSE16
	VMOVDQU Y8, 0(SP)
	VMOVDQU Y9, 32(SP)
	VMOVDQU Y10, 64(SP)
	VMOVDQU Y11, 96(SP)
	VMOVDQU Y12, 128(SP)
	VMOVDQU Y13, 160(SP)
	VMOVDQU Y14, 192(SP)
	VMOVDQU Y15, 224(SP)
	MOVQ R8, R13
	SHLQ $4, R13
	ADDQ R13, SI
	ADDQ R13, R10
	ADDQ R13, R14
	ADDQ R13, R15
	PREFETCHNEXT
	LOADLINES
	TRANSPOSE16
	MOVQ R8, R13
	SHLQ $4, R13
	SUBQ R13, SI
	SUBQ R13, R10
	SUBQ R13, R14
	SUBQ R13, R15
	LEAQ (DI)(R11*4), R13
	VMOVDQU  0(SP), Y0
	VMOVNTDQ Y0, (DI)
	VMOVNTDQ Y8, 32(DI)
	VMOVDQU  32(SP), Y0
	VMOVNTDQ Y0, (DI)(R11*1)
	VMOVNTDQ Y9, 32(DI)(R11*1)
	VMOVDQU  64(SP), Y0
	VMOVNTDQ Y0, (DI)(R11*2)
	VMOVNTDQ Y10, 32(DI)(R11*2)
	VMOVDQU  96(SP), Y0
	VMOVNTDQ Y0, (DI)(R12*1)
	VMOVNTDQ Y11, 32(DI)(R12*1)
	VMOVDQU  128(SP), Y0
	VMOVNTDQ Y0, (R13)
	VMOVNTDQ Y12, 32(R13)
	VMOVDQU  160(SP), Y0
	VMOVNTDQ Y0, (R13)(R11*1)
	VMOVNTDQ Y13, 32(R13)(R11*1)
	VMOVDQU  192(SP), Y0
	VMOVNTDQ Y0, (R13)(R11*2)
	VMOVNTDQ Y14, 32(R13)(R11*2)
	VMOVDQU  224(SP), Y0
	VMOVNTDQ Y0, (R13)(R12*1)
	VMOVNTDQ Y15, 32(R13)(R12*1)
	ADDQ $16, SI
	ADDQ $16, R10
	ADDQ $16, R14
	ADDQ $16, R15
	LEAQ (DI)(R11*8), DI
	DECQ AX
	JNZ  w2ntstep

	// Next tile: 32 source lines down, 64 bytes of destination right.
	MOVQ R8, AX
	SHLQ $5, AX
	ADDQ AX, CX
	ADDQ $64, DX
	DECQ BX
	JNZ  w2nttile
	SFENCE

w2ntdone:
	VZEROUPPER
	RET
