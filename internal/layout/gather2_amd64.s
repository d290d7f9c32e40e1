//go:build !purego

#include "textflag.h"

// func gatherEven4(dst, src unsafe.Pointer, n int)
// dst[i] = src[2*i] for n 4-byte elements, n a multiple of 8: two loads
// of 8 elements, VSHUFPS keeps the even ones of each 128-bit lane and
// VPERMPD puts the lanes' halves in order. It reads src[2*n-1], one
// element past the last it keeps.
TEXT ·gatherEven4(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $3, CX
	JZ   done

loop:
	VMOVUPS 0(SI), Y0
	VMOVUPS 32(SI), Y1
	VSHUFPS $0x88, Y1, Y0, Y2
	VPERMPD $0xD8, Y2, Y2
	VMOVUPS Y2, 0(DI)
	ADDQ $64, SI
	ADDQ $32, DI
	DECQ CX
	JNZ  loop

done:
	VZEROUPPER
	RET
