//go:build !purego

#include "textflag.h"

// func accExtremeRowsF32x4(acc, x unsafe.Pointer, width, rows, stride int, pred int)
// For the first width columns (a multiple of 4) of rows rows of float32,
// stride bytes apart from x: acc[j] = float64(x[r][j]) where that value
// is a NaN or compares pred (VCMPPD's predicate: 0x1E greater, 0x11 less,
// both false for a NaN acc) against acc[j], row after row: the rule of
// AccExtremeRowsF32. Columns go 16 at a time (four accumulators whose
// chains of compare and blend overlap), then 4.
TEXT ·accExtremeRowsF32x4(SB), NOSPLIT, $0-48
	MOVQ acc+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ width+16(FP), DX
	MOVQ rows+24(FP), R8
	MOVQ stride+32(FP), R9
	MOVQ pred+40(FP), AX
	CMPQ AX, $0x11
	JEQ  less

// The predicate is an immediate: one copy of the loops per predicate.
#define EXTREME(P, L16, R16, L4, R4, DONE) \
L16: \
	CMPQ DX, $16 \
	JLT  L4 \
	VMOVUPD 0(DI), Y0 \
	VMOVUPD 32(DI), Y1 \
	VMOVUPD 64(DI), Y2 \
	VMOVUPD 96(DI), Y3 \
	MOVQ SI, R10 \
	MOVQ R8, CX \
R16: \
	VCVTPS2PD 0(R10), Y4 \
	VCVTPS2PD 16(R10), Y5 \
	VCVTPS2PD 32(R10), Y6 \
	VCVTPS2PD 48(R10), Y7 \
	VCMPPD $0x03, Y4, Y4, Y8 \
	VCMPPD $0x03, Y5, Y5, Y9 \
	VCMPPD $0x03, Y6, Y6, Y10 \
	VCMPPD $0x03, Y7, Y7, Y11 \
	VCMPPD $P, Y0, Y4, Y12 \
	VCMPPD $P, Y1, Y5, Y13 \
	VCMPPD $P, Y2, Y6, Y14 \
	VCMPPD $P, Y3, Y7, Y15 \
	VORPD Y8, Y12, Y12 \
	VORPD Y9, Y13, Y13 \
	VORPD Y10, Y14, Y14 \
	VORPD Y11, Y15, Y15 \
	VBLENDVPD Y12, Y4, Y0, Y0 \
	VBLENDVPD Y13, Y5, Y1, Y1 \
	VBLENDVPD Y14, Y6, Y2, Y2 \
	VBLENDVPD Y15, Y7, Y3, Y3 \
	ADDQ R9, R10 \
	DECQ CX \
	JNZ  R16 \
	VMOVUPD Y0, 0(DI) \
	VMOVUPD Y1, 32(DI) \
	VMOVUPD Y2, 64(DI) \
	VMOVUPD Y3, 96(DI) \
	ADDQ $128, DI \
	ADDQ $64, SI \
	SUBQ $16, DX \
	JMP  L16 \
L4: \
	TESTQ DX, DX \
	JZ    DONE \
	VMOVUPD 0(DI), Y0 \
	MOVQ SI, R10 \
	MOVQ R8, CX \
R4: \
	VCVTPS2PD 0(R10), Y4 \
	VCMPPD $0x03, Y4, Y4, Y8 \
	VCMPPD $P, Y0, Y4, Y12 \
	VORPD Y8, Y12, Y12 \
	VBLENDVPD Y12, Y4, Y0, Y0 \
	ADDQ R9, R10 \
	DECQ CX \
	JNZ  R4 \
	VMOVUPD Y0, 0(DI) \
	ADDQ $32, DI \
	ADDQ $16, SI \
	SUBQ $4, DX \
	JMP  L4

	EXTREME(0x1E, gt16, gtrows16, gt4, gtrows4, done)

less:
	EXTREME(0x11, lt16, ltrows16, lt4, ltrows4, done)

done:
	VZEROUPPER
	RET
