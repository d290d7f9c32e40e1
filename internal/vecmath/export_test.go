package vecmath

// SetAsm turns the assembly kernels on (where the CPU has them) or off,
// and returns the function that restores the previous setting.
func SetAsm(on bool) (restore func()) {
	old := useAsm
	useAsm = on && old
	return func() { useAsm = old }
}
