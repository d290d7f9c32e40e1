// Registers and macros shared by the 1- and 2-byte AVX2 transposes
// (transpose_w1_amd64.s, transpose_w2_amd64.s).
//
// Registers as in transpose_amd64.s:
//
//	SI, R10, R14, R15  source lines 0, 4, 8 and 12 of the block
//	R8, R9             source line stride and 3 times it, in bytes
//	DI, R13            destination rows of the block
//	R11, R12           destination row stride and 3 times it, in bytes
//	AX, BX             block counters (steps, tiles)
//	CX, DX             source and destination of the current tile

// PREFETCHNEXT prefetches what this step of the next tile reads, 16
// source lines further: the hardware prefetchers start over at each 4 KiB
// page. R13 is scratch.
#define PREFETCHNEXT \
	PREFETCH4LINES(R15); \
	PREFETCH4LINES(R13); \
	PREFETCH4LINES(R13); \
	PREFETCH4LINES(R13)

// PREFETCH4LINES points R13 four source lines past B and prefetches the
// four lines from there.
#define PREFETCH4LINES(B) \
	LEAQ       (B)(R8*4), R13; \
	PREFETCHT0 (R13); \
	PREFETCHT0 (R13)(R8*1); \
	PREFETCHT0 (R13)(R8*2); \
	PREFETCHT0 (R13)(R9*1)

// LOADLINES loads 16 bytes of source lines k (lower lane) and k+8 (upper
// lane) into Yk, k < 8.
#define LOADLINES \
	VMOVDQU     (SI), X0; \
	VINSERTI128 $1, (R14), Y0, Y0; \
	VMOVDQU     (SI)(R8*1), X1; \
	VINSERTI128 $1, (R14)(R8*1), Y1, Y1; \
	VMOVDQU     (SI)(R8*2), X2; \
	VINSERTI128 $1, (R14)(R8*2), Y2, Y2; \
	VMOVDQU     (SI)(R9*1), X3; \
	VINSERTI128 $1, (R14)(R9*1), Y3, Y3; \
	VMOVDQU     (R10), X4; \
	VINSERTI128 $1, (R15), Y4, Y4; \
	VMOVDQU     (R10)(R8*1), X5; \
	VINSERTI128 $1, (R15)(R8*1), Y5, Y5; \
	VMOVDQU     (R10)(R8*2), X6; \
	VINSERTI128 $1, (R15)(R8*2), Y6, Y6; \
	VMOVDQU     (R10)(R9*1), X7; \
	VINSERTI128 $1, (R15)(R9*1), Y7, Y7
