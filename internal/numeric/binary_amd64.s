//go:build !purego

#include "textflag.h"

#include "binop_amd64.h"

// VOP3 defines NAME(d, a, b unsafe.Pointer, n int): d[j] = a[j] op b[j]
// for n elements, a multiple of 8, as INSTR A, B, Y0 with a in Y0 and b
// in Y1 (A, B = Y1, Y0 computes a op b; Y0, Y1 computes b op a, and
// for VMAXPS and VMINPS keeps a where either is NaN). d may be a or b.
#define VOP3(NAME, INSTR, A, B) BINOP(NAME, INSTR, A, B, 3)

VOP3(·addF32x8to, VADDPS, Y1, Y0)
VOP3(·subF32x8to, VSUBPS, Y1, Y0)
VOP3(·mulF32x8to, VMULPS, Y1, Y0)
VOP3(·divF32x8to, VDIVPS, Y1, Y0)
VOP3(·rsubF32x8to, VSUBPS, Y0, Y1)
VOP3(·rdivF32x8to, VDIVPS, Y0, Y1)
VOP3(·maxF32x8to, VMAXPS, Y0, Y1)
VOP3(·minF32x8to, VMINPS, Y0, Y1)

// SOP3 defines NAME(d, a unsafe.Pointer, n int, c float32): VOP3 with
// the scalar c broadcast in Y1.
#define SOP3(NAME, INSTR, A, B) \
TEXT NAME(SB), NOSPLIT, $0-28; \
	MOVQ d+0(FP), DI; \
	MOVQ a+8(FP), SI; \
	MOVQ n+16(FP), CX; \
	VBROADCASTSS c+24(FP), Y1; \
	SHRQ $3, CX; \
loop: \
	VMOVUPS (SI), Y0; \
	INSTR A, B, Y0; \
	VMOVUPS Y0, (DI); \
	ADDQ $32, DI; \
	ADDQ $32, SI; \
	DECQ CX; \
	JNZ  loop; \
	VZEROUPPER; \
	RET

SOP3(·addScalarF32x8to, VADDPS, Y1, Y0)
SOP3(·subScalarF32x8to, VSUBPS, Y1, Y0)
SOP3(·mulScalarF32x8to, VMULPS, Y1, Y0)
SOP3(·divScalarF32x8to, VDIVPS, Y1, Y0)
SOP3(·rsubScalarF32x8to, VSUBPS, Y0, Y1)
SOP3(·rdivScalarF32x8to, VDIVPS, Y0, Y1)
SOP3(·maxScalarF32x8to, VMAXPS, Y0, Y1)
SOP3(·minScalarF32x8to, VMINPS, Y0, Y1)

// VOP3NT is VOP3 with non-temporal stores to d (32-byte aligned), then
// fenced.
#define VOP3NT(NAME, INSTR, A, B) \
TEXT NAME(SB), NOSPLIT, $0-32; \
	MOVQ d+0(FP), DI; \
	MOVQ a+8(FP), SI; \
	MOVQ b+16(FP), DX; \
	MOVQ n+24(FP), CX; \
	SHRQ $3, CX; \
loop: \
	VMOVUPS (SI), Y0; \
	VMOVUPS (DX), Y1; \
	INSTR A, B, Y0; \
	VMOVNTPS Y0, (DI); \
	ADDQ $32, DI; \
	ADDQ $32, SI; \
	ADDQ $32, DX; \
	DECQ CX; \
	JNZ  loop; \
	SFENCE; \
	VZEROUPPER; \
	RET

VOP3NT(·addF32x8nt, VADDPS, Y1, Y0)
VOP3NT(·subF32x8nt, VSUBPS, Y1, Y0)
VOP3NT(·mulF32x8nt, VMULPS, Y1, Y0)
VOP3NT(·divF32x8nt, VDIVPS, Y1, Y0)
VOP3NT(·rsubF32x8nt, VSUBPS, Y0, Y1)
VOP3NT(·rdivF32x8nt, VDIVPS, Y0, Y1)

// SOP3NT is SOP3 with non-temporal stores to d (32-byte aligned), then
// fenced.
#define SOP3NT(NAME, INSTR, A, B) \
TEXT NAME(SB), NOSPLIT, $0-28; \
	MOVQ d+0(FP), DI; \
	MOVQ a+8(FP), SI; \
	MOVQ n+16(FP), CX; \
	VBROADCASTSS c+24(FP), Y1; \
	SHRQ $3, CX; \
loop: \
	VMOVUPS (SI), Y0; \
	INSTR A, B, Y0; \
	VMOVNTPS Y0, (DI); \
	ADDQ $32, DI; \
	ADDQ $32, SI; \
	DECQ CX; \
	JNZ  loop; \
	SFENCE; \
	VZEROUPPER; \
	RET

SOP3NT(·addScalarF32x8nt, VADDPS, Y1, Y0)
SOP3NT(·subScalarF32x8nt, VSUBPS, Y1, Y0)
SOP3NT(·mulScalarF32x8nt, VMULPS, Y1, Y0)
SOP3NT(·divScalarF32x8nt, VDIVPS, Y1, Y0)
SOP3NT(·rsubScalarF32x8nt, VSUBPS, Y0, Y1)
SOP3NT(·rdivScalarF32x8nt, VDIVPS, Y0, Y1)
