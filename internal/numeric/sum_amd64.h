// Loops shared by the one-run kernels of kernels_amd64.s and the
// many-rows kernels of rows_amd64.s, so that a row summed by either gives
// the same bits. Each sums CX blocks of 16 float32 from SI in float64,
// four accumulators of four lanes (Y0-Y3), prefetching PF bytes ahead of
// SI; HSUMPD then adds the accumulators pairwise into X0. They clobber
// Y0-Y11, SI, DI and CX; L is the loop's label.
//
// CVTLOOP (the float32 loops) also touches the page TLBAHEAD bytes ahead
// of SI every 4 KiB (PAGEAHEADN of ahead_amd64.h, which a file including
// this one includes too), never past the element at R13, which the
// kernel sets to the last element of its data; it clobbers AX and BX.

// PF is how far ahead (in bytes) the kernels below (and kernels_amd64.s's
// extremes) prefetch their input: a 4 KiB page, so that the loads of a
// long scan stay in flight across the page boundaries the hardware
// prefetcher stops at. On 64 MiB of float32 (Intel, 2 cores shared) the
// sum read 0.79-0.81x as fast as numeric's prefetching row kernels with
// 512 bytes (NumPy's pairwise sum's distance), 0.86-0.89x with 1 KiB,
// 0.97-0.98x with 2 KiB and 1.02-1.03x with 4 KiB; the maximum
// 0.87-0.88x, 0.91-0.92x, 0.97-1.04x and 1.06x.
#define PF 4096

// SUMF32: x[j]; SUMSQF32: x[j]*x[j] (each product exact in float64).
// These and SQDEVSTEP's loop are CVTLOOP with the step that folds a converted vector X into
// an accumulator A.
#define ADDSTEP(X, A) VADDPD X, A, A
#define SQSTEP(X, A) VFMADD231PD X, X, A
#define SUMF32(L) CVTLOOP(L, ADDSTEP)
#define SUMSQF32(L) CVTLOOP(L, SQSTEP)

// SQDEVSTEP folds (X - Y8)^2 into A: the squared deviations from a mean
// broadcast in Y8, which CVTLOOP leaves alone.
#define SQDEVSTEP(X, A) VSUBPD Y8, X, X; VFMADD231PD X, X, A

#define CVTLOOP(L, STEP) \
	VXORPD Y0, Y0, Y0; \
	VXORPD Y1, Y1, Y1; \
	VXORPD Y2, Y2, Y2; \
	VXORPD Y3, Y3, Y3; \
L: \
	PAGEAHEADN($63, SI); \
	PREFETCHT0 PF(SI); \
	VCVTPS2PD (SI), Y4; \
	VCVTPS2PD 16(SI), Y5; \
	VCVTPS2PD 32(SI), Y6; \
	VCVTPS2PD 48(SI), Y7; \
	STEP(Y4, Y0); \
	STEP(Y5, Y1); \
	STEP(Y6, Y2); \
	STEP(Y7, Y3); \
	ADDQ $64, SI; \
	DECQ CX; \
	JNZ  L

// F64LOOP is CVTLOOP for float64: CX blocks of 16 float64 from SI, every
// line prefetched PF bytes ahead. DEVSTEP folds X - Y8 into A.
#define DEVSTEP(X, A) VSUBPD Y8, X, X; VADDPD X, A, A

#define F64LOOP(L, STEP) \
	VXORPD Y0, Y0, Y0; \
	VXORPD Y1, Y1, Y1; \
	VXORPD Y2, Y2, Y2; \
	VXORPD Y3, Y3, Y3; \
L: \
	PREFETCHT0 PF(SI); \
	PREFETCHT0 PF+64(SI); \
	VMOVUPD (SI), Y4; \
	VMOVUPD 32(SI), Y5; \
	VMOVUPD 64(SI), Y6; \
	VMOVUPD 96(SI), Y7; \
	STEP(Y4, Y0); \
	STEP(Y5, Y1); \
	STEP(Y6, Y2); \
	STEP(Y7, Y3); \
	ADDQ $128, SI; \
	DECQ CX; \
	JNZ  L

#define HSUMPD \
	VADDPD Y1, Y0, Y0; \
	VADDPD Y3, Y2, Y2; \
	VADDPD Y2, Y0, Y0; \
	VEXTRACTF128 $1, Y0, X1; \
	VADDPD X1, X0, X0; \
	VHADDPD X0, X0, X0
