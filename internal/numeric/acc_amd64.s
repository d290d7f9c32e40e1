//go:build !purego

#include "textflag.h"
#include "ahead_amd64.h"

// PF is how far ahead (in bytes) sumLeavesF64x256 prefetches its input,
// as the kernels of kernels_amd64.s do: both lines of each 128-byte step
// (prefetching one of the two left float64 sums 15-20% slower than
// float32 sums over the same bytes).
#define PF 4096

// ROWPF is how far ahead (in bytes) accRowsF32x1p prefetches its rows: 4
// rows of 64 float32. On 64 MiB of [64,64] tensors it measured 5-10% faster
// than no prefetching, and than 512 or 2048 bytes; T0, T2 and NTA hints
// measured the same. (accRowsF32x16 does not prefetch: 8 rows ahead and
// the rest of the row both measured slower there.)
#define ROWPF 1024

// func accF32x16(acc, x unsafe.Pointer, n int, last unsafe.Pointer)
// acc[j] += float64(x[j]) for n elements, a multiple of 16. It touches
// the three pages after x on entry (RUNAHEAD) and, every 4 KiB, the page
// TLBAHEAD bytes ahead (PAGEAHEADN), never past the element at last (at
// or after x's last).
TEXT ·accF32x16(SB), NOSPLIT, $0-32
	MOVQ acc+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ last+24(FP), R13
	SHRQ $4, CX
	RUNAHEAD
acc:
	PAGEAHEADN($63, SI)
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

// func accU8x32(acc, x unsafe.Pointer, n int, last unsafe.Pointer)
// acc[j] += uint32(x[j]) for n bytes, a multiple of 32. It touches ahead
// as accF32x16 does, TOUCH's four bytes never past those at last (the
// last four bytes of the data, at or after x's).
TEXT ·accU8x32(SB), NOSPLIT, $0-32
	MOVQ acc+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ last+24(FP), R13
	SHRQ $5, CX
	RUNAHEAD
accu8:
	PAGEAHEADN($127, SI)
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
// registers across the rows. stride counts float32 elements. It touches
// the three pages after x on entry (RUNAHEAD) and the page TLBAHEAD bytes
// ahead of each row it has not touched yet (PAGEONCE), never past the
// last element of the last row (R13).
TEXT ·accRowsF32x16(SB), NOSPLIT, $0-40
	MOVQ acc+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ width+16(FP), DX
	MOVQ rows+24(FP), R8
	MOVQ stride+32(FP), R9
	SHLQ $2, R9
	LASTELEMOF(SI, DX, R8, R9)
	RUNAHEAD
	XORQ R12, R12

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
	MOVQ SI, R10
	MOVQ R8, CX

rows32:
	PAGEONCE(R10)
	VCVTPS2PD 0(R10), Y8
	VCVTPS2PD 16(R10), Y9
	VCVTPS2PD 32(R10), Y10
	VCVTPS2PD 48(R10), Y11
	VADDPD Y8, Y0, Y0
	VADDPD Y9, Y1, Y1
	VADDPD Y10, Y2, Y2
	VADDPD Y11, Y3, Y3
	VCVTPS2PD 64(R10), Y12
	VCVTPS2PD 80(R10), Y13
	VCVTPS2PD 96(R10), Y14
	VCVTPS2PD 112(R10), Y15
	VADDPD Y12, Y4, Y4
	VADDPD Y13, Y5, Y5
	VADDPD Y14, Y6, Y6
	VADDPD Y15, Y7, Y7
	ADDQ R9, R10
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
	MOVQ SI, R10
	MOVQ R8, CX

rows16:
	PAGEONCE(R10)
	VCVTPS2PD 0(R10), Y8
	VCVTPS2PD 16(R10), Y9
	VCVTPS2PD 32(R10), Y10
	VCVTPS2PD 48(R10), Y11
	VADDPD Y8, Y0, Y0
	VADDPD Y9, Y1, Y1
	VADDPD Y10, Y2, Y2
	VADDPD Y11, Y3, Y3
	ADDQ R9, R10
	DECQ CX
	JNZ  rows16
	VMOVUPD Y0, 0(DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)

rowsdone:
	VZEROUPPER
	RET

// func sumLeavesF64x256(s unsafe.Pointer, m int, out, last unsafe.Pointer)
// Writes to out[k] the sum of the 256 float64 s[256k:256k+256] for k < m
// (m > 0), each summed as sumF64x16 sums them. It touches the three
// pages after s on entry (RUNAHEAD) and, at each leaf (2 KiB), the page
// TLBAHEAD bytes ahead unless it did already (PAGEONCE), never past the
// element at last (at or after s's last).
TEXT ·sumLeavesF64x256(SB), NOSPLIT, $0-32
	MOVQ s+0(FP), SI
	MOVQ m+8(FP), DX
	MOVQ out+16(FP), DI
	MOVQ last+24(FP), R13
	RUNAHEAD
	XORQ R12, R12

leaf:
	PAGEONCE(SI)
	MOVQ   $16, CX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3

leaf64:
	PREFETCHT0 PF(SI)
	PREFETCHT0 PF+64(SI)
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

// func accRowsF32x1p(acc, x unsafe.Pointer, width, rows, stride int)
// acc[j] += float64(x[r*stride+j]) as accRowsF32x16 does, for width a
// multiple of 16 from 32 on, reading each row once in order: the first 32
// columns' sums stay in registers across the rows, the others are loaded
// from acc, added to and stored back row by row (acc stays in L1). Every
// 64 bytes of a row prefetch the line ROWPF bytes ahead. It touches the
// three pages after x on entry (RUNAHEAD) and the page TLBAHEAD bytes
// ahead of each row it has not touched yet (PAGEONCE), never past the
// last element of the last row (R13).
TEXT ·accRowsF32x1p(SB), NOSPLIT, $0-40
	MOVQ acc+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ width+16(FP), DX
	MOVQ rows+24(FP), CX
	MOVQ stride+32(FP), R9
	SHLQ $2, R9
	LASTELEMOF(SI, DX, CX, R9)
	RUNAHEAD
	XORQ R12, R12
	SUBQ $32, DX
	SHRQ $4, DX
	VMOVUPD 0(DI), Y0
	VMOVUPD 32(DI), Y1
	VMOVUPD 64(DI), Y2
	VMOVUPD 96(DI), Y3
	VMOVUPD 128(DI), Y4
	VMOVUPD 160(DI), Y5
	VMOVUPD 192(DI), Y6
	VMOVUPD 224(DI), Y7

row1p:
	PAGEONCE(SI)
	PREFETCHT0 ROWPF(SI)
	PREFETCHT0 (ROWPF+64)(SI)
	VCVTPS2PD 0(SI), Y8
	VCVTPS2PD 16(SI), Y9
	VCVTPS2PD 32(SI), Y10
	VCVTPS2PD 48(SI), Y11
	VADDPD Y8, Y0, Y0
	VADDPD Y9, Y1, Y1
	VADDPD Y10, Y2, Y2
	VADDPD Y11, Y3, Y3
	VCVTPS2PD 64(SI), Y12
	VCVTPS2PD 80(SI), Y13
	VCVTPS2PD 96(SI), Y14
	VCVTPS2PD 112(SI), Y15
	VADDPD Y12, Y4, Y4
	VADDPD Y13, Y5, Y5
	VADDPD Y14, Y6, Y6
	VADDPD Y15, Y7, Y7
	LEAQ 256(DI), BX
	LEAQ 128(SI), AX
	MOVQ DX, R8
	TESTQ R8, R8
	JZ    next1p

mem1p:
	PREFETCHT0 ROWPF(AX)
	VCVTPS2PD 0(AX), Y12
	VCVTPS2PD 16(AX), Y13
	VCVTPS2PD 32(AX), Y14
	VCVTPS2PD 48(AX), Y15
	VMOVUPD 0(BX), Y8
	VMOVUPD 32(BX), Y9
	VMOVUPD 64(BX), Y10
	VMOVUPD 96(BX), Y11
	VADDPD Y12, Y8, Y8
	VADDPD Y13, Y9, Y9
	VADDPD Y14, Y10, Y10
	VADDPD Y15, Y11, Y11
	VMOVUPD Y8, 0(BX)
	VMOVUPD Y9, 32(BX)
	VMOVUPD Y10, 64(BX)
	VMOVUPD Y11, 96(BX)
	ADDQ $64, AX
	ADDQ $128, BX
	DECQ R8
	JNZ  mem1p

next1p:
	ADDQ R9, SI
	DECQ CX
	JNZ  row1p
	VMOVUPD Y0, 0(DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	VMOVUPD Y4, 128(DI)
	VMOVUPD Y5, 160(DI)
	VMOVUPD Y6, 192(DI)
	VMOVUPD Y7, 224(DI)
	VZEROUPPER
	RET

