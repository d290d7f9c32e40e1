package linalg

// SetAsm turns the assembly kernels on (where the CPU has AVX2 and FMA)
// or off, and returns the function that restores the previous setting;
// tests cover both kernels with it.
func SetAsm(on bool) (restore func()) {
	old := useAsm
	useAsm = on && hasFMA
	return func() { useAsm = old }
}

// HasAsm reports whether the assembly kernels can run here.
func HasAsm() bool { return hasFMA }
