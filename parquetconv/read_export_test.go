package parquetconv

import "github.com/fstensor/fstensor/parquetconv/internal/format"

// TensorFallbacks returns how many tensor column chunks were read by
// pqarrow instead of the fast path so far.
func TensorFallbacks() int64 { return tensorFallbacks.Load() }

// WalkRepLevels walks the hybrid-encoded repetition levels of pages
// (count levels each) of a column of n-element tensors without nulls and
// returns the rows completed and the elements of the last row seen.
func WalkRepLevels(pages [][]byte, counts []int, n int) (rows int64, pos int, err error) {
	w := format.RepWalker{N: n}
	for i, p := range pages {
		if err := w.Walk(p, counts[i]); err != nil {
			return w.Rows, w.Pos, err
		}
	}
	return w.Rows, w.Pos, nil
}

// AllEqual reports whether count hybrid-encoded values of width bits are
// all v.
func AllEqual(b []byte, width, count int, v uint64) (bool, error) {
	return format.AllEqual(b, width, count, v, "levels")
}

// DecodeHybrid decodes count hybrid-encoded values of width bits (at
// most 8).
func DecodeHybrid(b []byte, width, count int) ([]uint8, error) {
	out := make([]uint8, count)
	return out, format.DecodeHybrid(b, width, out, "levels")
}

// Narrow narrows the INT32 values of src to int8 (w 1, signed), uint8,
// int16 (w 2, signed) or uint16.
func Narrow(src []byte, w int, signed bool) ([]byte, error) {
	c := elemCodec{pw: 4, w: w}
	switch {
	case w == 1 && signed:
		c.narrow = rangeInt8
	case w == 1:
		c.narrow = rangeUint8
	case signed:
		c.narrow = rangeInt16
	default:
		c.narrow = rangeUint16
	}
	k := len(src) / 4
	dst := make([]byte, k*w)
	return dst, c.plain(dst, src, k)
}

// WalkLevels walks one page of count hybrid-encoded repetition and
// definition levels of a column of n-element tensors (maximum definition
// level maxDef, lists present from listDef) in a row group of rows rows,
// as a page with null tensors is walked, and returns the values the page
// holds and its null rows.
func WalkLevels(rep, def []byte, count, n int, maxDef, listDef int16, rows int64) (int64, []int64, error) {
	d := &chunkDecoder{col: &tensorLeaf{n: n, maxDef: maxDef, listDef: listDef}, rows: rows, walker: format.RepWalker{N: n}}
	k, err := d.walkLevels(rep, def, count)
	return k, d.nullRows, err
}

// MappedChunks returns how many tensor column chunks (or ranges of
// them) were read from a mapped file so far.
func MappedChunks() int64 { return mappedChunks.Load() }

// ViewedChunks reports how many tensor column chunks readers handed out
// where they lie in a mapped file.
func ViewedChunks() int64 { return viewedChunks.Load() }
