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

// func mulU8x32(d, a, b unsafe.Pointer, n int): d[j] = a[j] * b[j]
// modulo 256 for n bytes, a multiple of 32. AVX2 has no byte product:
// VPMULLW of the words leaves the products of the even bytes in their
// low bytes (the high bytes do not reach them), VPMULLW of the words
// shifted right by 8 those of the odd bytes, which VPSLLW moves into
// the high bytes; the mask of the low bytes joins them. d may be a or b.
TEXT ·mulU8x32(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	SHRQ $5, CX
	MOVL $0x00ff00ff, AX
	MOVQ AX, X7
	VPBROADCASTD X7, Y7
mloop:
	VMOVDQU (SI), Y0
	VMOVDQU (DX), Y1
	VPMULLW Y1, Y0, Y2
	VPSRLW  $8, Y0, Y0
	VPSRLW  $8, Y1, Y1
	VPMULLW Y1, Y0, Y0
	VPSLLW  $8, Y0, Y0
	VPAND   Y7, Y2, Y2
	VPOR    Y2, Y0, Y0
	VMOVDQU Y0, (DI)
	ADDQ    $32, DI
	ADDQ    $32, SI
	ADDQ    $32, DX
	DECQ    CX
	JNZ     mloop
	VZEROUPPER
	RET
