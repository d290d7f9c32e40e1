package kernel

// Bit-matrix transposes for bool tensors (bit-packed, least significant bit
// first), after Hacker's Delight 7-3: log2(n) rounds of block swaps, each
// exchanging the off-diagonal blocks of every 2s x 2s block with one
// masked shift-and-xor per pair of rows.

// TransposeBits8 returns the transpose of the 8x8 bit matrix x whose row i
// is byte i of x (bit 8i+j is element (i, j)): bit 8j+i of the result is
// bit 8i+j of x.
func TransposeBits8(x uint64) uint64 {
	t := (x ^ x>>7) & 0x00AA00AA00AA00AA
	x ^= t ^ t<<7
	t = (x ^ x>>14) & 0x0000CCCC0000CCCC
	x ^= t ^ t<<14
	t = (x ^ x>>28) & 0x00000000F0F0F0F0
	x ^= t ^ t<<28
	return x
}

// TransposeBits64 transposes in place the 64x64 bit matrix m whose row i
// is m[i] (bit j of m[i] is element (i, j)).
func TransposeBits64(m *[64]uint64) {
	swapBlocks(m, 32, 0x00000000FFFFFFFF)
	swapBlocks(m, 16, 0x0000FFFF0000FFFF)
	swapBlocks(m, 8, 0x00FF00FF00FF00FF)
	swapBlocks(m, 4, 0x0F0F0F0F0F0F0F0F)
	swapBlocks(m, 2, 0x3333333333333333)
	swapBlocks(m, 1, 0x5555555555555555)
}

// swapBlocks exchanges, in every 2s x 2s block of m, the s x s block above
// the diagonal (rows k, columns s..2s-1) with the one below it; mask selects
// the low s columns of every 2s.
func swapBlocks(m *[64]uint64, s uint, mask uint64) {
	for k0 := uint(0); k0 < 64; k0 += 2 * s {
		for k := k0; k < k0+s; k++ {
			a, b := m[k&63], m[(k+s)&63]
			t := (a>>s ^ b) & mask
			m[k&63] = a ^ t<<s
			m[(k+s)&63] = b ^ t
		}
	}
}
