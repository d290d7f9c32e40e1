//go:build !amd64 || purego

package linalg

// hasAVX512 is false: the pure-Go build has no assembly kernels.
const hasAVX512 = false
