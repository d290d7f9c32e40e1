//go:build !purego

#include "textflag.h"

#include "binop_amd64.h"

// BIN defines NAME(d, a, b unsafe.Pointer, n int): d[j] = a[j] INSTR
// b[j] over n bytes, a multiple of 32, for the lanes of INSTR (bytes,
// words, double words; signed or unsigned for the minima and maxima). d
// may be a or b.
#define BIN(NAME, INSTR) BINOP(NAME, INSTR, Y1, Y0, 5)

BIN(·addU8x32, VPADDB)
BIN(·subU8x32, VPSUBB)
BIN(·minU8x32, VPMINUB)
BIN(·maxU8x32, VPMAXUB)
BIN(·andU8x32, VPAND)
BIN(·orU8x32, VPOR)
BIN(·xorU8x32, VPXOR)

// The other integer widths.
BIN(·minI8x32, VPMINSB)
BIN(·maxI8x32, VPMAXSB)
BIN(·addI16x32, VPADDW)
BIN(·subI16x32, VPSUBW)
BIN(·mulI16x32, VPMULLW)
BIN(·minI16x32, VPMINSW)
BIN(·maxI16x32, VPMAXSW)
BIN(·minU16x32, VPMINUW)
BIN(·maxU16x32, VPMAXUW)
BIN(·addI32x32, VPADDD)
BIN(·subI32x32, VPSUBD)
BIN(·mulI32x32, VPMULLD)
BIN(·minI32x32, VPMINSD)
BIN(·maxI32x32, VPMAXSD)
BIN(·minU32x32, VPMINUD)
BIN(·maxU32x32, VPMAXUD)

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
