//go:build !purego

#include "textflag.h"

// Masks: the low byte or word of each dword, and the bits above it.
DATA narrowLow8<>+0(SB)/8, $0x000000ff000000ff
GLOBL narrowLow8<>(SB), RODATA|NOPTR, $8
DATA narrowHigh8<>+0(SB)/8, $0xffffff00ffffff00
GLOBL narrowHigh8<>(SB), RODATA|NOPTR, $8
DATA narrowLow16<>+0(SB)/8, $0x0000ffff0000ffff
GLOBL narrowLow16<>(SB), RODATA|NOPTR, $8
DATA narrowHigh16<>+0(SB)/8, $0xffff0000ffff0000
GLOBL narrowHigh16<>(SB), RODATA|NOPTR, $8

// The dword order that undoes the lane interleaving of two packs.
DATA narrowPerm<>+0(SB)/4, $0
DATA narrowPerm<>+4(SB)/4, $4
DATA narrowPerm<>+8(SB)/4, $1
DATA narrowPerm<>+12(SB)/4, $5
DATA narrowPerm<>+16(SB)/4, $2
DATA narrowPerm<>+20(SB)/4, $6
DATA narrowPerm<>+24(SB)/4, $3
DATA narrowPerm<>+28(SB)/4, $7
GLOBL narrowPerm<>(SB), RODATA|NOPTR, $32

// NARROWARGS loads the arguments shared by the kernels below: dst in DI,
// src in SI, steps in CX and bias broadcast to the dwords of Y15.
#define NARROWARGS \
	MOVQ dst+0(FP), DI; \
	MOVQ src+8(FP), SI; \
	MOVQ steps+16(FP), CX; \
	MOVL bias+24(FP), AX; \
	MOVQ AX, X15; \
	VPBROADCASTD X15, Y15

// func narrow8x32(dst, src unsafe.Pointer, steps int, bias uint32) bool
//
// Each step reads 32 dwords (Y0-Y3), ORs them plus bias into Y14, keeps
// their low bytes (AND), packs dwords to words to bytes (both packs work
// per 128-bit lane, so the 4-byte groups come out interleaved) and puts
// the groups in order with VPERMD: 32 bytes out.
TEXT ·narrow8x32(SB), NOSPLIT, $0-33
	NARROWARGS
	VPBROADCASTQ narrowLow8<>(SB), Y13
	VMOVDQU narrowPerm<>(SB), Y12
	VPXOR Y14, Y14, Y14

loop8:
	VMOVDQU 0(SI), Y0
	VMOVDQU 32(SI), Y1
	VMOVDQU 64(SI), Y2
	VMOVDQU 96(SI), Y3
	VPADDD Y15, Y0, Y4
	VPADDD Y15, Y1, Y5
	VPADDD Y15, Y2, Y6
	VPADDD Y15, Y3, Y7
	VPOR Y4, Y5, Y4
	VPOR Y6, Y7, Y6
	VPOR Y4, Y6, Y4
	VPOR Y4, Y14, Y14
	VPAND Y13, Y0, Y0
	VPAND Y13, Y1, Y1
	VPAND Y13, Y2, Y2
	VPAND Y13, Y3, Y3
	VPACKUSDW Y1, Y0, Y0
	VPACKUSDW Y3, Y2, Y2
	VPACKUSWB Y2, Y0, Y0
	VPERMD Y0, Y12, Y0
	VMOVDQU Y0, 0(DI)
	ADDQ $128, SI
	ADDQ $32, DI
	DECQ CX
	JNZ loop8

	VPBROADCASTQ narrowHigh8<>(SB), Y13
	VPTEST Y13, Y14
	SETEQ ret+32(FP)
	VZEROUPPER
	RET

// func narrow16x16(dst, src unsafe.Pointer, steps int, bias uint32) bool
//
// Each step reads 16 dwords (Y0, Y1), checks them as narrow8x32 does,
// keeps their low words and packs them; VPERMQ puts the 8-byte groups
// in order: 32 bytes out.
TEXT ·narrow16x16(SB), NOSPLIT, $0-33
	NARROWARGS
	VPBROADCASTQ narrowLow16<>(SB), Y13
	VPXOR Y14, Y14, Y14

loop16:
	VMOVDQU 0(SI), Y0
	VMOVDQU 32(SI), Y1
	VPADDD Y15, Y0, Y4
	VPADDD Y15, Y1, Y5
	VPOR Y4, Y5, Y4
	VPOR Y4, Y14, Y14
	VPAND Y13, Y0, Y0
	VPAND Y13, Y1, Y1
	VPACKUSDW Y1, Y0, Y0
	VPERMQ $0xd8, Y0, Y0
	VMOVDQU Y0, 0(DI)
	ADDQ $64, SI
	ADDQ $32, DI
	DECQ CX
	JNZ loop16

	VPBROADCASTQ narrowHigh16<>(SB), Y13
	VPTEST Y13, Y14
	SETEQ ret+32(FP)
	VZEROUPPER
	RET
