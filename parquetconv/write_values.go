package parquetconv

import (
	"encoding/binary"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/internal/unsafeslice"
)

// nativeLittle reports whether the machine stores integers
// little-endian, as Parquet does: then widened values are stored as
// native uint32s.
var nativeLittle = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// valueKind says how the elements of a tensor column become PLAIN
// Parquet values.
type valueKind uint8

const (
	valueCopy   valueKind = iota // same bytes: 4- and 8-byte types, float16 as FIXED_LEN_BYTE_ARRAY(2)
	valueInt8                    // int8 sign-extended to INT32
	valueUint8                   // uint8 zero-extended to INT32
	valueInt16                   // int16 sign-extended to INT32
	valueUint16                  // uint16 zero-extended to INT32
)

// valueLayout returns how elements of dt are written and the width of
// one Parquet value in bytes.
func valueLayout(dt arrow.DataType) (valueKind, int) {
	switch dt.ID() {
	case arrow.INT8:
		return valueInt8, 4
	case arrow.UINT8:
		return valueUint8, 4
	case arrow.INT16:
		return valueInt16, 4
	case arrow.UINT16:
		return valueUint16, 4
	}
	return valueCopy, dt.(arrow.FixedWidthDataType).Bytes()
}

// putValues writes the elements in src (little-endian Arrow elements of
// the column's type) to dst as PLAIN values; dst holds exactly the
// values' bytes. Widening is fastest when dst is 4-byte aligned.
func putValues(dst, src []byte, kind valueKind) {
	if kind != valueCopy && nativeLittle {
		if d, err := unsafeslice.Cast[uint32](dst); err == nil {
			widenNative(d, src, kind)
			return
		}
	}
	switch kind {
	case valueCopy:
		copy(dst, src)
	case valueInt8:
		dst = dst[:4*len(src)]
		for i, v := range src {
			binary.LittleEndian.PutUint32(dst[4*i:], uint32(int32(int8(v))))
		}
	case valueUint8:
		dst = dst[:4*len(src)]
		for i, v := range src {
			binary.LittleEndian.PutUint32(dst[4*i:], uint32(v))
		}
	case valueInt16:
		n := len(src) / 2
		dst = dst[:4*n]
		src = src[:2*n]
		for i := range n {
			binary.LittleEndian.PutUint32(dst[4*i:], uint32(int32(int16(binary.LittleEndian.Uint16(src[2*i:])))))
		}
	case valueUint16:
		n := len(src) / 2
		dst = dst[:4*n]
		src = src[:2*n]
		for i := range n {
			binary.LittleEndian.PutUint32(dst[4*i:], uint32(binary.LittleEndian.Uint16(src[2*i:])))
		}
	}
}

// widenNative is putValues for widening kinds into native uint32s.
func widenNative(d []uint32, src []byte, kind valueKind) {
	switch kind {
	case valueInt8:
		d = d[:len(src)]
		for i, v := range src {
			d[i] = uint32(int32(int8(v)))
		}
	case valueUint8:
		d = d[:len(src)]
		for i, v := range src {
			d[i] = uint32(v)
		}
	case valueInt16:
		d = d[:len(src)/2]
		for i := range d {
			d[i] = uint32(int32(int16(binary.LittleEndian.Uint16(src[2*i:]))))
		}
	case valueUint16:
		d = d[:len(src)/2]
		for i := range d {
			d[i] = uint32(binary.LittleEndian.Uint16(src[2*i:]))
		}
	}
}

// identityDictionary returns the PLAIN INT32 dictionary of every value
// of a 1- or 2-byte integer kind, entry i being the value whose bits are
// i, so that the elements' own bytes are their indexes.
func identityDictionary(kind valueKind) []byte {
	n, src := 256, make([]byte, 512)
	if kind == valueInt16 || kind == valueUint16 {
		n = 65536
		src = make([]byte, 2*n)
		for i := range n {
			binary.LittleEndian.PutUint16(src[2*i:], uint16(i))
		}
	} else {
		for i := range n {
			src[i] = byte(i)
		}
		src = src[:n]
	}
	dict := make([]byte, 4*n)
	putValues(dict, src, kind)
	return dict
}

// splitStreams writes src, values of w bytes, to dst in the
// BYTE_STREAM_SPLIT encoding: byte k of value i goes to dst[k*n+i].
func splitStreams(dst, src []byte, w int) {
	n := len(src) / w
	switch w {
	case 4:
		s0, s1, s2, s3 := dst[:n], dst[n:2*n], dst[2*n:3*n], dst[3*n:4*n]
		src = src[:4*n]
		for i := range s0 {
			v := src[4*i : 4*i+4]
			s0[i], s1[i], s2[i], s3[i] = v[0], v[1], v[2], v[3]
		}
	case 8:
		s0, s1, s2, s3 := dst[:n], dst[n:2*n], dst[2*n:3*n], dst[3*n:4*n]
		s4, s5, s6, s7 := dst[4*n:5*n], dst[5*n:6*n], dst[6*n:7*n], dst[7*n:8*n]
		src = src[:8*n]
		for i := range s0 {
			v := src[8*i : 8*i+8]
			s0[i], s1[i], s2[i], s3[i] = v[0], v[1], v[2], v[3]
			s4[i], s5[i], s6[i], s7[i] = v[4], v[5], v[6], v[7]
		}
	default:
		for k := range w {
			s := dst[k*n : (k+1)*n]
			for i := range s {
				s[i] = src[i*w+k]
			}
		}
	}
}
