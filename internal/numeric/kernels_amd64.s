//go:build !purego

#include "textflag.h"
#include "sum_amd64.h"
#include "ahead_amd64.h"

// SUMARGS loads the arguments (x, n, last) of the float32 sum kernels
// below: x in SI, n/16 blocks in CX, last (the last element of the data
// the touches may read, at or after x's last) in R13; it touches the
// next three pages (RUNAHEAD).
#define SUMARGS \
	MOVQ x+0(FP), SI; \
	MOVQ n+8(FP), CX; \
	MOVQ last+16(FP), R13; \
	SHRQ $4, CX; \
	RUNAHEAD

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

// func sumF32x16(x unsafe.Pointer, n int, last unsafe.Pointer) float64
// Sums n float32 (a multiple of 16) in float64: four accumulators of four
// lanes, each element converted exactly, combined pairwise at the end.
// It loads one element of the pages ahead (RUNAHEAD, then CVTLOOP's
// touches), never past last.
TEXT ·sumF32x16(SB), NOSPLIT, $0-32
	SUMARGS
	SUMF32(sum32)
	HSUMPD
	VZEROUPPER
	MOVSD X0, ret+24(FP)
	RET

// func sumF64x16(s unsafe.Pointer, n int) float64
// Sums n float64 (a multiple of 16) in four accumulators of four lanes,
// combined pairwise at the end. It does not load ahead: SumF64 gives it
// under 512 elements (what sumLeavesF64x256, which does, leaves, or a
// run shorter than two leaves), at most a page.
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
	PREFETCHT0 PF+64(SI)
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

// func sumSqF32x16(x unsafe.Pointer, n int, last unsafe.Pointer) float64
// Returns the sum of x[j]*x[j] over n float32 (a multiple of 16), each
// product and sum in float64 (the products are exact), in four
// accumulators of four lanes combined pairwise. It loads ahead as
// sumF32x16 does.
TEXT ·sumSqF32x16(SB), NOSPLIT, $0-32
	SUMARGS
	SUMSQF32(sq)
	HSUMPD
	VZEROUPPER
	MOVSD X0, ret+24(FP)
	RET

// DEV defines NAME(x unsafe.Pointer, n int, k float64) float64: the sum
// over n float64 (a multiple of 16) of LOOP's STEP with k broadcast in
// Y8, in four accumulators of four lanes combined pairwise. L is the
// loop's label.
#define DEV(NAME, LOOP, L, STEP) \
TEXT NAME(SB), NOSPLIT, $0-32; \
	MOVQ x+0(FP), SI; \
	MOVQ n+8(FP), CX; \
	SHRQ $4, CX; \
	VBROADCASTSD k+16(FP), Y8; \
	LOOP(L, STEP); \
	HSUMPD; \
	VZEROUPPER; \
	MOVSD X0, ret+24(FP); \
	RET

// sumDevF64x16: x[j] - k and sumSqDevF64x16: (x[j] - k)^2 over float64.
DEV(·sumDevF64x16, F64LOOP, dev64, DEVSTEP)
DEV(·sumSqDevF64x16, F64LOOP, sqdev64, SQDEVSTEP)

// FOLDEXT folds the extremes by OP of Y0..Y3 (eight lanes each) into
// ret+16(FP), in the AVX2 and AVX-512 kernels' one order.
#define FOLDEXT(OP) \
	OP Y1, Y0, Y0; \
	OP Y3, Y2, Y2; \
	OP Y2, Y0, Y0; \
	VEXTRACTF128 $1, Y0, X1; \
	OP X1, X0, X0; \
	VPERMILPS $0x4e, X0, X1; \
	OP X1, X0, X0; \
	VPERMILPS $0xb1, X0, X1; \
	OP X1, X0, X0; \
	MOVSS X0, ret+16(FP)

// EXTARGS loads the arguments of the extreme kernels below: x in SI,
// n/32 blocks in CX, the address of the last element in R13; it touches
// the run's next three pages (RUNAHEAD).
#define EXTARGS \
	MOVQ x+0(FP), SI; \
	MOVQ n+8(FP), CX; \
	LEAQ -4(SI)(CX*4), R13; \
	SHRQ $5, CX; \
	RUNAHEAD

// EXTRET returns whether any element was NaN (a mask in AX) and the
// extreme already stored.
#define EXTRET \
	TESTL AX, AX; \
	SETNE ret1+20(FP); \
	VZEROUPPER; \
	RET

// EXTREME defines NAME(x unsafe.Pointer, n int) (m float32, nan bool):
// the extreme by OP (VMAXPS or VMINPS) of n float32 (a multiple of 32)
// and whether any is NaN (then m is meaningless). L is the loop's label.
// It touches the run's next three pages on entry (RUNAHEAD) and, every 4
// KiB, the page TLBAHEAD bytes ahead (PAGEAHEAD), never past the last
// element, at R13.
#define EXTREME(NAME, OP, L) \
TEXT NAME(SB), NOSPLIT, $0-21; \
	EXTARGS; \
	VMOVUPS (SI), Y0; \
	VMOVAPS Y0, Y1; \
	VMOVAPS Y0, Y2; \
	VMOVAPS Y0, Y3; \
	VXORPS  Y8, Y8, Y8; \
L: \
	PAGEAHEAD; \
	PREFETCHT0 PF(SI); \
	PREFETCHT0 PF+64(SI); \
	VMOVUPS (SI), Y4; \
	VMOVUPS 32(SI), Y5; \
	VMOVUPS 64(SI), Y6; \
	VMOVUPS 96(SI), Y7; \
	VCMPPS  $3, Y5, Y4, Y9; \
	VCMPPS  $3, Y7, Y6, Y10; \
	VORPS   Y9, Y8, Y8; \
	VORPS   Y10, Y8, Y8; \
	OP      Y4, Y0, Y0; \
	OP      Y5, Y1, Y1; \
	OP      Y6, Y2, Y2; \
	OP      Y7, Y3, Y3; \
	ADDQ $128, SI; \
	DECQ CX; \
	JNZ  L; \
	FOLDEXT(OP); \
	VMOVMSKPS Y8, AX; \
	EXTRET

EXTREME(·maxF32x32, VMAXPS, mx)
EXTREME(·minF32x32, VMINPS, mn)

// ZPF is how far ahead (in bytes) ZEXTREME prefetches: 8 KiB. On 16 KiB
// rows of 64 MiB of float32 (Intel, AVX-512, 2 cores shared, same-moment
// ratios to EXTREME, median of 40) it read 1.01-1.03x as fast, with 4 KiB
// 1.00-1.01x.
#define ZPF 8192

// ZEXTREME is EXTREME with AVX-512F: Z0 holds EXTREME's Y0 (low half) and
// Y1 (high half), Z2 its Y2 and Y3, each lane taking the same elements in
// the same order, and the final reduction splits them back into Y0-Y3,
// so that the result has EXTREME's bits (the sign of a zero included).
// The unordered compares of each block collect in K2. It touches the
// pages ahead as EXTREME does: on 16 KiB rows on Go's heap (4 KiB pages;
// same-moment ratios, median of 40) 1.11x as fast as without the
// touches (interquartile 1.08-1.13x), 1.00x on huge pages.
#define ZEXTREME(NAME, OP, L) \
TEXT NAME(SB), NOSPLIT, $0-21; \
	EXTARGS; \
	VMOVUPS (SI), Y0; \
	VINSERTF64X4 $1, Y0, Z0, Z0; \
	VMOVAPS Z0, Z2; \
	KXORW K2, K2, K2; \
L: \
	PAGEAHEAD; \
	PREFETCHT0 ZPF(SI); \
	PREFETCHT0 ZPF+64(SI); \
	VMOVUPS (SI), Z4; \
	VMOVUPS 64(SI), Z6; \
	VCMPPS  $3, Z6, Z4, K1; \
	KORW    K1, K2, K2; \
	OP      Z4, Z0, Z0; \
	OP      Z6, Z2, Z2; \
	ADDQ $128, SI; \
	DECQ CX; \
	JNZ  L; \
	VEXTRACTF64X4 $1, Z0, Y1; \
	VEXTRACTF64X4 $1, Z2, Y3; \
	FOLDEXT(OP); \
	KMOVW K2, AX; \
	EXTRET

ZEXTREME(·maxF32x32Z, VMAXPS, zmx)
ZEXTREME(·minF32x32Z, VMINPS, zmn)

// func sumSqDevF32x16(x unsafe.Pointer, n int, k float64, last unsafe.Pointer) float64
// Returns the sum of (float64(x[j]) - k)^2 over n float32 (a multiple of
// 16) as DEV's kernels sum (CVTLOOP with SQDEVSTEP), loading ahead as
// sumF32x16 does, never past last. (It follows the macros, which vet
// would read as part of the kernel before them.)
TEXT ·sumSqDevF32x16(SB), NOSPLIT, $0-40
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	SHRQ $4, CX
	VBROADCASTSD k+16(FP), Y8
	MOVQ last+24(FP), R13
	RUNAHEAD
	CVTLOOP(sqdev, SQDEVSTEP)
	HSUMPD
	VZEROUPPER
	MOVSD X0, ret+32(FP)
	RET
