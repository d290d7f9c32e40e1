package objstore

// SetListPageSize makes List ask for pages of n keys until the returned
// function restores the server's default.
func SetListPageSize(n int32) (restore func()) {
	old := listPageSize
	listPageSize = n
	return func() { listPageSize = old }
}
