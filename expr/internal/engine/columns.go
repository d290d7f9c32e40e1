package engine

import (
	"math/bits"

	"github.com/fstensor/fstensor/internal/unsafeslice"
)

func bit(b []byte, i int) bool { return b[i>>3]>>(i&7)&1 != 0 }

func setBit(b []byte, i int, v bool) {
	if v {
		b[i>>3] |= 1 << (i & 7)
	} else {
		b[i>>3] &^= 1 << (i & 7)
	}
}

// setBitIn is setBit for a worker that owns bits [lo, hi) of b: a byte
// it shares with another worker is written under p.bitMu.
func (p *Program) setBitIn(b []byte, i int, v bool, lo, hi int) {
	if i>>3 > lo>>3 && i>>3 < (hi-1)>>3 || lo&7 == 0 && hi&7 == 0 {
		setBit(b, i, v)
		return
	}
	p.bitMu.Lock()
	setBit(b, i, v)
	p.bitMu.Unlock()
}

// rowNull reports whether any of the inputs reads is null at row.
func rowNull(in []Column, reads []int, row int) bool {
	for _, k := range reads {
		if v := in[k].Valid; v != nil && !bit(v, in[k].ValidOffset+row) {
			return true
		}
	}
	return false
}

// anyValid reports whether one of the columns in[k], k in reads, has a
// validity bitmap.
func anyValid(in []Column, reads []int) bool {
	for _, k := range reads {
		if in[k].Valid != nil {
			return true
		}
	}
	return false
}

// need returns the bytes a column of rows rows of size elements of dt
// needs, or false on overflow.
func need(dt DType, size, rows, bitOffset int) (int, bool) {
	hi, n := bits.Mul64(uint64(size), uint64(rows))
	if hi != 0 || n > 1<<58 {
		return 0, false
	}
	if dt == Bool {
		return (bitOffset + int(n) + 7) / 8, true
	}
	return int(n) * dt.Width(), true
}

func (p *Program) checkColumns(in []Column, rows int, out []Column) error {
	if len(in) != len(p.inputs) || len(out) != len(p.roots) || rows < 0 {
		return errorf("run of %d rows with %d inputs and %d outputs, the program has %d and %d",
			rows, len(in), len(out), len(p.inputs), len(p.roots))
	}
	check := func(what string, i int, c Column, dt DType, size int, aligned bool) error {
		n, ok := need(dt, size, rows, c.BitOffset)
		if !ok || c.BitOffset < 0 || c.ValidOffset < 0 || len(c.Values) < n {
			return errorf("%s %d: %d bytes of values for %d rows of %d %v elements", what, i, len(c.Values), rows, size, dt)
		}
		if c.Valid != nil && len(c.Valid) < (c.ValidOffset+rows+7)/8 {
			return errorf("%s %d: %d bytes of validity for %d rows", what, i, len(c.Valid), rows)
		}
		if aligned && !unsafeslice.Aligned(c.Values, dt.Width()) {
			return errorf("%s %d: values not aligned to %d bytes", what, i, dt.Width())
		}
		return nil
	}
	for i, c := range in {
		size, _ := sizeOf(p.inputs[i].Shape)
		if err := check("input", i, c, p.inputs[i].DType, size, false); err != nil {
			return err
		}
	}
	for i, c := range out {
		r := p.nodes[p.roots[i]]
		if err := check("output", i, c, r.DType, r.size, r.DType != Bool); err != nil {
			return err
		}
	}
	return nil
}

// readInput returns rows rows of input column col from row lo: its
// values in place when aligned, else (misaligned, or Bool bits) a copy.
func (p *Program) readInput(ws *workspace, c *cnode, col Column, lo, rows int) operand {
	w := c.width()
	n := rows * c.size
	if c.DType != Bool {
		b := col.Values[lo*c.size*w:][:n*w]
		if unsafeslice.Aligned(b, w) {
			return operand{b: b, rs: c.size}
		}
		d := inputBuf(ws, c.Input, n*w)
		copy(d, b)
		return operand{b: d, rs: c.size}
	}
	d := inputBuf(ws, c.Input, n)
	unpackBits(d, col.Values, col.BitOffset+lo*c.size)
	return operand{b: d, rs: c.size}
}

func inputBuf(ws *workspace, k, n int) []byte {
	for len(ws.inbuf) <= k {
		ws.inbuf = append(ws.inbuf, nil)
	}
	if words := (n + 7) / 8; cap(ws.inbuf[k]) < words {
		ws.inbuf[k] = make([]uint64, words)
	}
	return bytesOf(ws.inbuf[k][:(n+7)/8])[:n]
}

// writeRoots writes the values of the roots that did not compute into
// out, the validity of every root, zeros in null rows, and counts nulls.
func (p *Program) writeRoots(ws *workspace, in []Column, lo, rows int, out []Column) {
	for ri, r := range p.roots {
		c := p.nodes[r]
		o := out[ri]
		w := c.width()
		src := ws.cur[r]
		rowBytes := c.size * w
		if !p.rootDirect[ri] {
			set := func(i int, v bool) {
				p.setBitIn(o.Values, i, v, o.BitOffset+ws.lo*c.size, o.BitOffset+ws.hi*c.size)
			}
			for row := 0; row < rows; {
				// Rows back to back in src are written as one run.
				n := 1
				if src.rs == c.size {
					n = rows - row
				}
				s := src.b[row*src.rs*w:][:n*rowBytes]
				if c.DType == Bool {
					packBits(o.Values, o.BitOffset+(lo+row)*c.size, s, set)
				} else {
					copy(o.Values[(lo+row)*rowBytes:][:n*rowBytes], s)
				}
				row += n
			}
		}
		if o.Valid == nil && !anyValid(in, c.reads) {
			continue // no null row, no bitmap to write
		}
		for row := range rows {
			null := rowNull(in, c.reads, lo+row)
			if o.Valid != nil {
				p.setBitIn(o.Valid, o.ValidOffset+lo+row, !null, o.ValidOffset+ws.lo, o.ValidOffset+ws.hi)
			}
			if !null {
				continue
			}
			ws.nulls[ri]++
			if c.DType == Bool {
				at := o.BitOffset + (lo+row)*c.size
				for j := range c.size {
					p.setBitIn(o.Values, at+j, false, o.BitOffset+ws.lo*c.size, o.BitOffset+ws.hi*c.size)
				}
				continue
			}
			clear(o.Values[(lo+row)*rowBytes:][:rowBytes])
		}
	}
}
