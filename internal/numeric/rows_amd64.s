//go:build !purego

#include "textflag.h"
#include "sum_amd64.h"
#include "ahead_amd64.h"

// ROWS defines NAME(x unsafe.Pointer, n, rows, stride int, out
// unsafe.Pointer): out[r] = LOOP over the n float32 (a multiple of 16,
// n > 0) from x + r*stride bytes, for r < rows (rows > 0), each row
// summed exactly as the one-run kernel sums it. Each row starts by
// touching the page TLBAHEAD bytes ahead if it has not yet (PAGEONCE),
// and LOOP touches the pages ahead within it, never past the last element
// of the last row (R13, LASTELEM).
#define ROWS(NAME, LOOP) \
TEXT NAME(SB), NOSPLIT, $0-40; \
	MOVQ x+0(FP), R8; \
	MOVQ n+8(FP), R9; \
	MOVQ rows+16(FP), R10; \
	MOVQ stride+24(FP), R11; \
	LASTELEM; \
	XORQ R12, R12; \
	SHRQ $4, R9; \
	MOVQ out+32(FP), DX; \
row: \
	PAGEONCE(R8); \
	MOVQ R8, SI; \
	MOVQ R9, CX; \
	LOOP(elems); \
	HSUMPD; \
	MOVSD X0, (DX); \
	ADDQ $8, DX; \
	ADDQ R11, R8; \
	DECQ R10; \
	JNZ  row; \
	VZEROUPPER; \
	RET

ROWS(·sumRowsF32x16, SUMF32)
ROWS(·sumSqRowsF32x16, SUMSQF32)
