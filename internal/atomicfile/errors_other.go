//go:build !unix

package atomicfile

// isInvalid reports whether a directory sync failed because the platform
// cannot sync directories; elsewhere than Unix every failure counts as one.
func isInvalid(error) bool { return true }
