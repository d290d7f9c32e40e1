//go:build !purego

#include "textflag.h"

// PF is how far ahead (in bytes) chainF32x64 prefetches its source, as
// the reduction kernels of kernels_amd64.s do.
#define PF 2048

// APPLY8 applies INSTR with the constant registers Y8-Y15 to Y0-Y7, as
// INSTR K, V, V (v op k) or, with REV, INSTR V, K, V (k op v).
#define APPLY8(INSTR) \
	INSTR Y8, Y0, Y0; \
	INSTR Y9, Y1, Y1; \
	INSTR Y10, Y2, Y2; \
	INSTR Y11, Y3, Y3; \
	INSTR Y12, Y4, Y4; \
	INSTR Y13, Y5, Y5; \
	INSTR Y14, Y6, Y6; \
	INSTR Y15, Y7, Y7

#define APPLY8REV(INSTR) \
	INSTR Y0, Y8, Y0; \
	INSTR Y1, Y9, Y1; \
	INSTR Y2, Y10, Y2; \
	INSTR Y3, Y11, Y3; \
	INSTR Y4, Y12, Y4; \
	INSTR Y5, Y13, Y5; \
	INSTR Y6, Y14, Y6; \
	INSTR Y7, Y15, Y7

// APPLY8S and APPLY8SREV are APPLY8 and APPLY8REV with the one scalar
// register Y8.
#define APPLY8S(INSTR) \
	INSTR Y8, Y0, Y0; \
	INSTR Y8, Y1, Y1; \
	INSTR Y8, Y2, Y2; \
	INSTR Y8, Y3, Y3; \
	INSTR Y8, Y4, Y4; \
	INSTR Y8, Y5, Y5; \
	INSTR Y8, Y6, Y6; \
	INSTR Y8, Y7, Y7

#define APPLY8SREV(INSTR) \
	INSTR Y0, Y8, Y0; \
	INSTR Y1, Y8, Y1; \
	INSTR Y2, Y8, Y2; \
	INSTR Y3, Y8, Y3; \
	INSTR Y4, Y8, Y4; \
	INSTR Y5, Y8, Y5; \
	INSTR Y6, Y8, Y6; \
	INSTR Y7, Y8, Y7

// func chainF32x64(dst, src unsafe.Pointer, n int, steps unsafe.Pointer, nsteps int, u8, nt bool)
// For each block of 64 elements: load them from src (bytes converted to
// float32 when u8, else float32) into Y0-Y7, run the nsteps steps
// (chainStep: op, vector pointer or 0, scalar) over them, and store them
// to dst (non-temporal when nt; dst then 32-byte aligned). A vector
// step's pointer advances by 64 elements per block. n is a multiple of 64.
TEXT ·chainF32x64(SB), NOSPLIT, $0-42
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $6, CX
	MOVBLZX u8+40(FP), BX
	MOVBLZX nt+41(FP), R11

block:
	TESTQ BX, BX
	JZ    loadf
	PREFETCHT0 PF(SI)
	VPMOVZXBD 0(SI), Y0
	VPMOVZXBD 8(SI), Y1
	VPMOVZXBD 16(SI), Y2
	VPMOVZXBD 24(SI), Y3
	VPMOVZXBD 32(SI), Y4
	VPMOVZXBD 40(SI), Y5
	VPMOVZXBD 48(SI), Y6
	VPMOVZXBD 56(SI), Y7
	VCVTDQ2PS Y0, Y0
	VCVTDQ2PS Y1, Y1
	VCVTDQ2PS Y2, Y2
	VCVTDQ2PS Y3, Y3
	VCVTDQ2PS Y4, Y4
	VCVTDQ2PS Y5, Y5
	VCVTDQ2PS Y6, Y6
	VCVTDQ2PS Y7, Y7
	ADDQ $64, SI
	JMP  steps

loadf:
	PREFETCHT0 PF(SI)
	PREFETCHT0 PF+64(SI)
	PREFETCHT0 PF+128(SI)
	PREFETCHT0 PF+192(SI)
	VMOVUPS 0(SI), Y0
	VMOVUPS 32(SI), Y1
	VMOVUPS 64(SI), Y2
	VMOVUPS 96(SI), Y3
	VMOVUPS 128(SI), Y4
	VMOVUPS 160(SI), Y5
	VMOVUPS 192(SI), Y6
	VMOVUPS 224(SI), Y7
	ADDQ $256, SI

steps:
	MOVQ steps+24(FP), R8
	MOVQ nsteps+32(FP), R9

step:
	MOVQ 0(R8), AX
	MOVQ 8(R8), DX
	TESTQ DX, DX
	JNZ   vec
	VBROADCASTSS 16(R8), Y8
	CMPQ AX, $0
	JEQ  saddl
	CMPQ AX, $1
	JEQ  ssubl
	CMPQ AX, $2
	JEQ  smull
	CMPQ AX, $3
	JEQ  sdivl
	CMPQ AX, $4
	JEQ  srsubl
	APPLY8SREV(VDIVPS)
	JMP  next

saddl:
	APPLY8S(VADDPS)
	JMP next

ssubl:
	APPLY8S(VSUBPS)
	JMP next

smull:
	APPLY8S(VMULPS)
	JMP next

sdivl:
	APPLY8S(VDIVPS)
	JMP next

srsubl:
	APPLY8SREV(VSUBPS)
	JMP next

vec:
	VMOVUPS 0(DX), Y8
	VMOVUPS 32(DX), Y9
	VMOVUPS 64(DX), Y10
	VMOVUPS 96(DX), Y11
	VMOVUPS 128(DX), Y12
	VMOVUPS 160(DX), Y13
	VMOVUPS 192(DX), Y14
	VMOVUPS 224(DX), Y15
	ADDQ    $256, DX
	MOVQ    DX, 8(R8)

apply:
	CMPQ AX, $0
	JEQ  opadd
	CMPQ AX, $1
	JEQ  opsub
	CMPQ AX, $2
	JEQ  opmul
	CMPQ AX, $3
	JEQ  opdiv
	CMPQ AX, $4
	JEQ  oprsub
	APPLY8REV(VDIVPS)
	JMP  next

opadd:
	APPLY8(VADDPS)
	JMP next

opsub:
	APPLY8(VSUBPS)
	JMP next

opmul:
	APPLY8(VMULPS)
	JMP next

opdiv:
	APPLY8(VDIVPS)
	JMP next

oprsub:
	APPLY8REV(VSUBPS)

next:
	ADDQ $24, R8
	DECQ R9
	JNZ  step

	TESTQ R11, R11
	JZ    plain
	VMOVNTPS Y0, 0(DI)
	VMOVNTPS Y1, 32(DI)
	VMOVNTPS Y2, 64(DI)
	VMOVNTPS Y3, 96(DI)
	VMOVNTPS Y4, 128(DI)
	VMOVNTPS Y5, 160(DI)
	VMOVNTPS Y6, 192(DI)
	VMOVNTPS Y7, 224(DI)
	JMP      stored

plain:
	VMOVUPS Y0, 0(DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	VMOVUPS Y4, 128(DI)
	VMOVUPS Y5, 160(DI)
	VMOVUPS Y6, 192(DI)
	VMOVUPS Y7, 224(DI)

stored:
	ADDQ $256, DI
	DECQ CX
	JNZ  block
	TESTQ R11, R11
	JZ    done
	SFENCE

done:
	VZEROUPPER
	RET
