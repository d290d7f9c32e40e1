//go:build !purego

#include "textflag.h"

// func divToF32x4(d, v unsafe.Pointer, n int, c float64)
// d[k] = float32(v[k] / c) for n elements (a multiple of 4): VDIVPD is
// IEEE division lane by lane and VCVTPD2PS rounds to nearest even, as
// DIVSD and CVTSD2SS do.
TEXT ·divToF32x4(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ v+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $2, CX
	VBROADCASTSD c+24(FP), Y1
div:
	VMOVUPD (SI), Y0
	VDIVPD Y1, Y0, Y0
	VCVTPD2PSY Y0, X0
	VMOVUPS X0, (DI)
	ADDQ $32, SI
	ADDQ $16, DI
	DECQ CX
	JNZ  div
	VZEROUPPER
	RET
