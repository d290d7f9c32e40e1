//go:build !amd64 || purego

package layout

// The pure-Go build never calls these (useAVX2 is false).
func packBoolsAVX2(dst, src *byte, n int)   { panic("layout: no AVX2") }
func unpackBoolsAVX2(dst, src *byte, n int) { panic("layout: no AVX2") }
