//go:build !purego

#include "textflag.h"

// func divF32x16PF(d, a unsafe.Pointer, n int, c float32, pf unsafe.Pointer, lines int)
// Sets d[j] = a[j] / c for n elements (a multiple of 16) with AVX-512
// VDIVPS, the bits of float32 division, and non-temporal stores (d
// 64-byte aligned), prefetching one of the lines 64-byte lines from pf
// each line stored, then those left.
TEXT ·divF32x16PF(SB), NOSPLIT, $0-48
	MOVQ         d+0(FP), DI
	MOVQ         a+8(FP), SI
	MOVQ         n+16(FP), CX
	VBROADCASTSS c+24(FP), Z2
	MOVQ         pf+32(FP), R8
	MOVQ         lines+40(FP), BX
	SHRQ         $4, CX

loop:
	VMOVUPS  (SI), Z0
	VDIVPS   Z2, Z0, Z0
	VMOVNTPS Z0, (DI)
	TESTQ    BX, BX
	JZ       next
	PREFETCHT0 (R8)
	ADDQ     $64, R8
	DECQ     BX

next:
	ADDQ $64, SI
	ADDQ $64, DI
	DECQ CX
	JNZ  loop
	SFENCE

rest:
	TESTQ BX, BX
	JZ    done
	PREFETCHT0 (R8)
	ADDQ  $64, R8
	DECQ  BX
	JMP   rest

done:
	VZEROUPPER
	RET
