package mmap

// SetMaxLeases makes MapFileLeased hold at most n leases until the
// returned function restores the limit.
func SetMaxLeases(n int) (restore func()) {
	old := maxLeases
	maxLeases = func() int { return n }
	return func() { maxLeases = old }
}
