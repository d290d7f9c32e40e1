//go:build !purego

#include "textflag.h"

// The four kernels share one register plan. SI points at rows 0-2 of a
// and R10 at rows 3-5 (R8 = the row stride of a in bytes); DI walks b one
// row (R11 bytes) per step; CX counts the steps; DX and R13 point at rows
// 0-2 and 3-5 of c (R12 = the row stride of c in bytes). Y0-Y11 hold the
// 6 rows x 2 vectors of the tile, Y12-Y13 one row of the b panel, Y14 and
// Y15 the broadcast elements of a; the AVX-512 kernels use Z0-Z15 the same
// way, for tiles twice as wide.

// STEP32 does one step of k for 6 float32 rows x 16 columns: the a
// elements at byte offset OFF of each row.
#define STEP32(OFF) \
	VMOVUPS      (DI), Y12; \
	VMOVUPS      32(DI), Y13; \
	ADDQ         R11, DI; \
	VBROADCASTSS OFF(SI), Y14; \
	VFMADD231PS  Y12, Y14, Y0; \
	VFMADD231PS  Y13, Y14, Y1; \
	VBROADCASTSS OFF(SI)(R8*1), Y15; \
	VFMADD231PS  Y12, Y15, Y2; \
	VFMADD231PS  Y13, Y15, Y3; \
	VBROADCASTSS OFF(SI)(R8*2), Y14; \
	VFMADD231PS  Y12, Y14, Y4; \
	VFMADD231PS  Y13, Y14, Y5; \
	VBROADCASTSS OFF(R10), Y15; \
	VFMADD231PS  Y12, Y15, Y6; \
	VFMADD231PS  Y13, Y15, Y7; \
	VBROADCASTSS OFF(R10)(R8*1), Y14; \
	VFMADD231PS  Y12, Y14, Y8; \
	VFMADD231PS  Y13, Y14, Y9; \
	VBROADCASTSS OFF(R10)(R8*2), Y15; \
	VFMADD231PS  Y12, Y15, Y10; \
	VFMADD231PS  Y13, Y15, Y11

// STEP64 does one step of k for 6 float64 rows x 8 columns.
#define STEP64(OFF) \
	VMOVUPD      (DI), Y12; \
	VMOVUPD      32(DI), Y13; \
	ADDQ         R11, DI; \
	VBROADCASTSD OFF(SI), Y14; \
	VFMADD231PD  Y12, Y14, Y0; \
	VFMADD231PD  Y13, Y14, Y1; \
	VBROADCASTSD OFF(SI)(R8*1), Y15; \
	VFMADD231PD  Y12, Y15, Y2; \
	VFMADD231PD  Y13, Y15, Y3; \
	VBROADCASTSD OFF(SI)(R8*2), Y14; \
	VFMADD231PD  Y12, Y14, Y4; \
	VFMADD231PD  Y13, Y14, Y5; \
	VBROADCASTSD OFF(R10), Y15; \
	VFMADD231PD  Y12, Y15, Y6; \
	VFMADD231PD  Y13, Y15, Y7; \
	VBROADCASTSD OFF(R10)(R8*1), Y14; \
	VFMADD231PD  Y12, Y14, Y8; \
	VFMADD231PD  Y13, Y14, Y9; \
	VBROADCASTSD OFF(R10)(R8*2), Y15; \
	VFMADD231PD  Y12, Y15, Y10; \
	VFMADD231PD  Y13, Y15, Y11

// CTILE applies OP (a load into or a store from the tile's registers) to
// the 6 rows x 64 bytes of c.
#define CTILE(OP) \
	OP (DX), Y0; \
	OP 32(DX), Y1; \
	OP (DX)(R12*1), Y2; \
	OP 32(DX)(R12*1), Y3; \
	OP (DX)(R12*2), Y4; \
	OP 32(DX)(R12*2), Y5; \
	OP (R13), Y6; \
	OP 32(R13), Y7; \
	OP (R13)(R12*1), Y8; \
	OP 32(R13)(R12*1), Y9; \
	OP (R13)(R12*2), Y10; \
	OP 32(R13)(R12*2), Y11

#define CSTORE(OP) \
	OP Y0, (DX); \
	OP Y1, 32(DX); \
	OP Y2, (DX)(R12*1); \
	OP Y3, 32(DX)(R12*1); \
	OP Y4, (DX)(R12*2); \
	OP Y5, 32(DX)(R12*2); \
	OP Y6, (R13); \
	OP Y7, 32(R13); \
	OP Y8, (R13)(R12*1); \
	OP Y9, 32(R13)(R12*1); \
	OP Y10, (R13)(R12*2); \
	OP Y11, 32(R13)(R12*2)

// STEP32Z is STEP32 with AVX-512: 6 float32 rows x 32 columns.
#define STEP32Z(OFF) \
	VMOVUPS      (DI), Z12; \
	VMOVUPS      64(DI), Z13; \
	ADDQ         R11, DI; \
	VBROADCASTSS OFF(SI), Z14; \
	VFMADD231PS  Z12, Z14, Z0; \
	VFMADD231PS  Z13, Z14, Z1; \
	VBROADCASTSS OFF(SI)(R8*1), Z15; \
	VFMADD231PS  Z12, Z15, Z2; \
	VFMADD231PS  Z13, Z15, Z3; \
	VBROADCASTSS OFF(SI)(R8*2), Z14; \
	VFMADD231PS  Z12, Z14, Z4; \
	VFMADD231PS  Z13, Z14, Z5; \
	VBROADCASTSS OFF(R10), Z15; \
	VFMADD231PS  Z12, Z15, Z6; \
	VFMADD231PS  Z13, Z15, Z7; \
	VBROADCASTSS OFF(R10)(R8*1), Z14; \
	VFMADD231PS  Z12, Z14, Z8; \
	VFMADD231PS  Z13, Z14, Z9; \
	VBROADCASTSS OFF(R10)(R8*2), Z15; \
	VFMADD231PS  Z12, Z15, Z10; \
	VFMADD231PS  Z13, Z15, Z11

// STEP64Z is STEP64 with AVX-512: 6 float64 rows x 16 columns.
#define STEP64Z(OFF) \
	VMOVUPD      (DI), Z12; \
	VMOVUPD      64(DI), Z13; \
	ADDQ         R11, DI; \
	VBROADCASTSD OFF(SI), Z14; \
	VFMADD231PD  Z12, Z14, Z0; \
	VFMADD231PD  Z13, Z14, Z1; \
	VBROADCASTSD OFF(SI)(R8*1), Z15; \
	VFMADD231PD  Z12, Z15, Z2; \
	VFMADD231PD  Z13, Z15, Z3; \
	VBROADCASTSD OFF(SI)(R8*2), Z14; \
	VFMADD231PD  Z12, Z14, Z4; \
	VFMADD231PD  Z13, Z14, Z5; \
	VBROADCASTSD OFF(R10), Z15; \
	VFMADD231PD  Z12, Z15, Z6; \
	VFMADD231PD  Z13, Z15, Z7; \
	VBROADCASTSD OFF(R10)(R8*1), Z14; \
	VFMADD231PD  Z12, Z14, Z8; \
	VFMADD231PD  Z13, Z14, Z9; \
	VBROADCASTSD OFF(R10)(R8*2), Z15; \
	VFMADD231PD  Z12, Z15, Z10; \
	VFMADD231PD  Z13, Z15, Z11

// CTILEZ and CSTOREZ are CTILE and CSTORE for the 6 rows x 128 bytes of
// c of the AVX-512 kernels.
#define CTILEZ(OP) \
	OP (DX), Z0; \
	OP 64(DX), Z1; \
	OP (DX)(R12*1), Z2; \
	OP 64(DX)(R12*1), Z3; \
	OP (DX)(R12*2), Z4; \
	OP 64(DX)(R12*2), Z5; \
	OP (R13), Z6; \
	OP 64(R13), Z7; \
	OP (R13)(R12*1), Z8; \
	OP 64(R13)(R12*1), Z9; \
	OP (R13)(R12*2), Z10; \
	OP 64(R13)(R12*2), Z11

#define CSTOREZ(OP) \
	OP Z0, (DX); \
	OP Z1, 64(DX); \
	OP Z2, (DX)(R12*1); \
	OP Z3, 64(DX)(R12*1); \
	OP Z4, (DX)(R12*2); \
	OP Z5, 64(DX)(R12*2); \
	OP Z6, (R13); \
	OP Z7, 64(R13); \
	OP Z8, (R13)(R12*1); \
	OP Z9, 64(R13)(R12*1); \
	OP Z10, (R13)(R12*2); \
	OP Z11, 64(R13)(R12*2)

// ARGS loads the arguments and points R10 and R13 at rows 3 of a and c.
#define ARGS \
	MOVQ a+0(FP), SI; \
	MOVQ lda+8(FP), R8; \
	MOVQ b+16(FP), DI; \
	MOVQ ldb+24(FP), R11; \
	MOVQ kc+32(FP), CX; \
	MOVQ c+40(FP), DX; \
	MOVQ ldc+48(FP), R12; \
	LEAQ (R8)(R8*2), R10; \
	ADDQ SI, R10; \
	LEAQ (R12)(R12*2), R13; \
	ADDQ DX, R13

#define ZERO \
	VXORPS Y0, Y0, Y0; \
	VXORPS Y1, Y1, Y1; \
	VXORPS Y2, Y2, Y2; \
	VXORPS Y3, Y3, Y3; \
	VXORPS Y4, Y4, Y4; \
	VXORPS Y5, Y5, Y5; \
	VXORPS Y6, Y6, Y6; \
	VXORPS Y7, Y7, Y7; \
	VXORPS Y8, Y8, Y8; \
	VXORPS Y9, Y9, Y9; \
	VXORPS Y10, Y10, Y10; \
	VXORPS Y11, Y11, Y11

#define ZEROZ \
	VPXORD Z0, Z0, Z0; \
	VPXORD Z1, Z1, Z1; \
	VPXORD Z2, Z2, Z2; \
	VPXORD Z3, Z3, Z3; \
	VPXORD Z4, Z4, Z4; \
	VPXORD Z5, Z5, Z5; \
	VPXORD Z6, Z6, Z6; \
	VPXORD Z7, Z7, Z7; \
	VPXORD Z8, Z8, Z8; \
	VPXORD Z9, Z9, Z9; \
	VPXORD Z10, Z10, Z10; \
	VPXORD Z11, Z11, Z11

// func kern6x16F32(a *float32, lda int, b *float32, ldb int, kc int, c *float32, ldc int, acc bool)
TEXT ·kern6x16F32(SB), NOSPLIT, $0-57
	ARGS
	ZERO
	CMPB acc+56(FP), $0
	JEQ  f32start
	CTILE(VMOVUPS)

f32start:
	SUBQ $4, CX
	JL   f32tail

f32loop4:
	STEP32(0)
	STEP32(4)
	STEP32(8)
	STEP32(12)
	ADDQ $16, SI
	ADDQ $16, R10
	SUBQ $4, CX
	JGE  f32loop4

f32tail:
	ADDQ $4, CX
	JEQ  f32done

f32loop1:
	STEP32(0)
	ADDQ $4, SI
	ADDQ $4, R10
	DECQ CX
	JNZ  f32loop1

f32done:
	CSTORE(VMOVUPS)
	VZEROUPPER
	RET

// func kern6x8F64(a *float64, lda int, b *float64, ldb int, kc int, c *float64, ldc int, acc bool)
TEXT ·kern6x8F64(SB), NOSPLIT, $0-57
	ARGS
	ZERO
	CMPB acc+56(FP), $0
	JEQ  f64start
	CTILE(VMOVUPD)

f64start:
	SUBQ $4, CX
	JL   f64tail

f64loop4:
	STEP64(0)
	STEP64(8)
	STEP64(16)
	STEP64(24)
	ADDQ $32, SI
	ADDQ $32, R10
	SUBQ $4, CX
	JGE  f64loop4

f64tail:
	ADDQ $4, CX
	JEQ  f64done

f64loop1:
	STEP64(0)
	ADDQ $8, SI
	ADDQ $8, R10
	DECQ CX
	JNZ  f64loop1

f64done:
	CSTORE(VMOVUPD)
	VZEROUPPER
	RET

// func kern6x32F32Z(a *float32, lda int, b *float32, ldb int, kc int, c *float32, ldc int, acc bool)
TEXT ·kern6x32F32Z(SB), NOSPLIT, $0-57
	ARGS
	ZEROZ
	CMPB acc+56(FP), $0
	JEQ  f32zstart
	CTILEZ(VMOVUPS)

f32zstart:
	SUBQ $4, CX
	JL   f32ztail

f32zloop4:
	STEP32Z(0)
	STEP32Z(4)
	STEP32Z(8)
	STEP32Z(12)
	ADDQ $16, SI
	ADDQ $16, R10
	SUBQ $4, CX
	JGE  f32zloop4

f32ztail:
	ADDQ $4, CX
	JEQ  f32zdone

f32zloop1:
	STEP32Z(0)
	ADDQ $4, SI
	ADDQ $4, R10
	DECQ CX
	JNZ  f32zloop1

f32zdone:
	CSTOREZ(VMOVUPS)
	VZEROUPPER
	RET

// func kern6x16F64Z(a *float64, lda int, b *float64, ldb int, kc int, c *float64, ldc int, acc bool)
TEXT ·kern6x16F64Z(SB), NOSPLIT, $0-57
	ARGS
	ZEROZ
	CMPB acc+56(FP), $0
	JEQ  f64zstart
	CTILEZ(VMOVUPD)

f64zstart:
	SUBQ $4, CX
	JL   f64ztail

f64zloop4:
	STEP64Z(0)
	STEP64Z(8)
	STEP64Z(16)
	STEP64Z(24)
	ADDQ $32, SI
	ADDQ $32, R10
	SUBQ $4, CX
	JGE  f64zloop4

f64ztail:
	ADDQ $4, CX
	JEQ  f64zdone

f64zloop1:
	STEP64Z(0)
	ADDQ $8, SI
	ADDQ $8, R10
	DECQ CX
	JNZ  f64zloop1

f64zdone:
	CSTOREZ(VMOVUPD)
	VZEROUPPER
	RET
