package parquetconv

import (
	"github.com/fstensor/fstensor/parquetconv/internal/format"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// levelsAndValues walks the levels of a data page and decodes its
// values into the child at the walker's position. A page whose
// definition levels are all the maximum (no null tensor) is walked run
// by run and its values decoded in place; otherwise the levels are
// decoded one by one, the present values decoded compactly and then
// spread around the null tensors, whose slots are zero-filled.
func (d *chunkDecoder) levelsAndValues(h format.PageHeader, rep, def, vals []byte) error {
	return d.levelsThen(h, rep, def, func(dst []byte, k int) error { return d.values(h.Encoding, dst, vals, k) })
}

// levelsThen is levelsAndValues with the values decoded by values, which
// fills dst with k values.
func (d *chunkDecoder) levelsThen(h format.PageHeader, rep, def []byte, values func(dst []byte, k int) error) error {
	count := int64(h.NumValues)
	if count > d.levelsLeft {
		return errorf("page of %d levels: the row group holds at most %d more", count, d.levelsLeft)
	}
	d.levelsLeft -= count
	col := d.col
	n := int64(col.n)
	base := d.walker.Rows*n + int64(d.walker.Pos) // element index of the page's first value
	allMax := true
	if col.maxDef > 0 {
		var err error
		if allMax, err = format.AllEqual(def, bits.Len16(uint16(col.maxDef)), int(count), uint64(col.maxDef), "definition levels"); err != nil {
			return errorf("%w", err)
		}
	}
	k := count
	d.nullRows = d.nullRows[:0]
	if allMax {
		if err := d.walker.Walk(rep, int(count)); err != nil {
			return errorf("%w", err)
		}
	} else {
		var err error
		if k, err = d.walkLevels(rep, def, int(count)); err != nil {
			return err
		}
	}
	if d.walker.Rows > d.rows || (d.walker.Rows == d.rows && d.walker.Pos != 0) {
		return errorf("column chunk holds more than its row group's %d rows", d.rows)
	}
	w := int64(col.codec.w)
	dst := d.child[base*w : (base+k)*w]
	if err := values(dst, int(k)); err != nil {
		return err
	}
	if len(d.nullRows) > 0 {
		d.spread(base, k)
	}
	return nil
}

// values decodes k values of the given encoding into dst.
func (d *chunkDecoder) values(enc int32, dst, src []byte, k int) error {
	c := &d.col.codec
	switch enc {
	case format.EncPlain:
		if c.narrow == nil && uint64(k)*uint64(c.w) <= uint64(len(src)) {
			copyValues(dst[:k*c.w], src[:k*c.w], d.stream)
			return nil
		}
		return c.plain(dst, src, k)
	case format.EncByteStreamSplit:
		return c.byteStreamSplit(dst, src, k, &d.scratch)
	case format.EncRLEDict, format.EncPlainDict:
		if d.dict == nil {
			return errorf("dictionary-encoded page without a dictionary page")
		}
		return c.indices(dst, src, k, d.dict, d.dictIdentity, d.stream)
	}
	return errFallback
}

// walkLevels decodes and walks the levels of a page with null tensors
// (or invalid ones) one by one; it returns the number of values and
// records the null rows in d.nullRows.
func (d *chunkDecoder) walkLevels(rep, def []byte, count int) (int64, error) {
	col := d.col
	d.rep = grow(d.rep, count)
	d.def = grow(d.def, count)
	if err := format.DecodeHybrid(rep, 1, d.rep, "repetition levels"); err != nil {
		return 0, errorf("%w", err)
	}
	if err := format.DecodeHybrid(def, bits.Len16(uint16(col.maxDef)), d.def, "definition levels"); err != nil {
		return 0, errorf("%w", err)
	}
	w := &d.walker
	var k int64
	for i := range count {
		r, df := d.rep[i], int16(d.def[i])
		if df > col.maxDef {
			return 0, errorf("definition level %d above the column's %d", df, col.maxDef)
		}
		if r == 0 && w.Pos != 0 {
			return 0, errorf("row %d has %d elements, the tensor %d", w.Rows, w.Pos, w.N)
		}
		if r == 0 && df < col.listDef {
			if w.Rows >= d.rows {
				return 0, errorf("column chunk holds more than its row group's %d rows", d.rows)
			}
			d.nullRows = append(d.nullRows, w.Rows)
			w.Rows++
			continue
		}
		if df < col.maxDef {
			if df <= col.listDef && r == 0 {
				return 0, errorf("row %d is an empty list, the tensor has %d elements", w.Rows, w.N)
			}
			return 0, errorf("row %d has a null element", w.Rows)
		}
		if err := w.Run(uint64(r), 1); err != nil {
			return 0, errorf("%w", err)
		}
		k++
	}
	return k, nil
}

// spread moves the k values decoded compactly at element base apart so
// that each null row of the page gets its slot, zero-filled, and marks
// the null rows in the validity bitmap.
func (d *chunkDecoder) spread(base, k int64) {
	n, w := int64(d.col.n), int64(d.col.codec.w)
	end := base + k + int64(len(d.nullRows))*n // element end of the page
	src := base + k
	for j := len(d.nullRows) - 1; j >= 0; j-- {
		r := d.nullRows[j]
		seg := (r + 1) * n
		cnt := end - seg
		copy(d.child[seg*w:end*w], d.child[(src-cnt)*w:src*w])
		src -= cnt
		end = r * n
		clear(d.child[r*n*w : (r+1)*n*w])
	}
	if d.validity == nil {
		d.validity = memory.NewResizableBuffer(d.cfg.mem)
		nb := bitutil.BytesForBits(d.rows)
		d.validity.Resize(int(nb))
		b := d.validity.Bytes()
		for i := range b {
			b[i] = 0xff
		}
	}
	vb := d.validity.Bytes()
	for _, r := range d.nullRows {
		bitutil.ClearBit(vb, int(r))
	}
	d.nulls += len(d.nullRows)
}
