//go:build !purego

#include "textflag.h"

// Masks of the six rounds of a 64x64 bit-matrix transpose: the low s bits
// of every 2s.
DATA bitsMask32<>+0(SB)/8, $0x00000000FFFFFFFF
GLOBL bitsMask32<>(SB), RODATA|NOPTR, $8
DATA bitsMask16<>+0(SB)/8, $0x0000FFFF0000FFFF
GLOBL bitsMask16<>(SB), RODATA|NOPTR, $8
DATA bitsMask8<>+0(SB)/8, $0x00FF00FF00FF00FF
GLOBL bitsMask8<>(SB), RODATA|NOPTR, $8
DATA bitsMask4<>+0(SB)/8, $0x0F0F0F0F0F0F0F0F
GLOBL bitsMask4<>(SB), RODATA|NOPTR, $8
DATA bitsMask2<>+0(SB)/8, $0x3333333333333333
GLOBL bitsMask2<>(SB), RODATA|NOPTR, $8
DATA bitsMask1<>+0(SB)/8, $0x5555555555555555
GLOBL bitsMask1<>(SB), RODATA|NOPTR, $8

// SWAP exchanges the s x s blocks of rows a..a+3 (columns s..2s-1) and
// rows b..b+3 (columns 0..s-1), a and b in bytes: t = (A>>s ^ B) & mask,
// A ^= t<<s, B ^= t. Y15 holds the mask.
#define SWAP(a, b, s) \
	VMOVDQU a(AX), Y0 \
	VMOVDQU b(AX), Y1 \
	VPSRLQ  $s, Y0, Y2 \
	VPXOR   Y1, Y2, Y2 \
	VPAND   Y15, Y2, Y2 \
	VPSLLQ  $s, Y2, Y3 \
	VPXOR   Y3, Y0, Y0 \
	VPXOR   Y2, Y1, Y1 \
	VMOVDQU Y0, a(AX) \
	VMOVDQU Y1, b(AX)

// INNER does the rounds s = 2 and s = 1 on rows a..a+3 (a in bytes), whose
// pairs lie in one register: VPERMQ brings each row's partner beside it
// and VPBLENDD takes t<<s for the upper row of a pair and t for the lower
// one. Y13 and Y14 hold the masks of rounds 2 and 1.
#define INNER(a) \
	VMOVDQU  a(AX), Y0 \
	VPERMQ   $0x4E, Y0, Y1 \
	VPSRLQ   $2, Y0, Y2 \
	VPXOR    Y1, Y2, Y2 \
	VPAND    Y13, Y2, Y2 \
	VPSLLQ   $2, Y2, Y3 \
	VPERMQ   $0x4E, Y2, Y4 \
	VPBLENDD $0xF0, Y4, Y3, Y5 \
	VPXOR    Y5, Y0, Y0 \
	VPERMQ   $0xB1, Y0, Y1 \
	VPSRLQ   $1, Y0, Y2 \
	VPXOR    Y1, Y2, Y2 \
	VPAND    Y14, Y2, Y2 \
	VPSLLQ   $1, Y2, Y3 \
	VPERMQ   $0xB1, Y2, Y4 \
	VPBLENDD $0xCC, Y4, Y3, Y5 \
	VPXOR    Y5, Y0, Y0 \
	VMOVDQU  Y0, a(AX)

// func transposeBits64AVX2(m *[64]uint64)
TEXT ·transposeBits64AVX2(SB), NOSPLIT, $0-8
	MOVQ m+0(FP), AX
	VPBROADCASTQ bitsMask32<>(SB), Y15
	SWAP(0, 256, 32)
	SWAP(32, 288, 32)
	SWAP(64, 320, 32)
	SWAP(96, 352, 32)
	SWAP(128, 384, 32)
	SWAP(160, 416, 32)
	SWAP(192, 448, 32)
	SWAP(224, 480, 32)
	VPBROADCASTQ bitsMask16<>(SB), Y15
	SWAP(0, 128, 16)
	SWAP(32, 160, 16)
	SWAP(64, 192, 16)
	SWAP(96, 224, 16)
	SWAP(256, 384, 16)
	SWAP(288, 416, 16)
	SWAP(320, 448, 16)
	SWAP(352, 480, 16)
	VPBROADCASTQ bitsMask8<>(SB), Y15
	SWAP(0, 64, 8)
	SWAP(32, 96, 8)
	SWAP(128, 192, 8)
	SWAP(160, 224, 8)
	SWAP(256, 320, 8)
	SWAP(288, 352, 8)
	SWAP(384, 448, 8)
	SWAP(416, 480, 8)
	VPBROADCASTQ bitsMask4<>(SB), Y15
	SWAP(0, 32, 4)
	SWAP(64, 96, 4)
	SWAP(128, 160, 4)
	SWAP(192, 224, 4)
	SWAP(256, 288, 4)
	SWAP(320, 352, 4)
	SWAP(384, 416, 4)
	SWAP(448, 480, 4)
	VPBROADCASTQ bitsMask2<>(SB), Y13
	VPBROADCASTQ bitsMask1<>(SB), Y14
	INNER(0)
	INNER(32)
	INNER(64)
	INNER(96)
	INNER(128)
	INNER(160)
	INNER(192)
	INNER(224)
	INNER(256)
	INNER(288)
	INNER(320)
	INNER(352)
	INNER(384)
	INNER(416)
	INNER(448)
	INNER(480)
	VZEROUPPER
	RET
