package ufunc

// SetAVX2 turns the AVX2 kernels on or off (when the CPU has them) and
// returns the previous setting; tests cover both paths with it.
func SetAVX2(on bool) bool {
	old := useAVX2
	useAVX2 = on && hasAVX2
	return old
}
