package engine

import "encoding/binary"

// The engine holds bool values as bytes, 0 or 1 (any byte other than 0
// reads as true); columns hold them bit-packed, LSB first. packBits and
// unpackBits convert a run of them eight at a time.

// Masks of the per-byte tests below.
const (
	lows  = 0x7f7f7f7f7f7f7f7f
	ones  = 0x0101010101010101
	spots = 0x8040201008040201 // bit j of byte j
	// gather multiplies the low bits of eight bytes into the top byte,
	// byte j's bit landing on bit 56+j (no two products share a bit, so
	// nothing carries into it).
	gather = 0x0102040810204080
)

// nonzero returns, for the eight bytes of x, 1 in each byte that is not
// 0 and 0 in the others.
func nonzero(x uint64) uint64 {
	return (((x & lows) + lows) | x) >> 7 & ones
}

// packByte returns the bits of the eight bytes of b, byte j's on bit j.
func packByte(b []byte) byte {
	return byte(nonzero(binary.LittleEndian.Uint64(b)) * gather >> 56)
}

// unpackByte writes the eight bits of v to d, bit j as byte j (0 or 1).
func unpackByte(d []byte, v byte) {
	binary.LittleEndian.PutUint64(d, nonzero(uint64(v)*ones&spots))
}

// packBits sets bits at, at+1, ... of dst to whether the bytes of src
// are not 0. set writes the bits of the bytes of dst the run shares with
// others (its first and last, when the run starts or ends inside them);
// the bytes in between are the run's own and are written whole.
func packBits(dst []byte, at int, src []byte, set func(i int, v bool)) {
	for len(src) > 0 && at&7 != 0 {
		set(at, src[0] != 0)
		at, src = at+1, src[1:]
	}
	i := at >> 3
	for len(src) >= 8 {
		dst[i] = packByte(src)
		i, at, src = i+1, at+8, src[8:]
	}
	for j, v := range src {
		set(at+j, v != 0)
	}
}

// unpackBits writes bits at, at+1, ... of src to the bytes of d, 0 or 1.
func unpackBits(d []byte, src []byte, at int) {
	for len(d) > 0 && at&7 != 0 {
		d[0] = b2u(bit(src, at))
		at, d = at+1, d[1:]
	}
	i := at >> 3
	for len(d) >= 8 {
		unpackByte(d, src[i])
		i, at, d = i+1, at+8, d[8:]
	}
	for j := range d {
		d[j] = b2u(bit(src, at+j))
	}
}
