// Loops shared by the one-run kernels of kernels_amd64.s and the
// many-rows kernels of rows_amd64.s, so that a row summed by either gives
// the same bits. Each sums CX blocks of 16 float32 from SI (and DI) in
// float64, four accumulators of four lanes (Y0-Y3), prefetching PF
// bytes ahead of SI; HSUMPD then adds the accumulators pairwise into X0.
// They clobber Y0-Y11, SI, DI and CX; L is the loop's label.

// PF is how far ahead (in bytes) the kernels below prefetch their input:
// 512 bytes, as NumPy's pairwise sum. Farther (2 KiB) measured up to 20%
// slower on 64 MiB scans: the extra lines in flight compete with the
// hardware prefetcher's own.
#define PF 512

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
