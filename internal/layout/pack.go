package layout

import "encoding/binary"

// Bools held one to a byte (0 for false, any other byte for true) and
// bools packed eight to a byte (Arrow's bitmaps: element j of a byte on
// bit j, least significant first).

// Masks of the per-byte tests of the Go loops.
const (
	lows  = 0x7f7f7f7f7f7f7f7f
	ones  = 0x0101010101010101
	spots = 0x8040201008040201 // bit j of byte j
	// gatherBits multiplies the low bits of eight bytes into the top byte,
	// byte j's bit landing on bit 56+j (no two products share a bit, so
	// nothing carries into it).
	gatherBits = 0x0102040810204080
)

// nonzero returns, for the eight bytes of x, 1 in each byte that is not
// 0 and 0 in the others.
func nonzero(x uint64) uint64 {
	return (((x & lows) + lows) | x) >> 7 & ones
}

// PackBools sets the bits of dst[:len(src)/8] to whether the bytes of
// src are not 0: bit j of dst[i] from src[8*i+j]. len(src) must be a
// multiple of 8 and dst at least len(src)/8 bytes long. With AVX2, 32
// bytes become 4 at a time.
func PackBools(dst, src []byte) {
	n := len(src) / 8
	dst = dst[:n]
	k := 0
	if useAVX2 && n >= 4 {
		k = n &^ 3
		packBoolsAVX2(&dst[0], &src[0], k)
	}
	for i := k; i < n; i++ {
		dst[i] = byte(nonzero(binary.LittleEndian.Uint64(src[8*i:])) * gatherBits >> 56)
	}
}

// UnpackBools writes the bits of src[:len(dst)/8] to dst as bytes 0 and
// 1: dst[8*i+j] from bit j of src[i]. len(dst) must be a multiple of 8
// and src at least len(dst)/8 bytes long. With AVX2, 4 bytes become 32
// at a time.
func UnpackBools(dst, src []byte) {
	n := len(dst) / 8
	src = src[:n]
	k := 0
	if useAVX2 && n >= 4 {
		k = n &^ 3
		unpackBoolsAVX2(&dst[0], &src[0], k)
	}
	for i := k; i < n; i++ {
		binary.LittleEndian.PutUint64(dst[8*i:], nonzero(uint64(src[i])*ones&spots))
	}
}
