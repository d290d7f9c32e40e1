package numeric

// SetAVX2 turns the AVX2 kernels on (where the CPU has them) or off, and
// returns the function that restores the previous setting; tests cover
// both paths with it.
func SetAVX2(on bool) (restore func()) {
	old := useAVX2
	useAVX2 = on && hasAVX2
	return func() { useAVX2 = old }
}

// UsesAVX2 reports whether the AVX2 kernels are on.
func UsesAVX2() bool { return useAVX2 }
