//go:build !purego

#include "textflag.h"

// BINU8 defines NAME(d, a, b unsafe.Pointer, n int): d[j] = a[j] INSTR
// b[j] for n bytes, a multiple of 32. d may be a or b.
#define BINU8(NAME, INSTR) \
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

BINU8(·addU8x32, VPADDB)
BINU8(·subU8x32, VPSUBB)
BINU8(·minU8x32, VPMINUB)
BINU8(·maxU8x32, VPMAXUB)
BINU8(·andU8x32, VPAND)
BINU8(·orU8x32, VPOR)
BINU8(·xorU8x32, VPXOR)
