package numeric

// SetAVX512 turns the AVX-512 kernels on (where the CPU has it) or
// off, and returns the function that restores the previous setting.
func SetAVX512(on bool) (restore func()) {
	old := useAVX512
	useAVX512 = on && hasAVX512
	return func() { useAVX512 = old }
}

// HasAVX512 reports whether the CPU runs the AVX-512 kernels.
func HasAVX512() bool { return hasAVX512 }
