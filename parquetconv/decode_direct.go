package parquetconv

import (
	"encoding/binary"

	"github.com/fstensor/fstensor/parquetconv/internal/format"
)

// direct decodes an uncompressed data page of PLAIN values by reading
// its values from the file straight into the column's child (its levels
// come with the header's read-ahead): one copy, from the file, instead
// of two; INT32 values to narrow are read in pieces of 64 KiB and
// narrowed from the cache. From a mapped file, the values are copied
// from the mapping with copyValues (a read into the column with ReadAt
// measured 15-25% slower: the kernel's copy reads each destination line
// before writing it), and values to narrow are left to the general path,
// which narrows them from the mapping. It returns false, having changed
// nothing, for any other page, or when the levels do not fit the
// read-ahead; the page is then decoded from its whole body.
func (d *chunkDecoder) direct(h format.PageHeader, pb pageBody, codec int) (bool, error) {
	c := &d.col.codec
	if !h.HasPage || h.Encoding != format.EncPlain || (c.narrow == nil && c.pw != c.w) {
		return false, nil
	}
	if c.narrow != nil && d.mem != nil { // narrowed from the mapping, with no copy first
		return false, nil
	}
	if !uncompressedData(h, codec) {
		return false, nil
	}
	rep, def, rest, ok := pageLevels(h, pb.prefix, d.col.maxDef > 0)
	if !ok {
		return false, nil
	}
	off := len(pb.prefix) - len(rest)
	pw := c.pw
	return true, d.levelsThen(h, rep, def, func(dst []byte, k int) error {
		if uint64(k)*uint64(pw) > uint64(pb.n-off) {
			return errorf("PLAIN page holds %d bytes, %d values need %d", pb.n-off, k, uint64(k)*uint64(pw))
		}
		if c.narrow == nil && d.mem != nil {
			copyValues(dst[:k*pw], pb.prefix[off:off+k*pw], d.stream)
			return nil
		}
		if c.narrow == nil {
			return d.pages.readInto(pb, off, dst[:k*pw])
		}
		// INT32 values to narrow are read in pieces that stay in the
		// cache between the read and the narrowing.
		const piece = 16 << 10 // values
		d.scratch = grow(d.scratch, piece*pw)
		for i := 0; i < k; i += piece {
			m := min(piece, k-i)
			if err := d.pages.readInto(pb, off+i*pw, d.scratch[:m*pw]); err != nil {
				return err
			}
			if err := c.narrowInto(dst[i*c.w:], d.scratch, m); err != nil {
				return err
			}
		}
		return nil
	})
}

// pageLevels splits the body of an uncompressed data page (v1 or v2)
// into its repetition and (with hasDef) definition levels and what
// follows them; false when the levels are not RLE or overrun the body.
func pageLevels(h format.PageHeader, body []byte, hasDef bool) (rep, def, rest []byte, ok bool) {
	switch h.Type {
	case format.PageData:
		if h.RepEnc != format.EncRLE || (hasDef && h.DefEnc != format.EncRLE) {
			return nil, nil, nil, false
		}
		var off int
		if rep, off, ok = prefixed(body, 0); !ok {
			return nil, nil, nil, false
		}
		if hasDef {
			if def, off, ok = prefixed(body, off); !ok {
				return nil, nil, nil, false
			}
		}
		return rep, def, body[off:], true
	case format.PageDataV2:
		lv := int64(h.RepLen) + int64(h.DefLen)
		if h.RepLen < 0 || h.DefLen < 0 || lv > int64(len(body)) {
			return nil, nil, nil, false
		}
		return body[:h.RepLen], body[h.RepLen:lv], body[lv:], true
	}
	return nil, nil, nil, false
}

// uncompressedData reports whether h is a data page (v1 or v2) stored
// uncompressed in a chunk of codec.
func uncompressedData(h format.PageHeader, codec int) bool {
	switch h.Type {
	case format.PageData:
		return codec == format.CodecNone && h.Uncompressed == h.Compressed
	case format.PageDataV2:
		return (codec == format.CodecNone || !h.CompressedV2) && h.Uncompressed == h.Compressed
	}
	return false
}

// prefixed returns the 4-byte length-prefixed levels at off of b and the
// offset after them, or false when b does not hold them whole.
func prefixed(b []byte, off int) ([]byte, int, bool) {
	if len(b)-off < 4 {
		return nil, 0, false
	}
	n := uint64(binary.LittleEndian.Uint32(b[off:]))
	if n > uint64(len(b)-off-4) {
		return nil, 0, false
	}
	end := off + 4 + int(n)
	return b[off+4 : end], end, true
}
