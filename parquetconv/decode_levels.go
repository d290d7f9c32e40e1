package parquetconv

// The RLE/bit-packed hybrid encoding of levels and dictionary indices:
// a sequence of runs, each a ULEB128 header whose low bit tells a
// bit-packed run (header>>1 groups of 8 values, bitWidth bytes per
// group, least significant bit first) from an RLE run (header>>1 copies
// of one value in ceil(bitWidth/8) little-endian bytes).

// hybridRun is one run of the hybrid encoding.
type hybridRun struct {
	rle    bool
	n      int    // values in the run (bit-packed: those used, at most 8 per group)
	value  uint64 // of an RLE run
	packed []byte // of a bit-packed run
}

// hybridReader walks the runs of a hybrid-encoded buffer holding count
// values of width bits.
type hybridReader struct {
	b     []byte
	width int
	left  int // values still to read
}

// next returns the next run, or an error wrapping arrow.ErrInvalid when
// the buffer ends before count values or a run is malformed.
func (h *hybridReader) next(what string) (hybridRun, error) {
	var hdr uint64
	var s uint
	for i := 0; ; i++ {
		if i >= len(h.b) || i == 10 {
			return hybridRun{}, errorf("%s: truncated run header (%d values left)", what, h.left)
		}
		c := h.b[i]
		hdr |= uint64(c&0x7f) << s
		s += 7
		if c < 0x80 {
			h.b = h.b[i+1:]
			break
		}
	}
	if hdr&1 == 0 {
		n := hdr >> 1
		vb := (h.width + 7) / 8
		if n == 0 || len(h.b) < vb {
			return hybridRun{}, errorf("%s: RLE run of %d values, %d bytes left", what, n, len(h.b))
		}
		var v uint64
		for i := range vb {
			v |= uint64(h.b[i]) << (8 * i)
		}
		h.b = h.b[vb:]
		if h.width < 64 && v>>h.width != 0 {
			return hybridRun{}, errorf("%s: RLE value %d wider than %d bits", what, v, h.width)
		}
		cnt := int(min(n, uint64(h.left)))
		h.left -= cnt
		return hybridRun{rle: true, n: cnt, value: v}, nil
	}
	groups := hdr >> 1
	if groups == 0 || groups > uint64(len(h.b)) || groups*uint64(h.width) > uint64(len(h.b)) {
		// A last run may be cut short after the values it holds.
		need := (uint64(h.left)*uint64(h.width) + 7) / 8
		if groups == 0 || need > uint64(len(h.b)) {
			return hybridRun{}, errorf("%s: bit-packed run of %d groups, %d bytes left", what, groups, len(h.b))
		}
		groups = (uint64(h.left) + 7) / 8
		nb := min(groups*uint64(h.width), uint64(len(h.b)))
		run := hybridRun{n: h.left, packed: h.b[:nb]}
		h.b, h.left = h.b[nb:], 0
		return run, nil
	}
	nb := int(groups) * h.width
	cnt := int(min(groups*8, uint64(h.left)))
	run := hybridRun{n: cnt, packed: h.b[:nb]}
	h.b = h.b[nb:]
	h.left -= cnt
	return run, nil
}

// unpack returns value i of a bit-packed run of width bits.
func unpack(p []byte, width, i int) uint64 {
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

// decodeHybrid decodes the count values of a hybrid buffer into out
// (len(out) == count) as bytes; width is at most 8.
func decodeHybrid(b []byte, width int, out []uint8, what string) error {
	h := hybridReader{b: b, width: width, left: len(out)}
	p := 0
	for h.left > 0 {
		run, err := h.next(what)
		if err != nil {
			return err
		}
		if run.rle {
			v := uint8(run.value)
			for i := range run.n {
				out[p+i] = v
			}
		} else if width == 1 {
			for i := range run.n {
				out[p+i] = run.packed[i>>3] >> (i & 7) & 1
			}
		} else {
			for i := range run.n {
				out[p+i] = uint8(unpack(run.packed, width, i))
			}
		}
		p += run.n
	}
	return nil
}

// allEqual reports whether the count values of a hybrid buffer of width
// bits are all v, without decoding them one by one where it can: RLE
// runs are compared once, full bit-packed groups bytewise against the
// packing of eight vs.
func allEqual(b []byte, width, count int, v uint64, what string) (bool, error) {
	var pattern [8]byte // eight copies of v packed: width bytes
	for i := range 8 {
		for k := range width {
			if v>>k&1 != 0 {
				bit := i*width + k
				pattern[bit/8] |= 1 << (bit % 8)
			}
		}
	}
	h := hybridReader{b: b, width: width, left: count}
	for h.left > 0 {
		run, err := h.next(what)
		if err != nil {
			return false, err
		}
		if run.rle {
			if run.value != v {
				return false, nil
			}
			continue
		}
		full := run.n / 8
		for g := range full {
			if string(run.packed[g*width:(g+1)*width]) != string(pattern[:width]) {
				return false, nil
			}
		}
		for i := full * 8; i < run.n; i++ {
			if unpack(run.packed, width, i) != v {
				return false, nil
			}
		}
	}
	return true, nil
}

// repWalker follows the repetition levels (0 or 1) of a column of
// lists of exactly n elements with no nulls: rows counts the rows
// completed, pos the elements of the current row seen so far.
type repWalker struct {
	n    int
	rows int64
	pos  int
}

// walk consumes count levels of a hybrid buffer of width 1.
func (w *repWalker) walk(b []byte, count int) error {
	h := hybridReader{b: b, width: 1, left: count}
	for h.left > 0 {
		run, err := h.next("repetition levels")
		if err != nil {
			return err
		}
		if run.rle {
			if err := w.run(run.value, run.n); err != nil {
				return err
			}
			continue
		}
		i := 0
		for ; i+8 <= run.n; i += 8 {
			if c := run.packed[i>>3]; c == 0xff && w.pos > 0 && w.pos+8 <= w.n {
				w.pos += 8
				if w.pos == w.n {
					w.rows, w.pos = w.rows+1, 0
				}
				continue
			}
			for k := range 8 {
				if err := w.run(uint64(run.packed[i>>3]>>k&1), 1); err != nil {
					return err
				}
			}
		}
		for ; i < run.n; i++ {
			if err := w.run(uint64(run.packed[i>>3]>>(i&7)&1), 1); err != nil {
				return err
			}
		}
	}
	return nil
}

// run consumes k repetition levels of value v.
func (w *repWalker) run(v uint64, k int) error {
	switch v {
	case 0: // k rows start
		if w.pos != 0 {
			return errorf("row %d has %d elements, the tensor %d", w.rows, w.pos, w.n)
		}
		if w.n == 1 {
			w.rows += int64(k)
			return nil
		}
		if k > 1 {
			return errorf("row %d has 1 element, the tensor %d", w.rows, w.n)
		}
		w.pos = 1
	case 1:
		if w.pos == 0 || w.pos+k > w.n {
			return errorf("row %d has more than %d elements", w.rows, w.n)
		}
		w.pos += k
	default:
		return errorf("repetition level %d above 1", v)
	}
	if w.pos == w.n {
		w.rows, w.pos = w.rows+1, 0
	}
	return nil
}
