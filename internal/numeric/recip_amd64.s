//go:build !purego

#include "textflag.h"

DATA recipExpMask<>+0(SB)/4, $0x7f800000
GLOBL recipExpMask<>(SB), RODATA|NOPTR, $4
DATA recipAbsMask<>+0(SB)/4, $0x7fffffff
GLOBL recipAbsMask<>(SB), RODATA|NOPTR, $4
DATA recipTiny<>+0(SB)/4, $0x01000000
GLOBL recipTiny<>(SB), RODATA|NOPTR, $4

// RECIP computes Y0 = float32(float64(a[0:8]) * r) from (SI), r in Y2,
// and ORs into Y12 the lanes whose result is below 2^-125 (exponent
// field under 2) while a is not zero.
#define RECIP \
	VCVTPS2PD   (SI), Y0; \
	VCVTPS2PD   16(SI), Y1; \
	VMULPD      Y2, Y0, Y0; \
	VMULPD      Y2, Y1, Y1; \
	VCVTPD2PSY  Y0, X0; \
	VCVTPD2PSY  Y1, X1; \
	VINSERTF128 $1, X1, Y0, Y0; \
	VPAND       Y5, Y0, Y6; \
	VPCMPGTD    Y6, Y7, Y6; \
	VMOVDQU     (SI), Y9; \
	VPAND       Y10, Y9, Y9; \
	VPCMPEQD    Y11, Y9, Y9; \
	VPANDN      Y6, Y9, Y6; \
	VPOR        Y6, Y12, Y12

// RECIPCONST loads RECIP's constants (Y5, Y7, Y10) and clears Y11 and
// the tiny-result lanes Y12.
#define RECIPCONST \
	VPBROADCASTD recipExpMask<>(SB), Y5; \
	VPBROADCASTD recipTiny<>(SB), Y7; \
	VPBROADCASTD recipAbsMask<>(SB), Y10; \
	VPXOR        Y11, Y11, Y11; \
	VPXOR        Y12, Y12, Y12

// PFLINE prefetches the next of the BX lines left from R8, if any (else
// jumps to SKIP).
#define PFLINE(SKIP) \
	TESTQ      BX, BX; \
	JZ         SKIP; \
	PREFETCHT0 (R8); \
	ADDQ       $64, R8; \
	DECQ       BX

// PFREST prefetches the BX lines left from R8, then goes to DONE; L is
// its loop's label.
#define PFREST(L, DONE) \
L: \
	PFLINE(DONE); \
	JMP L

// func recipF32x8(d, a unsafe.Pointer, n int, r float64, nt bool) (tiny bool)
// Sets d[j] = float32(float64(a[j]) * r) for n elements (a multiple of
// 8), with non-temporal stores (d 32-byte aligned, then fenced) when nt,
// and reports whether a result of a nonzero element fell below 2^-125,
// where that product may round otherwise than the quotient.
TEXT ·recipF32x8(SB), NOSPLIT, $0-41
	MOVQ         d+0(FP), DI
	MOVQ         a+8(FP), SI
	MOVQ         n+16(FP), CX
	VBROADCASTSD r+24(FP), Y2
	MOVBLZX      nt+32(FP), AX
	RECIPCONST
	SHRQ         $3, CX
	TESTQ        AX, AX
	JNZ          ntloop

loop:
	RECIP
	VMOVUPS Y0, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	DECQ    CX
	JNZ     loop
	JMP     done

ntloop:
	RECIP
	VMOVNTPS Y0, (DI)
	ADDQ     $32, SI
	ADDQ     $32, DI
	DECQ     CX
	JNZ      ntloop
	SFENCE

done:
	VPTEST     Y12, Y12
	SETNE      tiny+40(FP)
	VZEROUPPER
	RET

// func recipF32x8PF(d, a unsafe.Pointer, n int, r float64, pf unsafe.Pointer, lines int) (tiny bool)
// Is recipF32x8 with non-temporal stores (d 32-byte aligned) that also
// prefetches the lines 64-byte lines from pf: one each 64 bytes stored,
// so that the reads of the next data spread over the writes, and those
// left after the stores.
TEXT ·recipF32x8PF(SB), NOSPLIT, $0-49
	MOVQ         d+0(FP), DI
	MOVQ         a+8(FP), SI
	MOVQ         n+16(FP), CX
	VBROADCASTSD r+24(FP), Y2
	MOVQ         pf+32(FP), R8
	MOVQ         lines+40(FP), BX
	RECIPCONST
	SHRQ         $3, CX

pfloop:
	RECIP
	VMOVNTPS Y0, (DI)
	TESTQ    $63, DI
	JNZ      pfnext
	PFLINE(pfnext)

pfnext:
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNZ  pfloop
	SFENCE

	PFREST(pfrest, pfdone)

pfdone:
	VPTEST     Y12, Y12
	SETNE      tiny+48(FP)
	VZEROUPPER
	RET

// func divF32x16PF(d, a unsafe.Pointer, n int, c float32, pf unsafe.Pointer, lines int)
// Sets d[j] = a[j] / c for n elements (a multiple of 16) with AVX-512
// VDIVPS, the bits of float32 division, and non-temporal stores (d
// 64-byte aligned), prefetching one of the lines 64-byte lines from pf
// each line stored, then those left.
TEXT ·divF32x16PF(SB), NOSPLIT, $0-48
	MOVQ         d+0(FP), DI
	MOVQ         a+8(FP), SI
	MOVQ         n+16(FP), CX
	VBROADCASTSS c+24(FP), Z2
	MOVQ         pf+32(FP), R8
	MOVQ         lines+40(FP), BX
	SHRQ         $4, CX

divloop:
	VMOVUPS  (SI), Z0
	VDIVPS   Z2, Z0, Z0
	VMOVNTPS Z0, (DI)
	PFLINE(divnext)

divnext:
	ADDQ $64, SI
	ADDQ $64, DI
	DECQ CX
	JNZ  divloop
	SFENCE
	PFREST(divrest, divdone)

divdone:
	VZEROUPPER
	RET
