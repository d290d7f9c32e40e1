package layout

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
// is m[i] (bit j of m[i] is element (i, j)). Round s (32, 16, ..., 1)
// exchanges, in every 2s x 2s block, the s x s block above the diagonal
// (rows k, columns s..2s-1) with the one below it (rows k+s, columns
// 0..s-1). With AVX2 four rows move at a time.
func TransposeBits64(m *[64]uint64) {
	if useAVX2 {
		transposeBits64AVX2(m)
		return
	}
	transposeBits64Go(m)
}

// transposeBits64Go is TransposeBits64 one pair of rows at a time, with
// constant shifts, one loop per round.
func transposeBits64Go(m *[64]uint64) {
	for i := range 32 {
		k := (i&^31)<<1 | i&31
		a, b := m[k&63], m[(k+32)&63]
		t := (a>>32 ^ b) & 0x00000000FFFFFFFF
		m[k&63], m[(k+32)&63] = a^t<<32, b^t
	}
	for i := range 32 {
		k := (i&^15)<<1 | i&15
		a, b := m[k&63], m[(k+16)&63]
		t := (a>>16 ^ b) & 0x0000FFFF0000FFFF
		m[k&63], m[(k+16)&63] = a^t<<16, b^t
	}
	for i := range 32 {
		k := (i&^7)<<1 | i&7
		a, b := m[k&63], m[(k+8)&63]
		t := (a>>8 ^ b) & 0x00FF00FF00FF00FF
		m[k&63], m[(k+8)&63] = a^t<<8, b^t
	}
	for i := range 32 {
		k := (i&^3)<<1 | i&3
		a, b := m[k&63], m[(k+4)&63]
		t := (a>>4 ^ b) & 0x0F0F0F0F0F0F0F0F
		m[k&63], m[(k+4)&63] = a^t<<4, b^t
	}
	for i := range 32 {
		k := (i&^1)<<1 | i&1
		a, b := m[k&63], m[(k+2)&63]
		t := (a>>2 ^ b) & 0x3333333333333333
		m[k&63], m[(k+2)&63] = a^t<<2, b^t
	}
	for i := range 32 {
		k := i << 1
		a, b := m[k&63], m[(k+1)&63]
		t := (a>>1 ^ b) & 0x5555555555555555
		m[k&63], m[(k+1)&63] = a^t<<1, b^t
	}
}
