package layout

import "encoding/binary"

// NarrowInt32To8 stores the low byte of each little-endian 32-bit value
// of src in dst (len(dst) values; src holds at least 4*len(dst) bytes)
// and reports whether every value v satisfies uint32(v)+bias < 256, that
// is, lies in [-bias, 255-bias] (bias 0 for uint8, 128 for int8). It
// converts Parquet INT32 values to 1-byte elements with one range check
// for the whole slice; when it returns false, dst holds the low bytes
// regardless and the caller finds the value out of range.
func NarrowInt32To8(dst, src []byte, bias uint32) bool {
	src = src[:4*len(dst)]
	n := 0
	ok := true
	if useAVX2 && len(dst) >= 32 {
		n = len(dst) &^ 31
		ok = narrow8AVX2(dst[:n], src[:4*n], bias)
	}
	return narrow8Go(dst[n:], src[4*n:], bias) && ok
}

// NarrowInt32To16 is NarrowInt32To8 for 2-byte elements (len(dst)/2
// values, little-endian): values plus bias below 65,536 (bias 0 for
// uint16, 32,768 for int16).
func NarrowInt32To16(dst, src []byte, bias uint32) bool {
	k := len(dst) / 2
	src = src[:4*k]
	n := 0
	ok := true
	if useAVX2 && k >= 16 {
		n = k &^ 15
		ok = narrow16AVX2(dst[:2*n], src[:4*n], bias)
	}
	return narrow16Go(dst[2*n:2*k], src[4*n:], bias) && ok
}

// narrow8Go is NarrowInt32To8 in Go, eight values a step without a
// branch per value: the check accumulates.
func narrow8Go(dst, src []byte, bias uint32) bool {
	var acc uint32
	n := len(dst)
	i := 0
	for ; i+8 <= n; i += 8 {
		s := src[4*i : 4*i+32 : 4*i+32]
		d := dst[i : i+8 : i+8]
		a := binary.LittleEndian.Uint64(s[0:])
		b := binary.LittleEndian.Uint64(s[8:])
		c := binary.LittleEndian.Uint64(s[16:])
		e := binary.LittleEndian.Uint64(s[24:])
		acc |= (uint32(a) + bias) | (uint32(a>>32) + bias) | (uint32(b) + bias) | (uint32(b>>32) + bias) |
			(uint32(c) + bias) | (uint32(c>>32) + bias) | (uint32(e) + bias) | (uint32(e>>32) + bias)
		binary.LittleEndian.PutUint64(d, uint64(byte(a))|uint64(byte(a>>32))<<8|uint64(byte(b))<<16|uint64(byte(b>>32))<<24|
			uint64(byte(c))<<32|uint64(byte(c>>32))<<40|uint64(byte(e))<<48|uint64(byte(e>>32))<<56)
	}
	for ; i < n; i++ {
		v := binary.LittleEndian.Uint32(src[4*i:])
		acc |= v + bias
		dst[i] = byte(v)
	}
	return acc <= 0xff
}

// narrow16Go is NarrowInt32To16 in Go.
func narrow16Go(dst, src []byte, bias uint32) bool {
	var acc uint32
	n := len(dst) / 2
	i := 0
	for ; i+4 <= n; i += 4 {
		s := src[4*i : 4*i+16 : 4*i+16]
		d := dst[2*i : 2*i+8 : 2*i+8]
		a := binary.LittleEndian.Uint64(s[0:])
		b := binary.LittleEndian.Uint64(s[8:])
		acc |= (uint32(a) + bias) | (uint32(a>>32) + bias) | (uint32(b) + bias) | (uint32(b>>32) + bias)
		binary.LittleEndian.PutUint64(d, uint64(uint16(a))|uint64(uint16(a>>32))<<16|uint64(uint16(b))<<32|uint64(uint16(b>>32))<<48)
	}
	for ; i < n; i++ {
		v := binary.LittleEndian.Uint32(src[4*i:])
		acc |= v + bias
		binary.LittleEndian.PutUint16(dst[2*i:], uint16(v))
	}
	return acc <= 0xffff
}
