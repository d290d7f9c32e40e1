//go:build !purego

#include "textflag.h"

// BININT defines NAME(d, a, b unsafe.Pointer, n int): d[j] = a[j] INSTR
// b[j] over n bytes, a multiple of 32, for the lanes of INSTR (words,
// double words; signed or unsigned for the minima and maxima). d may be
// a or b.
#define BININT(NAME, INSTR) \
TEXT NAME(SB), NOSPLIT, $0-32; \
	MOVQ d+0(FP), DI; \
	MOVQ a+8(FP), SI; \
	MOVQ b+16(FP), DX; \
	MOVQ n+24(FP), CX; \
	SHRQ $5, CX; \
loop: \
	VMOVDQU (SI), Y0; \
	INSTR (DX), Y0, Y0; \
	VMOVDQU Y0, (DI); \
	ADDQ $32, DI; \
	ADDQ $32, SI; \
	ADDQ $32, DX; \
	DECQ CX; \
	JNZ  loop; \
	VZEROUPPER; \
	RET

BININT(·minI8x32, VPMINSB)
BININT(·maxI8x32, VPMAXSB)
BININT(·addI16x32, VPADDW)
BININT(·subI16x32, VPSUBW)
BININT(·mulI16x32, VPMULLW)
BININT(·minI16x32, VPMINSW)
BININT(·maxI16x32, VPMAXSW)
BININT(·minU16x32, VPMINUW)
BININT(·maxU16x32, VPMAXUW)
BININT(·addI32x32, VPADDD)
BININT(·subI32x32, VPSUBD)
BININT(·mulI32x32, VPMULLD)
BININT(·minI32x32, VPMINSD)
BININT(·maxI32x32, VPMAXSD)
BININT(·minU32x32, VPMINUD)
BININT(·maxU32x32, VPMAXUD)
