//go:build !purego

#include "textflag.h"

// The order of the dwords that VPACKSSDW then VPACKSSWB leave, within
// their 128-bit lanes, the comparisons of elements 0-3, 8-11, 16-19,
// 24-27 | 4-7, 12-15, 20-23, 28-31 in: VPERMD by it restores 0..31.
DATA cmpOrder<>+0(SB)/4, $0
DATA cmpOrder<>+4(SB)/4, $4
DATA cmpOrder<>+8(SB)/4, $1
DATA cmpOrder<>+12(SB)/4, $5
DATA cmpOrder<>+16(SB)/4, $2
DATA cmpOrder<>+20(SB)/4, $6
DATA cmpOrder<>+24(SB)/4, $3
DATA cmpOrder<>+28(SB)/4, $7
GLOBL cmpOrder<>(SB), RODATA|NOPTR, $32

// CMP32 defines NAME(d, a, b unsafe.Pointer, n int): d[j] = a[j] PRED
// b[j] as a byte 1 or 0, for n elements, a multiple of 32. VCMPPS gives
// each element a dword of ones or zeros; two saturating packs make them
// bytes, VPERMD puts them in order and the AND keeps bit 0.
#define CMP32(NAME, PRED) \
TEXT NAME(SB), NOSPLIT, $0-32; \
	MOVQ d+0(FP), DI; \
	MOVQ a+8(FP), SI; \
	MOVQ b+16(FP), DX; \
	MOVQ n+24(FP), CX; \
	SHRQ $5, CX; \
	VMOVDQU cmpOrder<>(SB), Y7; \
	MOVL $0x01010101, AX; \
	MOVD AX, X6; \
	VPBROADCASTD X6, Y6; \
loop: \
	VMOVUPS (SI), Y0; \
	VMOVUPS 32(SI), Y1; \
	VMOVUPS 64(SI), Y2; \
	VMOVUPS 96(SI), Y3; \
	VCMPPS $PRED, (DX), Y0, Y0; \
	VCMPPS $PRED, 32(DX), Y1, Y1; \
	VCMPPS $PRED, 64(DX), Y2, Y2; \
	VCMPPS $PRED, 96(DX), Y3, Y3; \
	VPACKSSDW Y1, Y0, Y0; \
	VPACKSSDW Y3, Y2, Y2; \
	VPACKSSWB Y2, Y0, Y0; \
	VPERMD Y0, Y7, Y0; \
	VPAND Y6, Y0, Y0; \
	VMOVDQU Y0, (DI); \
	ADDQ $32, DI; \
	ADDQ $128, SI; \
	ADDQ $128, DX; \
	DECQ CX; \
	JNZ  loop; \
	VZEROUPPER; \
	RET

// Predicates: the ordered, quiet ones (false with NaN), and NEQ_UQ
// (true with NaN), as Go's and NumPy's comparisons.
CMP32(·cmpLTF32x32, 0x11)
CMP32(·cmpLEF32x32, 0x12)
CMP32(·cmpGTF32x32, 0x1e)
CMP32(·cmpGEF32x32, 0x1d)
CMP32(·cmpEQF32x32, 0x00)
CMP32(·cmpNEF32x32, 0x04)

// CMPU8 defines NAME(d, a, b unsafe.Pointer, n int): d[j] = a[j] cmp b[j]
// as a byte 1 or 0, for n bytes (unsigned), a multiple of 32. MAX(a, b)
// computes max(a, b) into Y2 (or nothing, for EQ and NE), EQ the test
// that sets Y3 (VPCMPEQB Y2, Y0 tests max == a; Y2, Y1 max == b; Y1, Y0
// a == b), KEEP the last step: VPAND keeps the test's bit 0, VPANDN
// its negation's.
#define CMPU8(NAME, MAX, EQA, EQB, KEEP) \
TEXT NAME(SB), NOSPLIT, $0-32; \
	MOVQ d+0(FP), DI; \
	MOVQ a+8(FP), SI; \
	MOVQ b+16(FP), DX; \
	MOVQ n+24(FP), CX; \
	SHRQ $5, CX; \
	MOVL $0x01010101, AX; \
	MOVD AX, X6; \
	VPBROADCASTD X6, Y6; \
loop: \
	VMOVDQU (SI), Y0; \
	VMOVDQU (DX), Y1; \
	MAX; \
	VPCMPEQB EQA, EQB, Y3; \
	KEEP Y6, Y3, Y3; \
	VMOVDQU Y3, (DI); \
	ADDQ $32, DI; \
	ADDQ $32, SI; \
	ADDQ $32, DX; \
	DECQ CX; \
	JNZ  loop; \
	VZEROUPPER; \
	RET

#define UMAX VPMAXUB Y1, Y0, Y2
#define NOMAX NOP

// a < b: not max == a; a <= b: max == b; a > b: not max == b;
// a >= b: max == a; a == b; a != b: not a == b.
CMPU8(·cmpLTU8x32, UMAX, Y2, Y0, VPANDN)
CMPU8(·cmpLEU8x32, UMAX, Y2, Y1, VPAND)
CMPU8(·cmpGTU8x32, UMAX, Y2, Y1, VPANDN)
CMPU8(·cmpGEU8x32, UMAX, Y2, Y0, VPAND)
CMPU8(·cmpEQU8x32, NOMAX, Y1, Y0, VPAND)
CMPU8(·cmpNEU8x32, NOMAX, Y1, Y0, VPANDN)

// func selectU8x32(d, c, a, b unsafe.Pointer, n int): d[j] = c[j] != 0 ?
// a[j] : b[j] for n bytes, a multiple of 32. VPCMPEQB against zero marks
// the bytes of c that are 0; VPBLENDVB takes b there and a elsewhere.
TEXT ·selectU8x32(SB), NOSPLIT, $0-40
	MOVQ d+0(FP), DI
	MOVQ c+8(FP), R8
	MOVQ a+16(FP), SI
	MOVQ b+24(FP), DX
	MOVQ n+32(FP), CX
	SHRQ $5, CX
	VPXOR Y7, Y7, Y7
sloop:
	VMOVDQU (R8), Y0
	VPCMPEQB Y7, Y0, Y0
	VMOVDQU (SI), Y1
	VMOVDQU (DX), Y2
	VPBLENDVB Y0, Y2, Y1, Y3
	VMOVDQU Y3, (DI)
	ADDQ $32, DI
	ADDQ $32, R8
	ADDQ $32, SI
	ADDQ $32, DX
	DECQ CX
	JNZ  sloop
	VZEROUPPER
	RET

// SELW defines NAME(d, c, a, b unsafe.Pointer, n int): d[j] = c[j] != 0 ?
// a[j] : b[j] for n elements of 2, 4 or 8 bytes, a multiple of K, the
// elements of a register. EXT widens K bytes of c to elements, CMPEQ
// against zero marks the elements of c that are 0 with ones, and BLEND
// takes b there and a elsewhere (by each byte's, dword's or qword's top
// bit). d may be a or b.
#define SELW(NAME, EXT, CMPEQ, BLEND, K) \
TEXT NAME(SB), NOSPLIT, $0-40; \
	MOVQ d+0(FP), DI; \
	MOVQ c+8(FP), R8; \
	MOVQ a+16(FP), SI; \
	MOVQ b+24(FP), DX; \
	MOVQ n+32(FP), CX; \
	VPXOR Y7, Y7, Y7; \
loop: \
	EXT  (R8), Y0; \
	CMPEQ Y7, Y0, Y0; \
	VMOVDQU (SI), Y1; \
	VMOVDQU (DX), Y2; \
	BLEND Y0, Y2, Y1, Y3; \
	VMOVDQU Y3, (DI); \
	ADDQ $32, DI; \
	ADDQ $K, R8; \
	ADDQ $32, SI; \
	ADDQ $32, DX; \
	SUBQ $K, CX; \
	JNZ  loop; \
	VZEROUPPER; \
	RET

SELW(·selectW16x16, VPMOVZXBW, VPCMPEQW, VPBLENDVB, 16)
SELW(·selectW32x8, VPMOVZXBD, VPCMPEQD, VBLENDVPS, 8)
SELW(·selectW64x4, VPMOVZXBQ, VPCMPEQQ, VBLENDVPD, 4)
