package parquetconv

import (
	"encoding/binary"
	"github.com/fstensor/fstensor/parquetconv/internal/format"
	"math"

	"github.com/fstensor/fstensor/internal/layout"
)

// narrowing tells how a Parquet INT32 value becomes a narrower Arrow
// element (int8, uint8, int16, uint16), with its range.
type narrowing struct {
	lo, hi int32
}

// elemCodec maps the Parquet physical values of a tensor column to Arrow
// elements: pw bytes per physical value, w bytes per element; narrow is
// set when INT32 values are narrowed to w < 4 bytes.
type elemCodec struct {
	pw, w  int
	narrow *narrowing
}

// narrowInto narrows k INT32 values of src into dst (k*c.w bytes),
// checking that each is in the element's range (one check for all, with
// AVX2 where the CPU has it; the values are scanned again for the error
// only when one is out of range).
func (c *elemCodec) narrowInto(dst, src []byte, k int) error {
	lo, hi := c.narrow.lo, c.narrow.hi
	bias := uint32(-lo) // maps [lo, hi] onto [0, hi-lo]
	ok := false
	switch c.w {
	case 1:
		ok = layout.NarrowInt32To8(dst[:k], src[:4*k], bias)
	case 2:
		ok = layout.NarrowInt32To16(dst[:2*k], src[:4*k], bias)
	}
	if ok {
		return nil
	}
	for i := range k {
		if v := int32(binary.LittleEndian.Uint32(src[4*i:])); v < lo || v > hi {
			return errorf("value %d out of the element range [%d, %d]", v, lo, hi)
		}
	}
	return nil
}

// plain decodes k PLAIN values of src into dst (k*c.w bytes); src may
// hold more.
func (c *elemCodec) plain(dst, src []byte, k int) error {
	if uint64(k)*uint64(c.pw) > uint64(len(src)) {
		return errorf("PLAIN page holds %d bytes, %d values need %d", len(src), k, uint64(k)*uint64(c.pw))
	}
	if c.narrow != nil {
		return c.narrowInto(dst, src, k)
	}
	copy(dst[:k*c.w], src)
	return nil
}

// byteStreamSplit decodes k BYTE_STREAM_SPLIT values of src into dst;
// scratch holds the physical values when they are narrowed.
func (c *elemCodec) byteStreamSplit(dst, src []byte, k int, scratch *[]byte) error {
	pw := c.pw
	if uint64(k)*uint64(pw) > uint64(len(src)) {
		return errorf("BYTE_STREAM_SPLIT page holds %d bytes, %d values need %d", len(src), k, uint64(k)*uint64(pw))
	}
	out := dst
	if c.narrow != nil {
		*scratch = grow(*scratch, k*pw)
		out = *scratch
	}
	switch pw {
	case 4:
		s0, s1, s2, s3 := src[:k], src[k:2*k], src[2*k:3*k], src[3*k:4*k]
		out = out[:4*k]
		for i := range k {
			o := out[4*i : 4*i+4 : 4*i+4]
			o[0], o[1], o[2], o[3] = s0[i], s1[i], s2[i], s3[i]
		}
	case 8:
		out = out[:8*k]
		for i := range k {
			o := out[8*i : 8*i+8 : 8*i+8]
			for j := range 8 {
				o[j] = src[j*k+i]
			}
		}
	default:
		for i := range k {
			for j := range pw {
				out[i*pw+j] = src[j*k+i]
			}
		}
	}
	if c.narrow != nil {
		return c.narrowInto(dst, out, k)
	}
	return nil
}

// dictionary decodes the values of a dictionary page (PLAIN) into
// Arrow elements.
func (c *elemCodec) dictionary(src []byte, n int) ([]byte, error) {
	if uint64(n)*uint64(c.pw) > uint64(len(src)) {
		return nil, errorf("dictionary page holds %d bytes, %d values need %d", len(src), n, uint64(n)*uint64(c.pw))
	}
	d := make([]byte, n*c.w)
	return d, c.plain(d, src, n)
}

// indices decodes k dictionary indices of src (a bit width byte, then
// the hybrid encoding) into dst as elements of dict (len(dict)/c.w
// entries); identity tells that dict is identityDict; stream is
// copyValues' for the runs of indices that are the elements' bytes.
func (c *elemCodec) indices(dst, src []byte, k int, dict []byte, identity, stream bool) error {
	if len(src) < 1 {
		return errorf("dictionary-encoded page without a bit width")
	}
	width := int(src[0])
	if width > 32 {
		return errorf("dictionary index bit width %d above 32", width)
	}
	ndict := uint64(len(dict) / c.w)
	h := format.HybridReader{B: src[1:], Width: width, Left: k}
	w := c.w
	// With a dictionary of every value of a 1- or 2-byte type in order
	// (identity, see identityDict), indices as wide as the elements are
	// the elements' own bytes.
	copyPacked := identity && width == 8*w
	p := 0
	for h.Left > 0 {
		run, err := h.Next("dictionary indices")
		if err != nil {
			return errorf("%w", err)
		}
		if copyPacked && !run.RLE && len(run.Packed) >= run.N*w {
			copyValues(dst[p*w:(p+run.N)*w], run.Packed[:run.N*w], stream)
			p += run.N
			continue
		}
		if run.RLE {
			if run.Value >= ndict {
				return errorf("dictionary index %d, the dictionary has %d values", run.Value, ndict)
			}
			e := dict[int(run.Value)*w : int(run.Value+1)*w]
			fillPattern(dst[p*w:(p+run.N)*w], e)
			p += run.N
			continue
		}
		for i := range run.N {
			var v uint64
			if width == 8 {
				v = uint64(run.Packed[i])
			} else {
				v = format.Unpack(run.Packed, width, i)
			}
			if v >= ndict {
				return errorf("dictionary index %d, the dictionary has %d values", v, ndict)
			}
			switch w {
			case 1:
				dst[p] = dict[v]
			case 2:
				binary.LittleEndian.PutUint16(dst[2*p:], binary.LittleEndian.Uint16(dict[2*v:]))
			case 4:
				binary.LittleEndian.PutUint32(dst[4*p:], binary.LittleEndian.Uint32(dict[4*v:]))
			case 8:
				binary.LittleEndian.PutUint64(dst[8*p:], binary.LittleEndian.Uint64(dict[8*v:]))
			}
			p++
		}
	}
	return nil
}

// identityDict reports whether dict holds every value of a w-byte
// integer type (w 1 or 2) in order: entry i is i, little-endian.
func identityDict(dict []byte, w int) bool {
	if (w != 1 && w != 2) || len(dict) != w<<(8*w) {
		return false
	}
	for i := range len(dict) / w {
		if w == 1 && dict[i] != byte(i) || w == 2 && binary.LittleEndian.Uint16(dict[2*i:]) != uint16(i) {
			return false
		}
	}
	return true
}

// fillPattern fills dst with copies of e (len(dst) a multiple of len(e)).
func fillPattern(dst, e []byte) {
	if len(dst) == 0 {
		return
	}
	n := copy(dst, e)
	for n < len(dst) {
		n += copy(dst[n:], dst[:n])
	}
}

// streamBytes is the size of the chunks whose values copyValues copies
// with non-temporal stores: chunks too large to stay in cache.
const streamBytes = 1 << 20

// copyValues copies src to dst (of the same length). With stream, for a
// chunk of at least streamBytes, whole destination lines are written with
// non-temporal stores where the build has them (layout.CopyRuns): no read
// for ownership of lines that are written whole, as copy() does for
// copies of 1 MiB or more but not for the pages of a chunk, which are
// smaller; the decoder then fences once the chunk is decoded
// (layout.Fence), before it is handed to another goroutine.
func copyValues(dst, src []byte, stream bool) {
	if !stream || len(dst) == 0 {
		copy(dst, src)
		return
	}
	layout.CopyRuns(dst, src, layout.Runs{Run: len(dst), Count: 1}, layout.Runs{}, true)
}

// grow returns b resized to n bytes, reallocated when too small.
func grow(b []byte, n int) []byte {
	if cap(b) < n {
		return make([]byte, n)
	}
	return b[:n]
}

// narrowRanges are the INT32 ranges of the narrow element types.
var (
	rangeInt8   = &narrowing{math.MinInt8, math.MaxInt8}
	rangeUint8  = &narrowing{0, math.MaxUint8}
	rangeInt16  = &narrowing{math.MinInt16, math.MaxInt16}
	rangeUint16 = &narrowing{0, math.MaxUint16}
)
