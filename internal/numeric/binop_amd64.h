// BINOP defines NAME(d, a, b unsafe.Pointer, n int), the loop of the
// element-wise kernels of two operands: 32 bytes of a into Y0 and of b
// into Y1, INSTR A, B, Y0, Y0 stored to d, n >> SHIFT times (SHIFT 5 for
// n bytes, 3 for n 4-byte elements; n a multiple of 32 bytes, not 0).
// A, B = Y1, Y0 computes a op b, Y0, Y1 computes b op a. d may be a or b.
#define BINOP(NAME, INSTR, A, B, SHIFT) \
TEXT NAME(SB), NOSPLIT, $0-32; \
	MOVQ d+0(FP), DI; \
	MOVQ a+8(FP), SI; \
	MOVQ b+16(FP), DX; \
	MOVQ n+24(FP), CX; \
	SHRQ $SHIFT, CX; \
loop: \
	VMOVUPS (SI), Y0; \
	VMOVUPS (DX), Y1; \
	INSTR A, B, Y0; \
	VMOVUPS Y0, (DI); \
	ADDQ $32, DI; \
	ADDQ $32, SI; \
	ADDQ $32, DX; \
	DECQ CX; \
	JNZ  loop; \
	VZEROUPPER; \
	RET
