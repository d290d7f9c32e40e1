//go:build !purego

#include "textflag.h"

// unpackShuf spreads 4 bytes over 32: byte k of the (broadcast) source
// into bytes 8k..8k+7, within each 128-bit lane (bytes 0 and 1 in the
// low lane, 2 and 3 in the high one).
DATA unpackShuf<>+0(SB)/8, $0x0000000000000000
DATA unpackShuf<>+8(SB)/8, $0x0101010101010101
DATA unpackShuf<>+16(SB)/8, $0x0202020202020202
DATA unpackShuf<>+24(SB)/8, $0x0303030303030303
GLOBL unpackShuf<>(SB), RODATA|NOPTR, $32

// unpackBit selects bit j of byte j mod 8.
DATA unpackBit<>+0(SB)/8, $0x8040201008040201
DATA unpackBit<>+8(SB)/8, $0x8040201008040201
DATA unpackBit<>+16(SB)/8, $0x8040201008040201
DATA unpackBit<>+24(SB)/8, $0x8040201008040201
GLOBL unpackBit<>(SB), RODATA|NOPTR, $32

// func packBoolsAVX2(dst, src *byte, n int)
TEXT ·packBoolsAVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	VPXOR Y0, Y0, Y0

loop:
	VPCMPEQB  (SI), Y0, Y1 // 0xff where the byte is 0
	VPMOVMSKB Y1, AX
	NOTL      AX
	MOVL      AX, (DI)
	ADDQ      $32, SI
	ADDQ      $4, DI
	SUBQ      $4, CX
	JNZ       loop
	VZEROUPPER
	RET

// func unpackBoolsAVX2(dst, src *byte, n int)
TEXT ·unpackBoolsAVX2(SB), NOSPLIT, $0-24
	MOVQ    dst+0(FP), DI
	MOVQ    src+8(FP), SI
	MOVQ    n+16(FP), CX
	VMOVDQU unpackShuf<>(SB), Y2
	VMOVDQU unpackBit<>(SB), Y3
	MOVL    $0x01010101, AX
	MOVD    AX, X4
	VPBROADCASTD X4, Y4 // 1 in every byte

loop:
	VPBROADCASTD (SI), Y0
	VPSHUFB      Y2, Y0, Y0
	VPAND        Y3, Y0, Y0
	VPCMPEQB     Y3, Y0, Y0 // 0xff where the bit is set
	VPAND        Y4, Y0, Y0
	VMOVDQU      Y0, (DI)
	ADDQ         $4, SI
	ADDQ         $32, DI
	SUBQ         $4, CX
	JNZ          loop
	VZEROUPPER
	RET
