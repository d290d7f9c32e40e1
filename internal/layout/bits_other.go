//go:build !amd64 || purego

package layout

// The pure-Go build never calls this (useAVX2 is false).
func transposeBits64AVX2(m *[64]uint64) { transposeBits64Go(m) }
