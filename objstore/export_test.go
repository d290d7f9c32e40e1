package objstore

// SetListPageSize makes List ask for pages of n keys until the returned
// function restores the server's default.
func SetListPageSize(n int32) (restore func()) {
	old := listPageSize
	listPageSize = n
	return func() { listPageSize = old }
}

// SetMaxPrefetch makes Objects hold at most n bytes from Prefetch until
// the returned function restores MaxPrefetch.
func SetMaxPrefetch(n int64) (restore func()) {
	old := maxPrefetch
	maxPrefetch = n
	return func() { maxPrefetch = old }
}

// SetPartBase makes Uploads cut parts of n bytes (doubling every 1,000
// parts) until the returned function restores PartSize.
func SetPartBase(n int) (restore func()) {
	old := partBase
	partBase = n
	return func() { partBase = old }
}

// PartSizeAfter returns the size of the part an Upload fills after n
// parts.
func PartSizeAfter(n int) int {
	w := &Upload{sent: n}
	return w.partSize()
}
