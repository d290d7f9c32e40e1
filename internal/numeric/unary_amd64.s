//go:build !purego

#include "textflag.h"

// UNF32 defines NAME(d, a unsafe.Pointer, n int): d[j] = op(a[j]) for n
// elements, a multiple of 8. SETUP fills the constant registers Y6 and
// Y7, OP computes Y0 from the eight elements in Y0 (Y1 free). d may be a.
#define UNF32(NAME, SETUP, OP) \
TEXT NAME(SB), NOSPLIT, $0-24; \
	MOVQ d+0(FP), DI; \
	MOVQ a+8(FP), SI; \
	MOVQ n+16(FP), CX; \
	SHLQ $2, CX; \
	XORQ AX, AX; \
	SETUP; \
loop: \
	VMOVUPS (SI)(AX*1), Y0; \
	OP; \
	VMOVUPS Y0, (DI)(AX*1); \
	ADDQ $32, AX; \
	CMPQ AX, CX; \
	JB   loop; \
	VZEROUPPER; \
	RET

// BCAST sets every dword of REG to the constant K.
#define BCAST(K, REG) MOVL K, DX; MOVQ DX, X1; VPBROADCASTD X1, REG

#define NOSETUP NOP
#define ABSSETUP BCAST($0x7fffffff, Y6); BCAST($0x00400000, Y7)
#define NEGSETUP BCAST($0x80000000, Y6)

// VSQRTPS rounds correctly, as float32(math.Sqrt(float64(x))) does
// (float64 holds twice float32's precision and 2 bits), keeps -0 and a
// NaN operand (quieted) and gives the default NaN for x < 0, as SQRTSD
// does.
#define SQRT VSQRTPS Y0, Y0
// |x| clears the sign bit; Go's conversion through float64 also quiets
// a signaling NaN, which the quiet bit ORed into the NaN lanes (VCMPPS
// UNORD of x with itself) repeats.
#define ABS VCMPPS $3, Y0, Y0, Y1; VANDPS Y6, Y0, Y0; VANDPS Y7, Y1, Y1; VORPS Y1, Y0, Y0
#define NEG VXORPS Y6, Y0, Y0
#define SQUARE VMULPS Y0, Y0, Y0
// VROUNDPS's immediate: bits 0-1 the rounding (0 to nearest even, 1
// down, 2 up), bit 3 no precision exception. A NaN comes back quieted,
// as from ROUNDSD.
#define FLOOR VROUNDPS $9, Y0, Y0
#define CEIL VROUNDPS $10, Y0, Y0
#define ROUND VROUNDPS $8, Y0, Y0

UNF32(·sqrtF32x8, NOSETUP, SQRT)
UNF32(·absF32x8, ABSSETUP, ABS)
UNF32(·negF32x8, NEGSETUP, NEG)
UNF32(·squareF32x8, NOSETUP, SQUARE)
UNF32(·floorF32x8, NOSETUP, FLOOR)
UNF32(·ceilF32x8, NOSETUP, CEIL)
UNF32(·roundF32x8, NOSETUP, ROUND)
