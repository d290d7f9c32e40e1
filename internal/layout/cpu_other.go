//go:build !amd64 || purego

package layout

// hasAVX2 and hasFMA are false: the pure-Go build has no assembly kernels.
const (
	hasAVX2 = false
	hasFMA  = false
)
