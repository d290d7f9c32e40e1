package layout

// SetAVX2 turns the AVX2 kernels on (where the CPU has them) or off, and
// returns the function that restores the previous setting.
func SetAVX2(on bool) (restore func()) {
	old := useAVX2
	useAVX2 = on && hasAVX2
	return func() { useAVX2 = old }
}

// SetRuns sets the prefetch distance and the shortest non-temporal run of
// the run-copy kernel, and returns the function that restores them.
func SetRuns(ahead, ntMin int) (restore func()) {
	a, m := runsAhead, runsNTMin
	runsAhead, runsNTMin = ahead, ntMin
	return func() { runsAhead, runsNTMin = a, m }
}
