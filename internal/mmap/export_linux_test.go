package mmap

// SetMaxLeases makes MapFileLeased hold at most n leases until the
// returned function restores the limit.
func SetMaxLeases(n int) (restore func()) {
	old := maxLeases
	maxLeases = func() int { return n }
	return func() { maxLeases = old }
}

// SetLeaseBudget makes MapFileLeased lease files of at most n bytes in
// all until the returned function restores the budget.
func SetLeaseBudget(n int64) (restore func()) {
	old := leaseBudget
	leaseBudget = func() int64 { return n }
	return func() { leaseBudget = old }
}
