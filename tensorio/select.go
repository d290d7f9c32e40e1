package tensorio

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/arrowconv"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

// shape applies the options that change the batches: columns, shape,
// rows, batch size, in this order.
func (r *Reader) shape(c *config) error {
	if len(c.columns) > 0 {
		if err := r.project(c.columns); err != nil {
			return err
		}
	}
	if c.shape != nil {
		if err := r.tensorize(*c.shape, c.mem); err != nil {
			return err
		}
	}
	if (c.offset > 0 || c.limit >= 0) && !r.ranged {
		hi := int64(-1)
		if c.limit >= 0 {
			hi = c.offset + c.limit
			if hi < c.offset { // overflow: no end
				hi = -1
			}
		}
		r.selectRows(c.offset, hi)
	}
	if c.batchRows > 0 {
		r.splitBatches(int64(c.batchRows))
	}
	return nil
}

// project restricts the reader to the named columns.
func (r *Reader) project(names []string) error {
	idx := make([]int, len(names))
	fields := make([]arrow.Field, len(names))
	for k, n := range names {
		i := r.schema.FieldIndices(n)
		if len(i) == 0 {
			return mismatch("%s: no column %q (columns: %s)", r.path, n, columnNames(r.schema))
		}
		idx[k], fields[k] = i[0], r.schema.Field(i[0])
	}
	r.mapColumns(fields, func(rec arrow.RecordBatch, cols []arrow.Array) error {
		for k, i := range idx {
			cols[k] = rec.Column(i)
			cols[k].Retain()
		}
		return nil
	})
	return nil
}

// mapColumns gives the reader the columns fields, under the metadata of
// its schema, and makes each batch from one it reads: columns fills cols,
// one per field, with references of its own, which mapColumns releases
// once the new batch holds them (also those set before an error).
func (r *Reader) mapColumns(fields []arrow.Field, columns func(rec arrow.RecordBatch, cols []arrow.Array) error) {
	md := r.schema.Metadata()
	schema := arrow.NewSchema(fields, &md)
	r.schema = schema
	next := r.next
	r.next = func() (arrow.RecordBatch, error) {
		rec, err := next()
		if rec == nil || err != nil {
			return rec, err
		}
		defer rec.Release()
		cols := make([]arrow.Array, len(fields))
		defer func() {
			for _, c := range cols {
				if c != nil {
					c.Release()
				}
			}
		}()
		if err := columns(rec, cols); err != nil {
			return nil, err
		}
		return array.NewRecordBatch(schema, cols, rec.NumRows()), nil
	}
}

// columnNames lists the columns of schema for an error message.
func columnNames(schema *arrow.Schema) string {
	names := make([]string, schema.NumFields())
	for i, f := range schema.Fields() {
		names[i] = f.Name
	}
	return strings.Join(names, ", ")
}

// selectRows restricts the batches to the rows [lo, hi) counted over all
// batches (hi < 0: to the end). It reads no batch past hi.
func (r *Reader) selectRows(lo, hi int64) {
	next := r.next
	var seen int64
	r.next = func() (arrow.RecordBatch, error) {
		for {
			if hi >= 0 && seen >= hi {
				return nil, nil
			}
			rec, err := next()
			if rec == nil || err != nil {
				return rec, err
			}
			start, n := seen, rec.NumRows()
			seen += n
			a, b := max(lo-start, 0), n
			if hi >= 0 {
				b = min(hi-start, n)
			}
			if a >= b {
				rec.Release()
				continue
			}
			if a == 0 && b == n {
				return rec, nil
			}
			s := rec.NewSlice(a, b)
			rec.Release()
			return s, nil
		}
	}
}

// splitBatches cuts batches of more than n rows into slices of n rows.
func (r *Reader) splitBatches(n int64) {
	next := r.next
	var rec arrow.RecordBatch // the batch being cut
	var off int64
	prev := r.close
	r.close = func() error {
		if rec != nil {
			rec.Release()
			rec = nil
		}
		return prev()
	}
	r.next = func() (arrow.RecordBatch, error) {
		for rec == nil {
			b, err := next()
			if b == nil || err != nil {
				return b, err
			}
			if b.NumRows() <= n {
				return b, nil
			}
			rec, off = b, 0
		}
		end := min(off+n, rec.NumRows())
		s := rec.NewSlice(off, end)
		off = end
		if off == rec.NumRows() {
			rec.Release()
			rec = nil
		}
		return s, nil
	}
}

// tensorize makes the plain FixedSizeList and list columns of numbers
// whose tensors have m.Size() elements tensor columns described by m. It
// fails when there is none.
func (r *Reader) tensorize(m metadata.Metadata, mem memory.Allocator) error {
	fields := r.schema.Fields()
	conv := make([]bool, len(fields))
	found := false
	for i, f := range fields {
		elem, size, ok := plainList(f.Type)
		if !ok || size >= 0 && size != m.Size() {
			continue
		}
		t, err := fixedshape.NewType(elem, m)
		if err != nil {
			return mismatch("WithShape %s: %v", metadata.FormatShape(m.Shape()), err)
		}
		conv[i], found = true, true
		fields[i].Type = t
	}
	if !found {
		return mismatch("shape %s: %s has no FixedSizeList of %d numbers nor list column of numbers (columns: %s)", metadata.FormatShape(m.Shape()), r.path, m.Size(), columnNames(r.schema))
	}
	r.mapColumns(fields, func(rec arrow.RecordBatch, cols []arrow.Array) error {
		for i := range cols {
			if !conv[i] {
				cols[i] = rec.Column(i)
				cols[i].Retain()
				continue
			}
			a, err := asTensors(rec.Column(i), m, mem)
			if err != nil {
				return fmt.Errorf("column %q: %w", fields[i].Name, err)
			}
			cols[i] = a
		}
		return nil
	})
	return nil
}

// plainList returns the element type of a FixedSizeList (with its size)
// or list (size -1) of a fixedshape element type.
func plainList(t arrow.DataType) (elem arrow.DataType, size int, ok bool) {
	switch t := t.(type) {
	case *arrow.FixedSizeListType:
		return t.Elem(), int(t.Len()), fixedshape.ElemTypeOK(t.Elem())
	case *arrow.ListType:
		return t.Elem(), -1, fixedshape.ElemTypeOK(t.Elem())
	case *arrow.LargeListType:
		return t.Elem(), -1, fixedshape.ElemTypeOK(t.Elem())
	}
	return nil, 0, false
}

// asTensors returns a FixedSizeList or list column as a tensor column
// described by m: a FixedSizeList shares its buffers, a list is copied
// into memory from mem (every valid list must hold m.Size() numbers).
func asTensors(a arrow.Array, m metadata.Metadata, mem memory.Allocator) (*fixedshape.Array, error) {
	if _, ok := a.(*array.FixedSizeList); ok {
		return arrowconv.Wrap(a, m)
	}
	l, ok := a.(array.ListLike)
	if !ok {
		return nil, fmt.Errorf("tensorio: %v is not a list: %w", a.DataType(), arrow.ErrInvalid)
	}
	size := m.Size()
	values := l.ListValues()
	elem := values.DataType().(arrow.FixedWidthDataType)
	w := elem.Bytes()
	n := l.Len()
	total, ok := mulOK(n, size)
	if ok {
		_, ok = mulOK(total, w)
	}
	if !ok {
		return nil, fmt.Errorf("tensorio: %d lists of %d elements overflow: %w", n, size, arrow.ErrInvalid)
	}
	var src []byte
	if b := values.Data().Buffers()[1]; b != nil {
		src = b.Bytes()[values.Data().Offset()*w:]
	}
	buf := memory.NewResizableBuffer(mem)
	defer buf.Release()
	buf.Resize(total * w)
	dst := buf.Bytes()
	clear(dst)
	for i := range n {
		if l.IsNull(i) {
			continue
		}
		start, end := l.ValueOffsets(i)
		if int(end-start) != size {
			return nil, fmt.Errorf("tensorio: row %d holds %d elements, not %d (shape %s): %w", i, end-start, size, metadata.FormatShape(m.Shape()), arrow.ErrInvalid)
		}
		for k := start; k < end; k++ {
			if values.IsNull(int(k)) {
				return nil, fmt.Errorf("tensorio: row %d has a null element; a tensor has none: %w", i, arrow.ErrInvalid)
			}
		}
		copy(dst[i*size*w:], src[int(start)*w:int(end)*w])
	}
	var valid *memory.Buffer
	if l.NullN() > 0 {
		valid = memory.NewResizableBuffer(mem)
		defer valid.Release()
		valid.Resize(int(bitutil.BytesForBits(int64(n))))
		bitutil.CopyBitmap(l.NullBitmapBytes(), l.Data().Offset(), n, valid.Bytes(), 0)
	}
	child := array.NewData(elem, total, []*memory.Buffer{nil, buf}, nil, 0, 0)
	defer child.Release()
	fsl := array.NewData(arrow.FixedSizeListOf(int32(size), elem), n, []*memory.Buffer{valid}, []arrow.ArrayData{child}, l.NullN(), 0)
	defer fsl.Release()
	storage := array.MakeFromData(fsl)
	defer storage.Release()
	return arrowconv.Wrap(storage, m)
}

// mulOK returns a*b for non-negative a and b, and whether it fits an int.
func mulOK(a, b int) (int, bool) {
	hi, lo := bits.Mul(uint(a), uint(b))
	if hi != 0 || lo > uint(int(^uint(0)>>1)) {
		return 0, false
	}
	return int(lo), true
}
