//go:build !purego

#include "textflag.h"

// 2-D transposes of 1-byte elements with AVX2 (2-byte ones are in
// transpose_w2_amd64.s), in sub-blocks of 16 source lines. Each register
// holds 16 bytes of source line k in its lower lane and of line k+8 in its
// upper lane, so three rounds of in-lane unpacks transpose both halves at
// once and each lane ends with 8 source lines of one destination row.
// Registers and macros: transpose_narrow_amd64.h.

#include "transpose_narrow_amd64.h"

// TRANSPOSE8 transposes the 8x16 bytes of each lane of Y0-Y7: Y8+j holds
// destination rows 2j and 2j+1 (16 source lines each, in order). Y0-Y7
// are clobbered.
#define TRANSPOSE8 \
	VPUNPCKLBW Y1, Y0, Y8; \
	VPUNPCKHBW Y1, Y0, Y9; \
	VPUNPCKLBW Y3, Y2, Y10; \
	VPUNPCKHBW Y3, Y2, Y11; \
	VPUNPCKLBW Y5, Y4, Y12; \
	VPUNPCKHBW Y5, Y4, Y13; \
	VPUNPCKLBW Y7, Y6, Y14; \
	VPUNPCKHBW Y7, Y6, Y15; \
	VPUNPCKLWD Y10, Y8, Y0; \
	VPUNPCKHWD Y10, Y8, Y1; \
	VPUNPCKLWD Y11, Y9, Y2; \
	VPUNPCKHWD Y11, Y9, Y3; \
	VPUNPCKLWD Y14, Y12, Y4; \
	VPUNPCKHWD Y14, Y12, Y5; \
	VPUNPCKLWD Y15, Y13, Y6; \
	VPUNPCKHWD Y15, Y13, Y7; \
	VPUNPCKLDQ Y4, Y0, Y8; \
	VPUNPCKHDQ Y4, Y0, Y9; \
	VPUNPCKLDQ Y5, Y1, Y10; \
	VPUNPCKHDQ Y5, Y1, Y11; \
	VPUNPCKLDQ Y6, Y2, Y12; \
	VPUNPCKHDQ Y6, Y2, Y13; \
	VPUNPCKLDQ Y7, Y3, Y14; \
	VPUNPCKHDQ Y7, Y3, Y15; \
	VPERMQ $0xD8, Y8, Y8; \
	VPERMQ $0xD8, Y9, Y9; \
	VPERMQ $0xD8, Y10, Y10; \
	VPERMQ $0xD8, Y11, Y11; \
	VPERMQ $0xD8, Y12, Y12; \
	VPERMQ $0xD8, Y13, Y13; \
	VPERMQ $0xD8, Y14, Y14; \
	VPERMQ $0xD8, Y15, Y15

// func transpose16x16w1(dst, src unsafe.Pointer, steps, tiles, dstRow, srcRow int)
//
// transpose16x16w1 is transpose8x16w2 for 1-byte elements in blocks of 16
// source columns by 16 source lines: after the unpacks each register
// holds two destination rows, which VPERMQ makes contiguous halves; each
// block writes 16 bytes to each of 16 destination rows.
TEXT ·transpose16x16w1(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DX
	MOVQ src+8(FP), CX
	MOVQ tiles+24(FP), BX
	MOVQ dstRow+32(FP), R11
	MOVQ srcRow+40(FP), R8
	LEAQ (R8)(R8*2), R9
	LEAQ (R11)(R11*2), R12
	CMPQ steps+16(FP), $0
	JLE  transpose16x16w1done
	TESTQ BX, BX
	JLE  transpose16x16w1done

transpose16x16w1tile:
	MOVQ steps+16(FP), AX
	MOVQ CX, SI
	LEAQ (SI)(R8*4), R10
	LEAQ (R10)(R8*4), R14
	LEAQ (R14)(R8*4), R15
	MOVQ DX, DI

transpose16x16w1step:
	PREFETCHNEXT
	LOADLINES
	TRANSPOSE8
	LEAQ (DI)(R11*4), R13
	VMOVDQU X8, (DI)
	VEXTRACTI128 $1, Y8, (DI)(R11*1)
	VMOVDQU X9, (DI)(R11*2)
	VEXTRACTI128 $1, Y9, (DI)(R12*1)
	VMOVDQU X10, (R13)
	VEXTRACTI128 $1, Y10, (R13)(R11*1)
	VMOVDQU X11, (R13)(R11*2)
	VEXTRACTI128 $1, Y11, (R13)(R12*1)
	LEAQ (DI)(R11*8), R13
	VMOVDQU X12, (R13)
	VEXTRACTI128 $1, Y12, (R13)(R11*1)
	VMOVDQU X13, (R13)(R11*2)
	VEXTRACTI128 $1, Y13, (R13)(R12*1)
	LEAQ (R13)(R11*4), R13
	VMOVDQU X14, (R13)
	VEXTRACTI128 $1, Y14, (R13)(R11*1)
	VMOVDQU X15, (R13)(R11*2)
	VEXTRACTI128 $1, Y15, (R13)(R12*1)
	ADDQ $16, SI
	ADDQ $16, R10
	ADDQ $16, R14
	ADDQ $16, R15
	LEAQ (DI)(R11*8), DI
	LEAQ (DI)(R11*8), DI
	DECQ AX
	JNZ  transpose16x16w1step

	// Next tile: 16 source lines down, 16 destination columns right.
	MOVQ R8, AX
	SHLQ $4, AX
	ADDQ AX, CX
	ADDQ $16, DX
	DECQ BX
	JNZ  transpose16x16w1tile

transpose16x16w1done:
	VZEROUPPER
	RET

// func transpose16x64w1nt(dst, src unsafe.Pointer, steps, tiles, dstRow, srcRow int)
//
// transpose16x64w1nt is transpose16x16w1 in blocks of 16 source columns
// by 64 source lines (k < 64*tiles) with non-temporal stores (dst and
// dstRow multiples of 64 bytes), fenced before returning: the rows of
// the first three sub-blocks of 16 lines wait on the stack, so that each
// destination row receives its whole 64-byte line in two adjacent stores.
TEXT ·transpose16x64w1nt(SB), $768-48
	MOVQ dst+0(FP), DX
	MOVQ src+8(FP), CX
	MOVQ tiles+24(FP), BX
	MOVQ dstRow+32(FP), R11
	MOVQ srcRow+40(FP), R8
	LEAQ (R8)(R8*2), R9
	LEAQ (R11)(R11*2), R12
	CMPQ steps+16(FP), $0
	JLE  w1ntdone
	TESTQ BX, BX
	JLE  w1ntdone

w1nttile:
	MOVQ steps+16(FP), AX
	MOVQ CX, SI
	LEAQ (SI)(R8*4), R10
	LEAQ (R10)(R8*4), R14
	LEAQ (R14)(R8*4), R15
	MOVQ DX, DI

w1ntstep:
	PREFETCHNEXT
	LOADLINES
	TRANSPOSE8
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
	TRANSPOSE8
	VMOVDQU Y8, 256(SP)
	VMOVDQU Y9, 288(SP)
	VMOVDQU Y10, 320(SP)
	VMOVDQU Y11, 352(SP)
	VMOVDQU Y12, 384(SP)
	VMOVDQU Y13, 416(SP)
	VMOVDQU Y14, 448(SP)
	VMOVDQU Y15, 480(SP)
	MOVQ R8, R13
	SHLQ $4, R13
	ADDQ R13, SI
	ADDQ R13, R10
	ADDQ R13, R14
	ADDQ R13, R15
	PREFETCHNEXT
	LOADLINES
	TRANSPOSE8
	VMOVDQU Y8, 512(SP)
	VMOVDQU Y9, 544(SP)
	VMOVDQU Y10, 576(SP)
	VMOVDQU Y11, 608(SP)
	VMOVDQU Y12, 640(SP)
	VMOVDQU Y13, 672(SP)
	VMOVDQU Y14, 704(SP)
	VMOVDQU Y15, 736(SP)
	MOVQ R8, R13
	SHLQ $4, R13
	ADDQ R13, SI
	ADDQ R13, R10
	ADDQ R13, R14
	ADDQ R13, R15
	PREFETCHNEXT
	LOADLINES
	TRANSPOSE8
	MOVQ R8, R13
	SHLQ $4, R13
	IMULQ $3, R13
	SUBQ R13, SI
	SUBQ R13, R10
	SUBQ R13, R14
	SUBQ R13, R15
	LEAQ (DI)(R11*4), R13
	VMOVDQU    0(SP), Y4
	VMOVDQU    256(SP), Y5
	VMOVDQU    512(SP), Y6
	VPERM2I128 $0x20, Y5, Y4, Y0
	VPERM2I128 $0x20, Y8, Y6, Y1
	VPERM2I128 $0x31, Y5, Y4, Y2
	VPERM2I128 $0x31, Y8, Y6, Y3
	VMOVNTDQ   Y0, (DI)
	VMOVNTDQ   Y1, 32(DI)
	VMOVNTDQ   Y2, (DI)(R11*1)
	VMOVNTDQ   Y3, 32(DI)(R11*1)
	VMOVDQU    32(SP), Y4
	VMOVDQU    288(SP), Y5
	VMOVDQU    544(SP), Y6
	VPERM2I128 $0x20, Y5, Y4, Y0
	VPERM2I128 $0x20, Y9, Y6, Y1
	VPERM2I128 $0x31, Y5, Y4, Y2
	VPERM2I128 $0x31, Y9, Y6, Y3
	VMOVNTDQ   Y0, (DI)(R11*2)
	VMOVNTDQ   Y1, 32(DI)(R11*2)
	VMOVNTDQ   Y2, (DI)(R12*1)
	VMOVNTDQ   Y3, 32(DI)(R12*1)
	VMOVDQU    64(SP), Y4
	VMOVDQU    320(SP), Y5
	VMOVDQU    576(SP), Y6
	VPERM2I128 $0x20, Y5, Y4, Y0
	VPERM2I128 $0x20, Y10, Y6, Y1
	VPERM2I128 $0x31, Y5, Y4, Y2
	VPERM2I128 $0x31, Y10, Y6, Y3
	VMOVNTDQ   Y0, (R13)
	VMOVNTDQ   Y1, 32(R13)
	VMOVNTDQ   Y2, (R13)(R11*1)
	VMOVNTDQ   Y3, 32(R13)(R11*1)
	VMOVDQU    96(SP), Y4
	VMOVDQU    352(SP), Y5
	VMOVDQU    608(SP), Y6
	VPERM2I128 $0x20, Y5, Y4, Y0
	VPERM2I128 $0x20, Y11, Y6, Y1
	VPERM2I128 $0x31, Y5, Y4, Y2
	VPERM2I128 $0x31, Y11, Y6, Y3
	VMOVNTDQ   Y0, (R13)(R11*2)
	VMOVNTDQ   Y1, 32(R13)(R11*2)
	VMOVNTDQ   Y2, (R13)(R12*1)
	VMOVNTDQ   Y3, 32(R13)(R12*1)
	LEAQ (DI)(R11*8), R13
	VMOVDQU    128(SP), Y4
	VMOVDQU    384(SP), Y5
	VMOVDQU    640(SP), Y6
	VPERM2I128 $0x20, Y5, Y4, Y0
	VPERM2I128 $0x20, Y12, Y6, Y1
	VPERM2I128 $0x31, Y5, Y4, Y2
	VPERM2I128 $0x31, Y12, Y6, Y3
	VMOVNTDQ   Y0, (R13)
	VMOVNTDQ   Y1, 32(R13)
	VMOVNTDQ   Y2, (R13)(R11*1)
	VMOVNTDQ   Y3, 32(R13)(R11*1)
	VMOVDQU    160(SP), Y4
	VMOVDQU    416(SP), Y5
	VMOVDQU    672(SP), Y6
	VPERM2I128 $0x20, Y5, Y4, Y0
	VPERM2I128 $0x20, Y13, Y6, Y1
	VPERM2I128 $0x31, Y5, Y4, Y2
	VPERM2I128 $0x31, Y13, Y6, Y3
	VMOVNTDQ   Y0, (R13)(R11*2)
	VMOVNTDQ   Y1, 32(R13)(R11*2)
	VMOVNTDQ   Y2, (R13)(R12*1)
	VMOVNTDQ   Y3, 32(R13)(R12*1)
	LEAQ (R13)(R11*4), R13
	VMOVDQU    192(SP), Y4
	VMOVDQU    448(SP), Y5
	VMOVDQU    704(SP), Y6
	VPERM2I128 $0x20, Y5, Y4, Y0
	VPERM2I128 $0x20, Y14, Y6, Y1
	VPERM2I128 $0x31, Y5, Y4, Y2
	VPERM2I128 $0x31, Y14, Y6, Y3
	VMOVNTDQ   Y0, (R13)
	VMOVNTDQ   Y1, 32(R13)
	VMOVNTDQ   Y2, (R13)(R11*1)
	VMOVNTDQ   Y3, 32(R13)(R11*1)
	VMOVDQU    224(SP), Y4
	VMOVDQU    480(SP), Y5
	VMOVDQU    736(SP), Y6
	VPERM2I128 $0x20, Y5, Y4, Y0
	VPERM2I128 $0x20, Y15, Y6, Y1
	VPERM2I128 $0x31, Y5, Y4, Y2
	VPERM2I128 $0x31, Y15, Y6, Y3
	VMOVNTDQ   Y0, (R13)(R11*2)
	VMOVNTDQ   Y1, 32(R13)(R11*2)
	VMOVNTDQ   Y2, (R13)(R12*1)
	VMOVNTDQ   Y3, 32(R13)(R12*1)
	ADDQ $16, SI
	ADDQ $16, R10
	ADDQ $16, R14
	ADDQ $16, R15
	LEAQ (DI)(R11*8), DI
	LEAQ (DI)(R11*8), DI
	DECQ AX
	JNZ  w1ntstep

	// Next tile: 64 source lines down, 64 bytes of destination right.
	MOVQ R8, AX
	SHLQ $6, AX
	ADDQ AX, CX
	ADDQ $64, DX
	DECQ BX
	JNZ  w1nttile
	SFENCE

w1ntdone:
	VZEROUPPER
	RET
