//go:build !purego

#include "textflag.h"

// The 4-byte transposes below move a block of 8 source columns (i) by 16
// source lines (k) per step: the destination receives 8 rows of 16
// elements, one whole 64-byte line each when the destination is 64-byte
// aligned. Registers:
//
//	SI, R10, R14, R15  source lines 0, 4, 8 and 12 of the block
//	R8, R9             source line stride and 3 times it, in bytes
//	DI, R13            destination rows 0 and 4 of the block
//	R11, R12           destination row stride and 3 times it, in bytes
//	AX, BX             block counters (i steps, k tiles)
//	CX, DX             source and destination of the current k tile

// BLOCKARGS loads the arguments shared by transpose8x16 and transpose4x8
// (dst, src, steps, tiles, dstRow, srcRow, nt) into the registers above:
// the destination and source of the first tile, the tile count, and the
// two strides with their triples.
#define BLOCKARGS \
	MOVQ dst+0(FP), DX; \
	MOVQ src+8(FP), CX; \
	MOVQ tiles+24(FP), BX; \
	MOVQ dstRow+32(FP), R11; \
	MOVQ srcRow+40(FP), R8; \
	LEAQ (R8)(R8*2), R9; \
	LEAQ (R11)(R11*2), R12

// HALF transposes a 4x8 half block: columns OFF/4 to OFF/4+3 of source
// lines 0-3 (at LO) and 4-7 (at HI) become four destination rows of 8
// elements in O0-O3. Y0-Y3 and Y8-Y11 are scratch. The inserts put lines
// 4-7 in the upper lanes, so an in-lane 4x4 transpose finishes the job.
#define HALF(OFF, LO, HI, O0, O1, O2, O3) \
	VMOVUPS     OFF(LO), X0; \
	VINSERTF128 $1, OFF(HI), Y0, Y0; \
	VMOVUPS     OFF(LO)(R8*1), X1; \
	VINSERTF128 $1, OFF(HI)(R8*1), Y1, Y1; \
	VMOVUPS     OFF(LO)(R8*2), X2; \
	VINSERTF128 $1, OFF(HI)(R8*2), Y2, Y2; \
	VMOVUPS     OFF(LO)(R9*1), X3; \
	VINSERTF128 $1, OFF(HI)(R9*1), Y3, Y3; \
	VUNPCKLPS   Y1, Y0, Y8; \
	VUNPCKHPS   Y1, Y0, Y9; \
	VUNPCKLPS   Y3, Y2, Y10; \
	VUNPCKHPS   Y3, Y2, Y11; \
	VSHUFPS     $0x44, Y10, Y8, O0; \
	VSHUFPS     $0xEE, Y10, Y8, O1; \
	VSHUFPS     $0x44, Y11, Y9, O2; \
	VSHUFPS     $0xEE, Y11, Y9, O3

// ROWS stores four destination rows of 16 elements at BASE: the first 8
// of each from Y12-Y15 (source lines 0-7), the last 8 from Y4-Y7 (lines
// 8-15), so each row is written in two adjacent stores.
#define ROWS(STORE, BASE) \
	STORE Y12, (BASE); \
	STORE Y4, 32(BASE); \
	STORE Y13, (BASE)(R11*1); \
	STORE Y5, 32(BASE)(R11*1); \
	STORE Y14, (BASE)(R11*2); \
	STORE Y6, 32(BASE)(R11*2); \
	STORE Y15, (BASE)(R12*1); \
	STORE Y7, 32(BASE)(R12*1)

// func transpose8x16(dst, src unsafe.Pointer, steps, tiles, dstRow, srcRow int, nt bool)
//
// For each of tiles tiles of 16 source lines, for each of steps steps of
// 8 columns, transpose8x16 copies one 8x16 block. With nt the stores are
// non-temporal (dst and dstRow must then be multiples of 32 bytes) and are
// fenced before returning.
TEXT ·transpose8x16(SB), NOSPLIT, $0-49
	BLOCKARGS
	CMPQ steps+16(FP), $0
	JLE  done
	TESTQ BX, BX
	JLE  done

tile:
	MOVQ steps+16(FP), AX
	MOVQ CX, SI
	LEAQ (SI)(R8*4), R10
	LEAQ (R10)(R8*4), R14
	LEAQ (R14)(R8*4), R15
	MOVQ DX, DI

step:
	// Prefetch what this step of the next tile reads (16 source lines
	// further): a tile of a 64-column float32 matrix is one 4 KiB page,
	// where the hardware prefetchers start over.
	LEAQ       (R15)(R8*4), R13
	PREFETCHT0 (R13)
	PREFETCHT0 (R13)(R8*1)
	PREFETCHT0 (R13)(R8*2)
	PREFETCHT0 (R13)(R9*1)
	LEAQ       (R13)(R8*4), R13
	PREFETCHT0 (R13)
	PREFETCHT0 (R13)(R8*1)
	PREFETCHT0 (R13)(R8*2)
	PREFETCHT0 (R13)(R9*1)
	LEAQ       (R13)(R8*4), R13
	PREFETCHT0 (R13)
	PREFETCHT0 (R13)(R8*1)
	PREFETCHT0 (R13)(R8*2)
	PREFETCHT0 (R13)(R9*1)
	LEAQ       (R13)(R8*4), R13
	PREFETCHT0 (R13)
	PREFETCHT0 (R13)(R8*1)
	PREFETCHT0 (R13)(R8*2)
	PREFETCHT0 (R13)(R9*1)
	LEAQ (DI)(R11*4), R13
	HALF(0, SI, R10, Y12, Y13, Y14, Y15)
	HALF(0, R14, R15, Y4, Y5, Y6, Y7)
	CMPB nt+48(FP), $0
	JNE  nt0
	ROWS(VMOVUPS, DI)
	JMP  second

nt0:
	ROWS(VMOVNTPS, DI)

second:
	HALF(16, SI, R10, Y12, Y13, Y14, Y15)
	HALF(16, R14, R15, Y4, Y5, Y6, Y7)
	CMPB nt+48(FP), $0
	JNE  nt1
	ROWS(VMOVUPS, R13)
	JMP  next

nt1:
	ROWS(VMOVNTPS, R13)

next:
	ADDQ $32, SI
	ADDQ $32, R10
	ADDQ $32, R14
	ADDQ $32, R15
	LEAQ (DI)(R11*8), DI
	DECQ AX
	JNZ  step

	// Next tile: 16 source lines down, 16 destination columns right.
	MOVQ R8, AX
	SHLQ $4, AX
	ADDQ AX, CX
	ADDQ $64, DX
	DECQ BX
	JNZ  tile
	CMPB nt+48(FP), $0
	JEQ  done
	SFENCE

done:
	VZEROUPPER
	RET

// HALF64 transposes a 4x4 block of 8-byte elements: the first 4 columns
// of source lines 0-3 at LO become four destination rows of 4 elements in
// O0-O3. Y0-Y3 are scratch; the inserts put lines 2 and 3 in the upper
// lanes, so in-lane unpacks finish the job.
#define HALF64(LO, O0, O1, O2, O3) \
	VMOVUPD     (LO), X0; \
	VINSERTF128 $1, (LO)(R8*2), Y0, Y0; \
	VMOVUPD     (LO)(R8*1), X1; \
	VINSERTF128 $1, (LO)(R9*1), Y1, Y1; \
	VMOVUPD     16(LO), X2; \
	VINSERTF128 $1, 16(LO)(R8*2), Y2, Y2; \
	VMOVUPD     16(LO)(R8*1), X3; \
	VINSERTF128 $1, 16(LO)(R9*1), Y3, Y3; \
	VUNPCKLPD   Y1, Y0, O0; \
	VUNPCKHPD   Y1, Y0, O1; \
	VUNPCKLPD   Y3, Y2, O2; \
	VUNPCKHPD   Y3, Y2, O3

// ROWS64 stores four destination rows of 8 elements at DI: the first 4 of
// each from Y4-Y7 (source lines 0-3), the last 4 from Y8-Y11 (lines 4-7).
#define ROWS64(STORE) \
	STORE Y4, (DI); \
	STORE Y8, 32(DI); \
	STORE Y5, (DI)(R11*1); \
	STORE Y9, 32(DI)(R11*1); \
	STORE Y6, (DI)(R11*2); \
	STORE Y10, 32(DI)(R11*2); \
	STORE Y7, (DI)(R12*1); \
	STORE Y11, 32(DI)(R12*1)

// func transpose4x8(dst, src unsafe.Pointer, steps, tiles, dstRow, srcRow int, nt bool)
//
// transpose4x8 is transpose8x16 for 8-byte elements: for each of tiles
// tiles of 8 source lines, for each of steps steps of 4 columns, one 4x8
// block, which writes 64 bytes to each of 4 destination rows. Registers
// as in transpose8x16, with SI and R10 at source lines 0 and 4.
TEXT ·transpose4x8(SB), NOSPLIT, $0-49
	BLOCKARGS
	CMPQ steps+16(FP), $0
	JLE  done64
	TESTQ BX, BX
	JLE  done64

tile64:
	MOVQ steps+16(FP), AX
	MOVQ CX, SI
	LEAQ (SI)(R8*4), R10
	MOVQ DX, DI

step64:
	HALF64(SI, Y4, Y5, Y6, Y7)
	HALF64(R10, Y8, Y9, Y10, Y11)
	CMPB nt+48(FP), $0
	JNE  nt64
	ROWS64(VMOVUPD)
	JMP  next64

nt64:
	ROWS64(VMOVNTPD)

next64:
	ADDQ $32, SI
	ADDQ $32, R10
	LEAQ (DI)(R11*4), DI
	DECQ AX
	JNZ  step64

	// Next tile: 8 source lines down, 8 destination columns right.
	MOVQ R8, AX
	SHLQ $3, AX
	ADDQ AX, CX
	ADDQ $64, DX
	DECQ BX
	JNZ  tile64
	CMPB nt+48(FP), $0
	JEQ  done64
	SFENCE

done64:
	VZEROUPPER
	RET

// VPERMPS indexes that put the channels gathered by the blends of
// deinterleave3x16 back in pixel order: for R, G and B.
DATA deint3<>+0(SB)/4, $0
DATA deint3<>+4(SB)/4, $3
DATA deint3<>+8(SB)/4, $6
DATA deint3<>+12(SB)/4, $1
DATA deint3<>+16(SB)/4, $4
DATA deint3<>+20(SB)/4, $7
DATA deint3<>+24(SB)/4, $2
DATA deint3<>+28(SB)/4, $5
DATA deint3<>+32(SB)/4, $1
DATA deint3<>+36(SB)/4, $4
DATA deint3<>+40(SB)/4, $7
DATA deint3<>+44(SB)/4, $2
DATA deint3<>+48(SB)/4, $5
DATA deint3<>+52(SB)/4, $0
DATA deint3<>+56(SB)/4, $3
DATA deint3<>+60(SB)/4, $6
DATA deint3<>+64(SB)/4, $2
DATA deint3<>+68(SB)/4, $5
DATA deint3<>+72(SB)/4, $0
DATA deint3<>+76(SB)/4, $3
DATA deint3<>+80(SB)/4, $6
DATA deint3<>+84(SB)/4, $1
DATA deint3<>+88(SB)/4, $4
DATA deint3<>+92(SB)/4, $7
GLOBL deint3<>(SB), RODATA|NOPTR, $96

// SPLIT3 splits 8 pixels of 3 channels in X0, X1, X2 (24 elements in
// pixel order) into the channels R, G, B (8 elements each). Element j of
// the three inputs holds channel (j + 0), (j + 2), (j + 1) mod 3 of some
// pixel, so two blends per channel gather its 8 elements (masks 0x49,
// 0x92 and 0x24 select j mod 3 = 0, 1 and 2) and one VPERMPS (indexes in
// Y13-Y15) orders them. T is scratch.
#define SPLIT3(X0, X1, X2, R, G, B, T) \
	VBLENDPS $0x92, X1, X0, T; \
	VBLENDPS $0x24, X2, T, T; \
	VPERMPS  T, Y13, R; \
	VBLENDPS $0x24, X1, X0, T; \
	VBLENDPS $0x49, X2, T, T; \
	VPERMPS  T, Y14, G; \
	VBLENDPS $0x49, X1, X0, T; \
	VBLENDPS $0x92, X2, T, T; \
	VPERMPS  T, Y15, B

// func deinterleave3x16(dst, src unsafe.Pointer, groups, dstRow int, nt bool)
//
// deinterleave3x16 splits groups groups of 16 pixels of 3 channels of
// 4-byte elements at src into three planes dstRow bytes apart from dst, 64
// bytes per plane and group. With nt the stores are non-temporal (dst and
// dstRow must then be multiples of 32 bytes) and are fenced before
// returning.
TEXT ·deinterleave3x16(SB), NOSPLIT, $0-33
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ groups+16(FP), CX
	MOVQ dstRow+24(FP), R8
	TESTQ CX, CX
	JLE  ddone
	VMOVDQU deint3<>+0(SB), Y13
	VMOVDQU deint3<>+32(SB), Y14
	VMOVDQU deint3<>+64(SB), Y15

dloop:
	VMOVUPS 0(SI), Y0
	VMOVUPS 32(SI), Y1
	VMOVUPS 64(SI), Y2
	VMOVUPS 96(SI), Y7
	VMOVUPS 128(SI), Y8
	VMOVUPS 160(SI), Y9
	SPLIT3(Y0, Y1, Y2, Y4, Y5, Y6, Y3)
	SPLIT3(Y7, Y8, Y9, Y10, Y11, Y12, Y3)
	CMPB nt+32(FP), $0
	JNE  dnt
	VMOVUPS Y4, (DI)
	VMOVUPS Y10, 32(DI)
	VMOVUPS Y5, (DI)(R8*1)
	VMOVUPS Y11, 32(DI)(R8*1)
	VMOVUPS Y6, (DI)(R8*2)
	VMOVUPS Y12, 32(DI)(R8*2)
	JMP  dnext

dnt:
	VMOVNTPS Y4, (DI)
	VMOVNTPS Y10, 32(DI)
	VMOVNTPS Y5, (DI)(R8*1)
	VMOVNTPS Y11, 32(DI)(R8*1)
	VMOVNTPS Y6, (DI)(R8*2)
	VMOVNTPS Y12, 32(DI)(R8*2)

dnext:
	ADDQ $192, SI
	ADDQ $64, DI
	DECQ CX
	JNZ  dloop
	CMPB nt+32(FP), $0
	JEQ  ddone
	SFENCE

ddone:
	VZEROUPPER
	RET
