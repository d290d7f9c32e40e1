//go:build !purego

#include "textflag.h"

// func copyNT(dst, src unsafe.Pointer, n int)
//
// copyNT copies n bytes, a multiple of 64, from src to dst, which is
// 16-byte aligned, with non-temporal stores, then fences them.
TEXT ·copyNT(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $6, CX
	JZ   done

loop:
	PREFETCHNTA 0x200(SI)
	MOVOU  0(SI), X0
	MOVOU  16(SI), X1
	MOVOU  32(SI), X2
	MOVOU  48(SI), X3
	MOVNTO X0, 0(DI)
	MOVNTO X1, 16(DI)
	MOVNTO X2, 32(DI)
	MOVNTO X3, 48(DI)
	ADDQ   $64, SI
	ADDQ   $64, DI
	DECQ   CX
	JNZ    loop

done:
	SFENCE
	RET

// func copyNT32(dst, src unsafe.Pointer, n int)
//
// copyNT32 is copyNT with 32-byte AVX moves and without the software
// prefetch: dst must be 32-byte aligned.
TEXT ·copyNT32(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ CX, AX
	SHRQ $7, CX
	JZ   half32

loop32:
	VMOVUPS  0(SI), Y0
	VMOVUPS  32(SI), Y1
	VMOVUPS  64(SI), Y2
	VMOVUPS  96(SI), Y3
	VMOVNTPS Y0, 0(DI)
	VMOVNTPS Y1, 32(DI)
	VMOVNTPS Y2, 64(DI)
	VMOVNTPS Y3, 96(DI)
	ADDQ     $128, SI
	ADDQ     $128, DI
	DECQ     CX
	JNZ      loop32

half32:
	ANDQ     $64, AX
	JZ       done32
	VMOVUPS  0(SI), Y0
	VMOVUPS  32(SI), Y1
	VMOVNTPS Y0, 0(DI)
	VMOVNTPS Y1, 32(DI)

done32:
	SFENCE
	VZEROUPPER
	RET

// func interleave3NT(dst, src unsafe.Pointer, pairs, ss int)
//
// interleave3NT is interleave3x32 with non-temporal stores: it writes
// pairs pairs of pixels of three planes of 4-byte elements, ss bytes
// apart from src, to dst as (c0, c1, c2) triples, then fences the stores.
TEXT ·interleave3NT(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ pairs+16(FP), CX
	MOVQ ss+24(FP), DX
	LEAQ (SI)(DX*1), R8
	LEAQ (R8)(DX*1), R9
	TESTQ CX, CX
	JZ   done3

loop3:
	MOVQ    (SI), AX
	MOVQ    (R8), BX
	MOVQ    (R9), R11
	MOVL    AX, R12
	MOVQ    BX, R13
	SHLQ    $32, R13
	ORQ     R13, R12
	MOVNTIQ R12, (DI)
	MOVL    R11, R12
	MOVQ    AX, R13
	SHRQ    $32, R13
	SHLQ    $32, R13
	ORQ     R13, R12
	MOVNTIQ R12, 8(DI)
	MOVQ    BX, R12
	SHRQ    $32, R12
	MOVQ    R11, R13
	SHRQ    $32, R13
	SHLQ    $32, R13
	ORQ     R13, R12
	MOVNTIQ R12, 16(DI)
	ADDQ    $8, SI
	ADDQ    $8, R8
	ADDQ    $8, R9
	ADDQ    $24, DI
	DECQ    CX
	JNZ     loop3

done3:
	SFENCE
	RET
