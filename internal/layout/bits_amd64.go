//go:build !purego

package layout

// transposeBits64AVX2 is TransposeBits64 four rows a step: rounds 32 to 4
// exchange blocks of four rows in YMM registers, rounds 2 and 1 permute
// within them. Implemented in bits_amd64.s.
//
//go:noescape
func transposeBits64AVX2(m *[64]uint64)
