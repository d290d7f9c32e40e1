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

// FMA2 broadcasts the float32 at M into B and adds its products with the
// 16 query elements in Y12, Y13 into the accumulators A0, A1.
#define FMA2(M, B, A0, A1) \
	VBROADCASTSS M, B; \
	VFMADD231PS  Y12, B, A0; \
	VFMADD231PS  Y13, B, A1

// func gemm6x16F32(x *float32, ldx int, q *float32, d int, out *float32, ldo int)
// Registers: SI rows 0-3 (R8 = row stride, R9 = 3 times it), R10 rows
// 4-5, DI the packed tile (16 floats per element), CX elements left,
// Y0-Y11 the 6x16 accumulators, Y12-Y13 the tile's 16 queries of one
// element, Y14-Y15 the broadcast row elements.
TEXT ·gemm6x16F32(SB), NOSPLIT, $0-48
	MOVQ   x+0(FP), SI
	MOVQ   ldx+8(FP), R8
	MOVQ   q+16(FP), DI
	MOVQ   d+24(FP), CX
	LEAQ   (R8)(R8*2), R9
	LEAQ   (SI)(R8*4), R10
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11

gemmloop:
	VMOVUPS (DI), Y12
	VMOVUPS 32(DI), Y13
	FMA2((SI), Y14, Y0, Y1)
	FMA2((SI)(R8*1), Y15, Y2, Y3)
	FMA2((SI)(R8*2), Y14, Y4, Y5)
	FMA2((SI)(R9*1), Y15, Y6, Y7)
	FMA2((R10), Y14, Y8, Y9)
	FMA2((R10)(R8*1), Y15, Y10, Y11)
	ADDQ    $4, SI
	ADDQ    $4, R10
	ADDQ    $64, DI
	DECQ    CX
	JNZ     gemmloop

	MOVQ    out+32(FP), DX
	MOVQ    ldo+40(FP), R11
	VMOVUPS Y0, (DX)
	VMOVUPS Y1, 32(DX)
	ADDQ    R11, DX
	VMOVUPS Y2, (DX)
	VMOVUPS Y3, 32(DX)
	ADDQ    R11, DX
	VMOVUPS Y4, (DX)
	VMOVUPS Y5, 32(DX)
	ADDQ    R11, DX
	VMOVUPS Y6, (DX)
	VMOVUPS Y7, 32(DX)
	ADDQ    R11, DX
	VMOVUPS Y8, (DX)
	VMOVUPS Y9, 32(DX)
	ADDQ    R11, DX
	VMOVUPS Y10, (DX)
	VMOVUPS Y11, 32(DX)
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
