//go:build !purego

#include "textflag.h"

// PF is how far ahead (in bytes) the reduction kernels prefetch their
// input: about 16 loop steps, which keeps more lines in flight than the
// hardware prefetcher alone on long runs.
#define PF 2048

// VOP defines NAME(v, k unsafe.Pointer, n int): v[j] = v[j] op k[j] for
// n elements, a multiple of 8, as INSTR A, B, Y0 with v in Y0 and k in
// Y1: A, B = Y1, Y0 computes v op k, and Y0, Y1 computes k op v (and,
// for VMAXPS and VMINPS, keeps v where either is NaN).
#define VOP(NAME, INSTR, A, B) \
TEXT NAME(SB), NOSPLIT, $0-24; \
	MOVQ v+0(FP), DI; \
	MOVQ k+8(FP), SI; \
	MOVQ n+16(FP), CX; \
	SHRQ $3, CX; \
loop: \
	VMOVUPS (DI), Y0; \
	VMOVUPS (SI), Y1; \
	INSTR A, B, Y0; \
	VMOVUPS Y0, (DI); \
	ADDQ $32, DI; \
	ADDQ $32, SI; \
	DECQ CX; \
	JNZ  loop; \
	VZEROUPPER; \
	RET

VOP(·addF32x8, VADDPS, Y1, Y0)
VOP(·subF32x8, VSUBPS, Y1, Y0)
VOP(·mulF32x8, VMULPS, Y1, Y0)
VOP(·divF32x8, VDIVPS, Y1, Y0)
VOP(·rsubF32x8, VSUBPS, Y0, Y1)
VOP(·rdivF32x8, VDIVPS, Y0, Y1)
VOP(·maxF32x8, VMAXPS, Y0, Y1)
VOP(·minF32x8, VMINPS, Y0, Y1)

// SOP defines NAME(v unsafe.Pointer, n int, c float32): VOP with the
// scalar c broadcast in Y1.
#define SOP(NAME, INSTR, A, B) \
TEXT NAME(SB), NOSPLIT, $0-20; \
	MOVQ v+0(FP), DI; \
	MOVQ n+8(FP), CX; \
	VBROADCASTSS c+16(FP), Y1; \
	SHRQ $3, CX; \
loop: \
	VMOVUPS (DI), Y0; \
	INSTR A, B, Y0; \
	VMOVUPS Y0, (DI); \
	ADDQ $32, DI; \
	DECQ CX; \
	JNZ  loop; \
	VZEROUPPER; \
	RET

SOP(·addScalarF32x8, VADDPS, Y1, Y0)
SOP(·subScalarF32x8, VSUBPS, Y1, Y0)
SOP(·mulScalarF32x8, VMULPS, Y1, Y0)
SOP(·divScalarF32x8, VDIVPS, Y1, Y0)
SOP(·rsubScalarF32x8, VSUBPS, Y0, Y1)
SOP(·rdivScalarF32x8, VDIVPS, Y0, Y1)
SOP(·maxScalarF32x8, VMAXPS, Y0, Y1)
SOP(·minScalarF32x8, VMINPS, Y0, Y1)

// func u8ToF32x16(dst, src unsafe.Pointer, n int)
// Converts n bytes (a multiple of 16) to float32, 16 per step.
TEXT ·u8ToF32x16(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $4, CX
cvt:
	VPMOVZXBD (SI), Y0
	VPMOVZXBD 8(SI), Y1
	VCVTDQ2PS Y0, Y0
	VCVTDQ2PS Y1, Y1
	VMOVUPS   Y0, (DI)
	VMOVUPS   Y1, 32(DI)
	ADDQ $16, SI
	ADDQ $64, DI
	DECQ CX
	JNZ  cvt
	VZEROUPPER
	RET

// func sumF32x16(s unsafe.Pointer, n int) float64
// Sums n float32 (a multiple of 16) in float64: four accumulators of four
// lanes, each element converted exactly, combined pairwise at the end.
TEXT ·sumF32x16(SB), NOSPLIT, $0-24
	MOVQ s+0(FP), SI
	MOVQ n+8(FP), CX
	SHRQ $4, CX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
sum32:
	PREFETCHT0 PF(SI)
	VCVTPS2PD (SI), Y4
	VCVTPS2PD 16(SI), Y5
	VCVTPS2PD 32(SI), Y6
	VCVTPS2PD 48(SI), Y7
	VADDPD Y4, Y0, Y0
	VADDPD Y5, Y1, Y1
	VADDPD Y6, Y2, Y2
	VADDPD Y7, Y3, Y3
	ADDQ $64, SI
	DECQ CX
	JNZ  sum32
	VADDPD Y1, Y0, Y0
	VADDPD Y3, Y2, Y2
	VADDPD Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD X1, X0, X0
	VHADDPD X0, X0, X0
	VZEROUPPER
	MOVSD X0, ret+16(FP)
	RET

// func sumF64x16(s unsafe.Pointer, n int) float64
// Sums n float64 (a multiple of 16) in four accumulators of four lanes,
// combined pairwise at the end.
TEXT ·sumF64x16(SB), NOSPLIT, $0-24
	MOVQ s+0(FP), SI
	MOVQ n+8(FP), CX
	SHRQ $4, CX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
sum64:
	PREFETCHT0 PF(SI)
	VADDPD (SI), Y0, Y0
	VADDPD 32(SI), Y1, Y1
	VADDPD 64(SI), Y2, Y2
	VADDPD 96(SI), Y3, Y3
	ADDQ $128, SI
	DECQ CX
	JNZ  sum64
	VADDPD Y1, Y0, Y0
	VADDPD Y3, Y2, Y2
	VADDPD Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD X1, X0, X0
	VHADDPD X0, X0, X0
	VZEROUPPER
	MOVSD X0, ret+16(FP)
	RET

// func storeNTF32x8(dst, src unsafe.Pointer, n int)
// Copies n float32 (a multiple of 8) to dst, 32-byte aligned, with
// non-temporal stores, then fences them.
TEXT ·storeNTF32x8(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $3, CX
nt:
	VMOVUPS  (SI), Y0
	VMOVNTPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNZ  nt
	SFENCE
	VZEROUPPER
	RET

// func dotF32x16(x, c unsafe.Pointer, n int) float64
// Returns the sum of x[j]*c[j] over n float32 (a multiple of 16), each
// product and sum in float64 (the products are exact), in four
// accumulators of four lanes combined pairwise.
TEXT ·dotF32x16(SB), NOSPLIT, $0-32
	MOVQ x+0(FP), SI
	MOVQ c+8(FP), DI
	MOVQ n+16(FP), CX
	SHRQ $4, CX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
dot:
	PREFETCHT0 PF(SI)
	VCVTPS2PD (SI), Y4
	VCVTPS2PD 16(SI), Y5
	VCVTPS2PD 32(SI), Y6
	VCVTPS2PD 48(SI), Y7
	VCVTPS2PD (DI), Y8
	VCVTPS2PD 16(DI), Y9
	VCVTPS2PD 32(DI), Y10
	VCVTPS2PD 48(DI), Y11
	VFMADD231PD Y4, Y8, Y0
	VFMADD231PD Y5, Y9, Y1
	VFMADD231PD Y6, Y10, Y2
	VFMADD231PD Y7, Y11, Y3
	ADDQ $64, SI
	ADDQ $64, DI
	DECQ CX
	JNZ  dot
	VADDPD Y1, Y0, Y0
	VADDPD Y3, Y2, Y2
	VADDPD Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD X1, X0, X0
	VHADDPD X0, X0, X0
	VZEROUPPER
	MOVSD X0, ret+24(FP)
	RET

// func sumSqF32x16(x unsafe.Pointer, n int) float64
// Returns the sum of x[j]*x[j] over n float32 (a multiple of 16), as
// dotF32x16 does.
TEXT ·sumSqF32x16(SB), NOSPLIT, $0-24
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	SHRQ $4, CX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
sq:
	PREFETCHT0 PF(SI)
	VCVTPS2PD (SI), Y4
	VCVTPS2PD 16(SI), Y5
	VCVTPS2PD 32(SI), Y6
	VCVTPS2PD 48(SI), Y7
	VFMADD231PD Y4, Y4, Y0
	VFMADD231PD Y5, Y5, Y1
	VFMADD231PD Y6, Y6, Y2
	VFMADD231PD Y7, Y7, Y3
	ADDQ $64, SI
	DECQ CX
	JNZ  sq
	VADDPD Y1, Y0, Y0
	VADDPD Y3, Y2, Y2
	VADDPD Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD X1, X0, X0
	VHADDPD X0, X0, X0
	VZEROUPPER
	MOVSD X0, ret+16(FP)
	RET

// func maxF32x32(x unsafe.Pointer, n int) (m float32, nan bool)
// Returns the largest of n float32 (a multiple of 32) and whether any is
// NaN (then m is meaningless).
TEXT ·maxF32x32(SB), NOSPLIT, $0-21
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	SHRQ $5, CX
	VMOVUPS (SI), Y0
	VMOVAPS Y0, Y1
	VMOVAPS Y0, Y2
	VMOVAPS Y0, Y3
	VXORPS  Y8, Y8, Y8
mx:
	PREFETCHT0 PF(SI)
	PREFETCHT0 PF+64(SI)
	VMOVUPS (SI), Y4
	VMOVUPS 32(SI), Y5
	VMOVUPS 64(SI), Y6
	VMOVUPS 96(SI), Y7
	VCMPPS  $3, Y5, Y4, Y9
	VCMPPS  $3, Y7, Y6, Y10
	VORPS   Y9, Y8, Y8
	VORPS   Y10, Y8, Y8
	VMAXPS  Y4, Y0, Y0
	VMAXPS  Y5, Y1, Y1
	VMAXPS  Y6, Y2, Y2
	VMAXPS  Y7, Y3, Y3
	ADDQ $128, SI
	DECQ CX
	JNZ  mx
	VMAXPS Y1, Y0, Y0
	VMAXPS Y3, Y2, Y2
	VMAXPS Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VMAXPS X1, X0, X0
	VPERMILPS $0x4e, X0, X1
	VMAXPS X1, X0, X0
	VPERMILPS $0xb1, X0, X1
	VMAXPS X1, X0, X0
	MOVSS X0, ret+16(FP)
	VMOVMSKPS Y8, AX
	TESTL AX, AX
	SETNE ret1+20(FP)
	VZEROUPPER
	RET

// func minF32x32(x unsafe.Pointer, n int) (m float32, nan bool)
// maxF32x32 for the smallest.
TEXT ·minF32x32(SB), NOSPLIT, $0-21
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	SHRQ $5, CX
	VMOVUPS (SI), Y0
	VMOVAPS Y0, Y1
	VMOVAPS Y0, Y2
	VMOVAPS Y0, Y3
	VXORPS  Y8, Y8, Y8
mn:
	PREFETCHT0 PF(SI)
	PREFETCHT0 PF+64(SI)
	VMOVUPS (SI), Y4
	VMOVUPS 32(SI), Y5
	VMOVUPS 64(SI), Y6
	VMOVUPS 96(SI), Y7
	VCMPPS  $3, Y5, Y4, Y9
	VCMPPS  $3, Y7, Y6, Y10
	VORPS   Y9, Y8, Y8
	VORPS   Y10, Y8, Y8
	VMINPS  Y4, Y0, Y0
	VMINPS  Y5, Y1, Y1
	VMINPS  Y6, Y2, Y2
	VMINPS  Y7, Y3, Y3
	ADDQ $128, SI
	DECQ CX
	JNZ  mn
	VMINPS Y1, Y0, Y0
	VMINPS Y3, Y2, Y2
	VMINPS Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VMINPS X1, X0, X0
	VPERMILPS $0x4e, X0, X1
	VMINPS X1, X0, X0
	VPERMILPS $0xb1, X0, X1
	VMINPS X1, X0, X0
	MOVSS X0, ret+16(FP)
	VMOVMSKPS Y8, AX
	TESTL AX, AX
	SETNE ret1+20(FP)
	VZEROUPPER
	RET

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

// func accF32x16(acc, x unsafe.Pointer, n int)
// acc[j] += float64(x[j]) for n elements, a multiple of 16.
TEXT ·accF32x16(SB), NOSPLIT, $0-24
	MOVQ acc+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $4, CX
acc:
	VCVTPS2PD (SI), Y4
	VCVTPS2PD 16(SI), Y5
	VCVTPS2PD 32(SI), Y6
	VCVTPS2PD 48(SI), Y7
	VADDPD (DI), Y4, Y4
	VADDPD 32(DI), Y5, Y5
	VADDPD 64(DI), Y6, Y6
	VADDPD 96(DI), Y7, Y7
	VMOVUPD Y4, (DI)
	VMOVUPD Y5, 32(DI)
	VMOVUPD Y6, 64(DI)
	VMOVUPD Y7, 96(DI)
	ADDQ $64, SI
	ADDQ $128, DI
	DECQ CX
	JNZ  acc
	VZEROUPPER
	RET

// func accU8x32(acc, x unsafe.Pointer, n int)
// acc[j] += uint32(x[j]) for n bytes, a multiple of 32.
TEXT ·accU8x32(SB), NOSPLIT, $0-24
	MOVQ acc+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $5, CX
accu8:
	VPMOVZXBD 0(SI), Y4
	VPMOVZXBD 8(SI), Y5
	VPMOVZXBD 16(SI), Y6
	VPMOVZXBD 24(SI), Y7
	VPADDD (DI), Y4, Y4
	VPADDD 32(DI), Y5, Y5
	VPADDD 64(DI), Y6, Y6
	VPADDD 96(DI), Y7, Y7
	VMOVDQU Y4, (DI)
	VMOVDQU Y5, 32(DI)
	VMOVDQU Y6, 64(DI)
	VMOVDQU Y7, 96(DI)
	ADDQ $32, SI
	ADDQ $128, DI
	DECQ CX
	JNZ  accu8
	VZEROUPPER
	RET

// func accRowsF32x16(acc, x unsafe.Pointer, width, rows, stride int)
// acc[j] += float64(x[r*stride+j]) for j < width (a multiple of 16) and
// r < rows (rows > 0), r in order: 32 (then 16) columns at a time held in
// registers across the rows. stride counts float32 elements.
TEXT ·accRowsF32x16(SB), NOSPLIT, $0-40
	MOVQ acc+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ width+16(FP), DX
	MOVQ rows+24(FP), R8
	MOVQ stride+32(FP), R9
	SHLQ $2, R9

cols32:
	CMPQ DX, $32
	JLT  cols16
	VMOVUPD 0(DI), Y0
	VMOVUPD 32(DI), Y1
	VMOVUPD 64(DI), Y2
	VMOVUPD 96(DI), Y3
	VMOVUPD 128(DI), Y4
	VMOVUPD 160(DI), Y5
	VMOVUPD 192(DI), Y6
	VMOVUPD 224(DI), Y7
	MOVQ SI, AX
	MOVQ R8, CX

rows32:
	VCVTPS2PD 0(AX), Y8
	VCVTPS2PD 16(AX), Y9
	VCVTPS2PD 32(AX), Y10
	VCVTPS2PD 48(AX), Y11
	VADDPD Y8, Y0, Y0
	VADDPD Y9, Y1, Y1
	VADDPD Y10, Y2, Y2
	VADDPD Y11, Y3, Y3
	VCVTPS2PD 64(AX), Y12
	VCVTPS2PD 80(AX), Y13
	VCVTPS2PD 96(AX), Y14
	VCVTPS2PD 112(AX), Y15
	VADDPD Y12, Y4, Y4
	VADDPD Y13, Y5, Y5
	VADDPD Y14, Y6, Y6
	VADDPD Y15, Y7, Y7
	ADDQ R9, AX
	DECQ CX
	JNZ  rows32
	VMOVUPD Y0, 0(DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	VMOVUPD Y4, 128(DI)
	VMOVUPD Y5, 160(DI)
	VMOVUPD Y6, 192(DI)
	VMOVUPD Y7, 224(DI)
	ADDQ $256, DI
	ADDQ $128, SI
	SUBQ $32, DX
	JMP  cols32

cols16:
	TESTQ DX, DX
	JZ    rowsdone
	VMOVUPD 0(DI), Y0
	VMOVUPD 32(DI), Y1
	VMOVUPD 64(DI), Y2
	VMOVUPD 96(DI), Y3
	MOVQ SI, AX
	MOVQ R8, CX

rows16:
	VCVTPS2PD 0(AX), Y8
	VCVTPS2PD 16(AX), Y9
	VCVTPS2PD 32(AX), Y10
	VCVTPS2PD 48(AX), Y11
	VADDPD Y8, Y0, Y0
	VADDPD Y9, Y1, Y1
	VADDPD Y10, Y2, Y2
	VADDPD Y11, Y3, Y3
	ADDQ R9, AX
	DECQ CX
	JNZ  rows16
	VMOVUPD Y0, 0(DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)

rowsdone:
	VZEROUPPER
	RET

// func sumLeavesF64x256(s unsafe.Pointer, m int, out unsafe.Pointer)
// Writes to out[k] the sum of the 256 float64 s[256k:256k+256] for k < m
// (m > 0), each summed as sumF64x16 sums them.
TEXT ·sumLeavesF64x256(SB), NOSPLIT, $0-24
	MOVQ s+0(FP), SI
	MOVQ m+8(FP), DX
	MOVQ out+16(FP), DI

leaf:
	MOVQ   $16, CX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3

leaf64:
	PREFETCHT0 PF(SI)
	VADDPD (SI), Y0, Y0
	VADDPD 32(SI), Y1, Y1
	VADDPD 64(SI), Y2, Y2
	VADDPD 96(SI), Y3, Y3
	ADDQ $128, SI
	DECQ CX
	JNZ  leaf64
	VADDPD Y1, Y0, Y0
	VADDPD Y3, Y2, Y2
	VADDPD Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD X1, X0, X0
	VHADDPD X0, X0, X0
	MOVSD X0, (DI)
	ADDQ $8, DI
	DECQ DX
	JNZ  leaf
	VZEROUPPER
	RET
