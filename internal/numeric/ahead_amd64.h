// The load-ahead of the read-bandwidth kernels: the row kernels of
// simrows_amd64.s and the extremes of kernels_amd64.s, AVX2 and AVX-512
// alike, the float32 sums of sum_amd64.h's CVTLOOP (kernels_amd64.s and
// rows_amd64.s), the float64 leaf sums and the column sums of
// acc_amd64.s, and the uint8 sums of u8sum_amd64.s. On Go's heap a scan
// crosses a 4 KiB page every 32 blocks of 128 bytes, each a TLB miss that
// the kernels' prefetches do not hide; a demand load of one element a few
// pages ahead makes the translation ready before the loop's loads and
// prefetches reach the page. The load is clamped to the last element of
// the kernel's data, so that it never reads past it; its value is not
// used, so that results keep their bits.

// TLBAHEAD is how far ahead (in bytes) the kernels load: 16 KiB, four
// pages. On 64 MiB of 256-float rows on Go's heap (AVX-512, same-moment
// ratios, median of 40) the row kernel read 1.09x as fast with 16, 32 or
// 64 KiB; on huge pages 1.00x with 16 KiB, 0.98x with 32 and 64 KiB.
// With AVX2 (same-moment ratios to the kernels without the loads, median
// of 60) the row dot product read 1.10x as fast, the row squared
// distance, the maximum and the minimum 1.06x (8 and 32 KiB within the
// noise of 16), on huge pages 1.00-1.02x.
#define TLBAHEAD 16384

// TOUCH(OFF, BASE) loads into BX the element OFF bytes past the address
// in BASE, or the last element (at R13) if that is beyond it. It
// clobbers AX and BX.
#define TOUCH(OFF, BASE) \
	LEAQ    OFF(BASE), AX; \
	CMPQ    AX, R13; \
	CMOVQGT R13, AX; \
	MOVL    (AX), BX

// RUNAHEAD touches the three pages after the start of a run at SI (R13
// at its last element), which PAGEAHEAD does not reach.
#define RUNAHEAD \
	TOUCH(4096, SI); \
	TOUCH(8192, SI); \
	TOUCH(12288, SI)

// PAGEAHEADN(MASK, BASE), in a loop from BASE counted down in CX,
// touches the page TLBAHEAD bytes ahead of BASE on the steps where
// CX&MASK is 0: once every 4 KiB with MASK $31 for steps of 128 bytes,
// $63 for steps of 64.
#define PAGEAHEADN(MASK, BASE) \
	TESTQ MASK, CX; \
	JNZ   5(PC); \
	TOUCH(TLBAHEAD, BASE)

// PAGEAHEAD is PAGEAHEADN for a loop of 128-byte steps from SI.
#define PAGEAHEAD PAGEAHEADN($31, SI)

// ONCEPER(SHIFT, BASE) touches the element TLBAHEAD bytes ahead of BASE
// if it lies past the last span of 1<<SHIFT bytes it touched (the span's
// number in R12, which the kernel zeroes first): at each row of a row
// loop, so that rows of any stride touch each span once, and a loop that
// sweeps the same rows again touches nothing more. It clobbers AX and
// BX.
#define ONCEPER(SHIFT, BASE) \
	LEAQ TLBAHEAD(BASE), AX; \
	SHRQ SHIFT, AX; \
	CMPQ AX, R12; \
	JLS  6(PC); \
	MOVQ AX, R12; \
	TOUCH(TLBAHEAD, BASE)

// PAGEONCE(BASE) is ONCEPER for 4 KiB pages: each page once (a touch
// every row of 256 bytes read 0.75-0.88x as fast as none on 64 MiB).
#define PAGEONCE(BASE) ONCEPER($12, BASE)

// LASTELEMOF(X, N, ROWS, STRIDE) sets R13 to the address of the last
// element of the last of ROWS rows (ROWS > 0) of N float32 from X,
// STRIDE bytes apart, the bound of the row kernels' TOUCH. It clobbers
// AX.
#define LASTELEMOF(X, N, ROWS, STRIDE) \
	MOVQ  ROWS, R13; \
	DECQ  R13; \
	IMULQ STRIDE, R13; \
	LEAQ  -4(X)(N*4), AX; \
	ADDQ  AX, R13

// LASTELEM is LASTELEMOF with x in R8, n in R9, rows in R10 and stride
// in R11, as the row kernels keep them.
#define LASTELEM LASTELEMOF(R8, R9, R10, R11)
