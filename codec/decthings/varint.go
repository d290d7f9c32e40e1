package decthings

import (
	"encoding/binary"
	"math"
)

// AppendVarint appends x in Decthings' varint form and returns the extended
// slice: one byte for x < 253; otherwise a marker byte 253, 254 or 255
// followed by x as a big-endian uint16, uint32 or uint64.
func AppendVarint(dst []byte, x uint64) []byte {
	switch {
	case x < 253:
		return append(dst, byte(x))
	case x <= math.MaxUint16:
		return binary.BigEndian.AppendUint16(append(dst, 253), uint16(x))
	case x <= math.MaxUint32:
		return binary.BigEndian.AppendUint32(append(dst, 254), uint32(x))
	}
	return binary.BigEndian.AppendUint64(append(dst, 255), x)
}

// VarintLen returns the number of bytes AppendVarint writes for x: 1, 3, 5
// or 9.
func VarintLen(x uint64) int {
	switch {
	case x < 253:
		return 1
	case x <= math.MaxUint16:
		return 3
	case x <= math.MaxUint32:
		return 5
	}
	return 9
}

// Varint reads a varint from the start of b and returns its value and the
// number of bytes read. Like the official clients it accepts non-minimal
// forms (a small value behind a 253, 254 or 255 marker). A truncated varint
// is an error wrapping arrow.ErrInvalid; it never reads past b.
func Varint(b []byte) (x uint64, n int, err error) {
	if len(b) == 0 {
		return 0, 0, errorf("varint: no bytes")
	}
	switch m := b[0]; m {
	case 253:
		if len(b) < 3 {
			return 0, 0, errorf("varint: marker 253 needs 2 more bytes, have %d", len(b)-1)
		}
		return uint64(binary.BigEndian.Uint16(b[1:])), 3, nil
	case 254:
		if len(b) < 5 {
			return 0, 0, errorf("varint: marker 254 needs 4 more bytes, have %d", len(b)-1)
		}
		return uint64(binary.BigEndian.Uint32(b[1:])), 5, nil
	case 255:
		if len(b) < 9 {
			return 0, 0, errorf("varint: marker 255 needs 8 more bytes, have %d", len(b)-1)
		}
		return binary.BigEndian.Uint64(b[1:]), 9, nil
	default:
		return uint64(m), 1, nil
	}
}
