//go:build !purego

#include "textflag.h"

// HSUM adds the eight lanes of Y register R (X register XR) into lane 0
// of XR, with XS as scratch.
#define HSUM(R, XR, XS) \
	VEXTRACTF128 $1, R, XS; \
	VADDPS       XS, XR, XR; \
	VPERMILPS    $0x0E, XR, XS; \
	VADDPS       XS, XR, XR; \
	VPERMILPS    $0x01, XR, XS; \
	VADDSS       XS, XR, XR

// func dotF32x32(a, b *float32, n int) float32
// Four accumulators of 8 lanes; n is a positive multiple of 32.
TEXT ·dotF32x32(SB), NOSPLIT, $0-28
	MOVQ   a+0(FP), SI
	MOVQ   b+8(FP), DI
	MOVQ   n+16(FP), CX
	SHRQ   $5, CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3

dotloop:
	VMOVUPS     (SI), Y4
	VMOVUPS     32(SI), Y5
	VMOVUPS     64(SI), Y6
	VMOVUPS     96(SI), Y7
	VFMADD231PS (DI), Y4, Y0
	VFMADD231PS 32(DI), Y5, Y1
	VFMADD231PS 64(DI), Y6, Y2
	VFMADD231PS 96(DI), Y7, Y3
	ADDQ        $128, SI
	ADDQ        $128, DI
	DECQ        CX
	JNZ         dotloop

	VADDPS Y1, Y0, Y0
	VADDPS Y3, Y2, Y2
	VADDPS Y2, Y0, Y0
	HSUM(Y0, X0, X1)
	MOVSS  X0, ret+24(FP)
	VZEROUPPER
	RET

// func sqL2F32x32(a, b *float32, n int) float32
// Four accumulators of 8 lanes; n is a positive multiple of 32.
TEXT ·sqL2F32x32(SB), NOSPLIT, $0-28
	MOVQ   a+0(FP), SI
	MOVQ   b+8(FP), DI
	MOVQ   n+16(FP), CX
	SHRQ   $5, CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3

sqloop:
	VMOVUPS     (SI), Y4
	VMOVUPS     32(SI), Y5
	VMOVUPS     64(SI), Y6
	VMOVUPS     96(SI), Y7
	VSUBPS      (DI), Y4, Y4
	VSUBPS      32(DI), Y5, Y5
	VSUBPS      64(DI), Y6, Y6
	VSUBPS      96(DI), Y7, Y7
	VFMADD231PS Y4, Y4, Y0
	VFMADD231PS Y5, Y5, Y1
	VFMADD231PS Y6, Y6, Y2
	VFMADD231PS Y7, Y7, Y3
	ADDQ        $128, SI
	ADDQ        $128, DI
	DECQ        CX
	JNZ         sqloop

	VADDPS Y1, Y0, Y0
	VADDPS Y3, Y2, Y2
	VADDPS Y2, Y0, Y0
	HSUM(Y0, X0, X1)
	MOVSS  X0, ret+24(FP)
	VZEROUPPER
	RET

// func dot3F32x16(a, b *float32, n int, r *[3]float32)
// a.b in Y0+Y1, a.a in Y2+Y3, b.b in Y4+Y5; n is a positive multiple of 16.
TEXT ·dot3F32x16(SB), NOSPLIT, $0-32
	MOVQ   a+0(FP), SI
	MOVQ   b+8(FP), DI
	MOVQ   n+16(FP), CX
	SHRQ   $4, CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5

dot3loop:
	VMOVUPS     (SI), Y6
	VMOVUPS     32(SI), Y7
	VMOVUPS     (DI), Y8
	VMOVUPS     32(DI), Y9
	VFMADD231PS Y8, Y6, Y0
	VFMADD231PS Y9, Y7, Y1
	VFMADD231PS Y6, Y6, Y2
	VFMADD231PS Y7, Y7, Y3
	VFMADD231PS Y8, Y8, Y4
	VFMADD231PS Y9, Y9, Y5
	ADDQ        $64, SI
	ADDQ        $64, DI
	DECQ        CX
	JNZ         dot3loop

	MOVQ   r+24(FP), DX
	VADDPS Y1, Y0, Y0
	VADDPS Y3, Y2, Y2
	VADDPS Y5, Y4, Y4
	HSUM(Y0, X0, X1)
	HSUM(Y2, X2, X3)
	HSUM(Y4, X4, X5)
	MOVSS  X0, (DX)
	MOVSS  X2, 4(DX)
	MOVSS  X4, 8(DX)
	VZEROUPPER
	RET

// func dot2F32x32(a, b *float32, n int, r *[2]float32)
// a.b in Y0-Y3, a.a in Y4-Y7; n is a positive multiple of 32.
TEXT ·dot2F32x32(SB), NOSPLIT, $0-32
	MOVQ   a+0(FP), SI
	MOVQ   b+8(FP), DI
	MOVQ   n+16(FP), CX
	SHRQ   $5, CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7

dot2loop:
	VMOVUPS     (SI), Y8
	VMOVUPS     32(SI), Y9
	VMOVUPS     64(SI), Y10
	VMOVUPS     96(SI), Y11
	VFMADD231PS (DI), Y8, Y0
	VFMADD231PS 32(DI), Y9, Y1
	VFMADD231PS 64(DI), Y10, Y2
	VFMADD231PS 96(DI), Y11, Y3
	VFMADD231PS Y8, Y8, Y4
	VFMADD231PS Y9, Y9, Y5
	VFMADD231PS Y10, Y10, Y6
	VFMADD231PS Y11, Y11, Y7
	ADDQ        $128, SI
	ADDQ        $128, DI
	DECQ        CX
	JNZ         dot2loop

	MOVQ   r+24(FP), DX
	VADDPS Y1, Y0, Y0
	VADDPS Y3, Y2, Y2
	VADDPS Y2, Y0, Y0
	VADDPS Y5, Y4, Y4
	VADDPS Y7, Y6, Y6
	VADDPS Y6, Y4, Y4
	HSUM(Y0, X0, X1)
	HSUM(Y4, X4, X5)
	MOVSS  X0, (DX)
	MOVSS  X4, 4(DX)
	VZEROUPPER
	RET
