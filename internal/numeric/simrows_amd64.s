//go:build !purego

#include "textflag.h"
#include "ahead_amd64.h"

// SIMPF is how far ahead (in bytes) the row kernels below prefetch: 2 KiB,
// half a page ahead, so that a scan of many rows keeps its loads in
// flight across the 4 KiB pages the hardware prefetcher stops at. On
// 64 MiB of 256-float rows (Intel, AVX2) 2 and 4 KiB read 1.26-1.41x as
// fast as a Dot call per row, 1 KiB 1.13-1.16x, 512 bytes 1.10x, no
// prefetch 1.14x, PREFETCHNTA 0.76x.
#define SIMPF 2048

// HSUM8 adds the eight lanes of Y0 into lane 0 of X0 with X1 as
// scratch, in similarity_amd64.s's HSUM order.
#define HSUM8 \
	VEXTRACTF128 $1, Y0, X1; \
	VADDPS       X1, X0, X0; \
	VPERMILPS    $0x0E, X0, X1; \
	VADDPS       X1, X0, X0; \
	VPERMILPS    $0x01, X0, X1; \
	VADDSS       X1, X0, X0

// ROWEND ends a row of the row kernels: the sum of Y0..Y3 in
// dotF32x32's order stored to (DX), then the next row from R8 + R11, or
// the return after the last.
#define ROWEND \
	VADDPS Y1, Y0, Y0; \
	VADDPS Y3, Y2, Y2; \
	VADDPS Y2, Y0, Y0; \
	HSUM8; \
	MOVSS X0, (DX); \
	ADDQ  $4, DX; \
	ADDQ  R11, R8; \
	DECQ  R10; \
	JNZ   row; \
	VZEROUPPER; \
	RET

// SIMARGS loads the arguments of the row kernels below: x in R8, stride
// in R11, n/32 blocks in R9, rows in R10, out in DX, and in R13 the
// address of the last element of the last row (LASTELEM); it zeroes R12,
// the last span SIMROW touched.
#define SIMARGS \
	MOVQ x+0(FP), R8; \
	MOVQ stride+8(FP), R11; \
	MOVQ n+24(FP), R9; \
	MOVQ rows+32(FP), R10; \
	LASTELEM; \
	XORQ R12, R12; \
	SHRQ $5, R9; \
	MOVQ out+40(FP), DX

// SIMONCE is the span (a shift: 2 KiB) within which SIMROW touches
// ahead once: rows shorter than 2 KiB touch twice a page, longer ones at
// every row. Against a touch at every row on 64 MiB of rows on Go's heap
// (Intel, AVX2 and AVX-512, the variants taking turns in one process,
// medians of 60 rounds): rows of 64 floats 1.07-1.26x, of 128 0.99x
// (AVX-512) to 1.18x (AVX2), of 256 1.02-1.08x, of 512, 768, 1024 and
// 3072 0.99-1.01x; on huge pages 0.99-1.01x. Once per 4 KiB page
// (PAGEONCE) read rows of up to 512 floats 0-8% faster still but rows
// of 768 (3 KiB) 1-7% slower than a touch at every row.
#define SIMONCE $11

// SIMROW starts a row at R8: it touches the element TLBAHEAD bytes ahead
// unless an earlier row touched the same 2 KiB (ONCEPER(SIMONCE)), and
// sets SI to the row, DI to q (from the arguments: R12 is ONCEPER's) and
// CX to the blocks of the row.
#define SIMROW \
	ONCEPER(SIMONCE, R8); \
	MOVQ R8, SI; \
	MOVQ q+16(FP), DI; \
	MOVQ R9, CX

// SIMNEXT moves SI and DI to the next block of 128 bytes and loops to
// elems while blocks remain.
#define SIMNEXT \
	ADDQ $128, SI; \
	ADDQ $128, DI; \
	DECQ CX; \
	JNZ  elems

// SIMROWS defines NAME(x *float32, stride int, q *float32, n, rows int,
// out *float32): out[r] = the kernel STEP of the n float32 (a positive
// multiple of 32) from x + r*stride bytes with q, for r < rows (rows >
// 0), each row with the four accumulators, the order and the final sum
// of dotF32x32 (sqL2F32x32), so that a row gets their bits. Each row
// starts by touching the element TLBAHEAD bytes ahead unless an earlier
// row touched the same 2 KiB (SIMROW), never past the last element of the
// last row (R13).
#define SIMROWS(NAME, STEP) \
TEXT NAME(SB), NOSPLIT, $0-48; \
	SIMARGS; \
row: \
	SIMROW; \
	VXORPS Y0, Y0, Y0; \
	VXORPS Y1, Y1, Y1; \
	VXORPS Y2, Y2, Y2; \
	VXORPS Y3, Y3, Y3; \
elems: \
	PREFETCHT0 SIMPF(SI); \
	PREFETCHT0 SIMPF+64(SI); \
	STEP; \
	SIMNEXT; \
	ROWEND

// DOTSTEP is dotF32x32's loop body.
#define DOTSTEP \
	VMOVUPS     (SI), Y4; \
	VMOVUPS     32(SI), Y5; \
	VMOVUPS     64(SI), Y6; \
	VMOVUPS     96(SI), Y7; \
	VFMADD231PS (DI), Y4, Y0; \
	VFMADD231PS 32(DI), Y5, Y1; \
	VFMADD231PS 64(DI), Y6, Y2; \
	VFMADD231PS 96(DI), Y7, Y3

// SQL2STEP is sqL2F32x32's loop body.
#define SQL2STEP \
	VMOVUPS     (SI), Y4; \
	VMOVUPS     32(SI), Y5; \
	VMOVUPS     64(SI), Y6; \
	VMOVUPS     96(SI), Y7; \
	VSUBPS      (DI), Y4, Y4; \
	VSUBPS      32(DI), Y5, Y5; \
	VSUBPS      64(DI), Y6, Y6; \
	VSUBPS      96(DI), Y7, Y7; \
	VFMADD231PS Y4, Y4, Y0; \
	VFMADD231PS Y5, Y5, Y1; \
	VFMADD231PS Y6, Y6, Y2; \
	VFMADD231PS Y7, Y7, Y3

SIMROWS(·dotRowsF32x32, DOTSTEP)
SIMROWS(·sqL2RowsF32x32, SQL2STEP)

// ZPF is how far ahead (in bytes) the AVX-512 row kernels below prefetch:
// 8 KiB. On 64 MiB of 256-float rows (Intel, AVX-512, 2 cores shared,
// same-moment ratios to SIMROWS's kernel, median of 40) the AVX-512
// kernel read 1.02-1.04x as fast with 2 KiB, 1.04-1.05x with 4 KiB and
// 1.05-1.07x with 8 KiB (a loop of loads alone: 1.05x); on 1.5 GiB of
// 768-float rows (memory, not cache) 1.11x with 8 KiB, 1.01x with 16 KiB.
#define ZPF 8192

// ZSIMROWS is SIMROWS with AVX-512: the 32 float32 partial sums of a row
// sit in two ZMM registers, Z0 holding SIMROWS's Y0 (low half) and Y1
// (high half), Z2 its Y2 and Y3, and each lane gets the same operations
// in the same order; the final sum splits them back into Y0-Y3 and adds
// them as SIMROWS does, so that a row gets the same bits; it touches
// ahead of its rows as SIMROWS does (SIMROW).
#define ZSIMROWS(NAME, STEP) \
TEXT NAME(SB), NOSPLIT, $0-48; \
	SIMARGS; \
row: \
	SIMROW; \
	VXORPS Z0, Z0, Z0; \
	VXORPS Z2, Z2, Z2; \
elems: \
	PREFETCHT0 ZPF(SI); \
	PREFETCHT0 ZPF+64(SI); \
	STEP; \
	SIMNEXT; \
	VEXTRACTF64X4 $1, Z0, Y1; \
	VEXTRACTF64X4 $1, Z2, Y3; \
	ROWEND

// ZDOTSTEP is DOTSTEP on two ZMM registers.
#define ZDOTSTEP \
	VMOVUPS     (SI), Z4; \
	VMOVUPS     64(SI), Z5; \
	VFMADD231PS (DI), Z4, Z0; \
	VFMADD231PS 64(DI), Z5, Z2

// ZSQL2STEP is SQL2STEP on two ZMM registers.
#define ZSQL2STEP \
	VMOVUPS     (SI), Z4; \
	VMOVUPS     64(SI), Z5; \
	VSUBPS      (DI), Z4, Z4; \
	VSUBPS      64(DI), Z5, Z5; \
	VFMADD231PS Z4, Z4, Z0; \
	VFMADD231PS Z5, Z5, Z2

ZSIMROWS(·dotRowsF32x32Z, ZDOTSTEP)
ZSIMROWS(·sqL2RowsF32x32Z, ZSQL2STEP)
