//go:build !purego

#include "textflag.h"

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
