package linalg

// SetKernels turns the assembly kernels (where the CPU has AVX2 and FMA)
// and among them the AVX-512 ones (where it also has AVX-512F) on or off,
// and returns the function that restores the previous settings; tests
// cover every kernel with it. Operands packed under one setting stay
// valid under another (the Go kernel reads any packing).
func SetKernels(asm, avx512 bool) (restore func()) {
	oldAsm, old512 := useAsm, useAVX512
	useAsm, useAVX512 = asm && hasFMA, avx512 && hasFMA && hasAVX512
	return func() { useAsm, useAVX512 = oldAsm, old512 }
}

// HasAsm reports whether the AVX2 and FMA kernels can run here.
func HasAsm() bool { return hasFMA }

// HasAVX512 reports whether the AVX-512 kernels can run here.
func HasAVX512() bool { return hasFMA && hasAVX512 }
