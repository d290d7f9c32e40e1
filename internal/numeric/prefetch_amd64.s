//go:build !purego

#include "textflag.h"

// func prefetchLines(p unsafe.Pointer, n int)
// Prefetches the n 64-byte lines from p into the caches.
TEXT ·prefetchLines(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), CX
	TESTQ CX, CX
	JZ   done
loop:
	PREFETCHT0 (SI)
	ADDQ $64, SI
	DECQ CX
	JNZ  loop
done:
	RET
