package format

import (
	"bytes"
	"encoding/binary"
	"math"
)

// The RLE/bit-packed hybrid encoding of levels and dictionary indices:
// a sequence of runs, each a ULEB128 header whose low bit tells a
// bit-packed run (header>>1 groups of 8 values, bitWidth bytes per
// group, least significant bit first) from an RLE run (header>>1 copies
// of one value in ceil(bitWidth/8) little-endian bytes).

// HybridRun is one run of the hybrid encoding.
type HybridRun struct {
	RLE    bool
	N      int    // values in the run (bit-packed: those used, at most 8 per group)
	Value  uint64 // of an RLE run
	Packed []byte // of a bit-packed run
}

// HybridReader walks the runs of a hybrid-encoded buffer holding count
// values of width bits.
type HybridReader struct {
	B     []byte
	Width int
	Left  int // values still to read
}

// Next returns the next run, or an error wrapping arrow.ErrInvalid when
// the buffer ends before count values or a run is malformed.
func (h *HybridReader) Next(what string) (HybridRun, error) {
	var hdr uint64
	var s uint
	for i := 0; ; i++ {
		if i >= len(h.B) || i == 10 {
			return HybridRun{}, errorf("%s: truncated run header (%d values left)", what, h.Left)
		}
		c := h.B[i]
		hdr |= uint64(c&0x7f) << s
		s += 7
		if c < 0x80 {
			h.B = h.B[i+1:]
			break
		}
	}
	if hdr&1 == 0 {
		n := hdr >> 1
		vb := (h.Width + 7) / 8
		if n == 0 || len(h.B) < vb {
			return HybridRun{}, errorf("%s: RLE run of %d values, %d bytes left", what, n, len(h.B))
		}
		var v uint64
		for i := range vb {
			v |= uint64(h.B[i]) << (8 * i)
		}
		h.B = h.B[vb:]
		if h.Width < 64 && v>>h.Width != 0 {
			return HybridRun{}, errorf("%s: RLE value %d wider than %d bits", what, v, h.Width)
		}
		cnt := int(min(n, uint64(h.Left)))
		h.Left -= cnt
		return HybridRun{RLE: true, N: cnt, Value: v}, nil
	}
	groups := hdr >> 1
	if groups == 0 || groups > uint64(len(h.B)) || groups*uint64(h.Width) > uint64(len(h.B)) {
		// A last run may be cut short after the values it holds.
		need := (uint64(h.Left)*uint64(h.Width) + 7) / 8
		if groups == 0 || need > uint64(len(h.B)) {
			return HybridRun{}, errorf("%s: bit-packed run of %d groups, %d bytes left", what, groups, len(h.B))
		}
		groups = (uint64(h.Left) + 7) / 8
		nb := min(groups*uint64(h.Width), uint64(len(h.B)))
		run := HybridRun{N: h.Left, Packed: h.B[:nb]}
		h.B, h.Left = h.B[nb:], 0
		return run, nil
	}
	nb := int(groups) * h.Width
	cnt := int(min(groups*8, uint64(h.Left)))
	run := HybridRun{N: cnt, Packed: h.B[:nb]}
	h.B = h.B[nb:]
	h.Left -= cnt
	return run, nil
}

// Unpack returns value i of a bit-packed run of width bits.
func Unpack(p []byte, width, i int) uint64 {
	bit := i * width
	var v uint64
	for got := 0; got < width; {
		byt, off := bit/8, bit%8
		take := min(8-off, width-got)
		v |= uint64(p[byt]>>off&(1<<take-1)) << got
		got += take
		bit += take
	}
	return v
}

// DecodeHybrid decodes the count values of a hybrid buffer into out
// (len(out) == count) as bytes; width is at most 8.
func DecodeHybrid(b []byte, width int, out []uint8, what string) error {
	h := HybridReader{B: b, Width: width, Left: len(out)}
	p := 0
	for h.Left > 0 {
		run, err := h.Next(what)
		if err != nil {
			return err
		}
		if run.RLE {
			v := uint8(run.Value)
			for i := range run.N {
				out[p+i] = v
			}
		} else if width == 1 {
			for i := range run.N {
				out[p+i] = run.Packed[i>>3] >> (i & 7) & 1
			}
		} else {
			for i := range run.N {
				out[p+i] = uint8(Unpack(run.Packed, width, i))
			}
		}
		p += run.N
	}
	return nil
}

// AllEqual reports whether the count values of a hybrid buffer of width
// bits are all v, without decoding them one by one where it can: RLE
// runs are compared once, full bit-packed groups bytewise against the
// packing of eight vs.
func AllEqual(b []byte, width, count int, v uint64, what string) (bool, error) {
	var pattern [8]byte // eight copies of v packed: width bytes
	for i := range 8 {
		for k := range width {
			if v>>k&1 != 0 {
				bit := i*width + k
				pattern[bit/8] |= 1 << (bit % 8)
			}
		}
	}
	h := HybridReader{B: b, Width: width, Left: count}
	for h.Left > 0 {
		run, err := h.Next(what)
		if err != nil {
			return false, err
		}
		if run.RLE {
			if run.Value != v {
				return false, nil
			}
			continue
		}
		full := run.N / 8
		for g := range full {
			if string(run.Packed[g*width:(g+1)*width]) != string(pattern[:width]) {
				return false, nil
			}
		}
		for i := full * 8; i < run.N; i++ {
			if Unpack(run.Packed, width, i) != v {
				return false, nil
			}
		}
	}
	return true, nil
}

// RepWalker follows the repetition levels (0 or 1) of a column of
// lists of exactly n elements with no nulls: Rows counts the rows
// completed, Pos the elements of the current row seen so far.
type RepWalker struct {
	N    int
	Rows int64
	Pos  int
}

// Walk consumes count levels of a hybrid buffer of width 1.
func (w *RepWalker) Walk(b []byte, count int) error {
	if w.Pos == 0 && w.N >= 2 {
		rows, used := wholeRows(b, w.N, count/w.N)
		w.Rows += int64(rows)
		b, count = b[used:], count-rows*w.N
	}
	h := HybridReader{B: b, Width: 1, Left: count}
	for h.Left > 0 {
		run, err := h.Next("repetition levels")
		if err != nil {
			return err
		}
		if run.RLE {
			if err := w.Run(run.Value, run.N); err != nil {
				return err
			}
			continue
		}
		i := 0
		for ; i+8 <= run.N; i += 8 {
			// 64 levels of 1 inside a tensor at once, then 8: the levels
			// of a row of a tensor column are a 0 and then 1s.
			if w.Pos > 0 && i+64 <= run.N && w.Pos+64 <= w.N && binary.LittleEndian.Uint64(run.Packed[i>>3:]) == math.MaxUint64 {
				w.Pos += 64
				if w.Pos == w.N {
					w.Rows, w.Pos = w.Rows+1, 0
				}
				i += 56
				continue
			}
			if c := run.Packed[i>>3]; c == 0xff && w.Pos > 0 && w.Pos+8 <= w.N {
				w.Pos += 8
				if w.Pos == w.N {
					w.Rows, w.Pos = w.Rows+1, 0
				}
				continue
			}
			for k := range 8 {
				if err := w.Run(uint64(run.Packed[i>>3]>>k&1), 1); err != nil {
					return err
				}
			}
		}
		for ; i < run.N; i++ {
			if err := w.Run(uint64(run.Packed[i>>3]>>(i&7)&1), 1); err != nil {
				return err
			}
		}
	}
	return nil
}

// wholeRows returns how many of the leading rows of b, at most maxRows,
// are encoded as LevelEncoder encodes a row of n >= 2 elements (an RLE
// run of one 0, then an RLE run of n-1 1s: the same bytes every row),
// and the bytes they take. It compares bytes, a block of rows at a time,
// instead of decoding runs: a single page of 20,000 rows has 40,000 runs.
func wholeRows(b []byte, n, maxRows int) (rows, used int) {
	var row [2 + binary.MaxVarintLen64 + 1]byte
	row[0], row[1] = 2, 0
	k := 2 + binary.PutUvarint(row[2:], uint64(n-1)<<1)
	row[k] = 1
	pat := row[:k+1]
	if maxRows <= 0 || len(b) < len(pat) || !bytes.Equal(b[:len(pat)], pat) {
		return 0, 0
	}
	const block = 256 // rows compared at once
	if maxRows >= 2*block {
		blk := bytes.Repeat(pat, block)
		for rows+block <= maxRows && used+len(blk) <= len(b) && bytes.Equal(b[used:used+len(blk)], blk) {
			rows, used = rows+block, used+len(blk)
		}
	}
	for rows < maxRows && used+len(pat) <= len(b) && bytes.Equal(b[used:used+len(pat)], pat) {
		rows, used = rows+1, used+len(pat)
	}
	return rows, used
}

// Run consumes k repetition levels of value v.
func (w *RepWalker) Run(v uint64, k int) error {
	switch v {
	case 0: // k rows start
		if w.Pos != 0 {
			return errorf("row %d has %d elements, the tensor %d", w.Rows, w.Pos, w.N)
		}
		if w.N == 1 {
			w.Rows += int64(k)
			return nil
		}
		if k > 1 {
			return errorf("row %d has 1 element, the tensor %d", w.Rows, w.N)
		}
		w.Pos = 1
	case 1:
		if w.Pos == 0 || w.Pos+k > w.N {
			return errorf("row %d has more than %d elements", w.Rows, w.N)
		}
		w.Pos += k
	default:
		return errorf("repetition level %d above 1", v)
	}
	if w.Pos == w.N {
		w.Rows, w.Pos = w.Rows+1, 0
	}
	return nil
}
