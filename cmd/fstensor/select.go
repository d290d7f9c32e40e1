package main

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/arrowconv"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

// selectRows restricts the batches of in to the rows [lo, hi) counted
// over all batches (hi < 0: to the end). It reads no batch past hi.
func (in *input) selectRows(lo, hi int64) {
	next := in.next
	var seen int64
	in.next = func() (arrow.RecordBatch, error) {
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

// tensorize makes the plain FixedSizeList and list columns of numbers
// whose tensors have m.Size() elements tensor columns described by m. It
// fails when there is none.
func (in *input) tensorize(m metadata.Metadata) error {
	fields := in.schema.Fields()
	conv := make([]bool, len(fields))
	found := false
	for i, f := range fields {
		elem, size, ok := plainList(f.Type)
		if !ok || size >= 0 && size != m.Size() {
			continue
		}
		t, err := fixedshape.NewType(elem, m)
		if err != nil {
			return fmt.Errorf("%w: --shape: %v", errUsage, err)
		}
		conv[i], found = true, true
		fields[i].Type = t
	}
	if !found {
		return fmt.Errorf("%w: --shape %s: %s has no FixedSizeList of %d numbers nor list column of numbers (columns: %s)", errUsage, metadata.FormatShape(m.Shape()), in.path, m.Size(), columnNames(in.schema))
	}
	md := in.schema.Metadata()
	schema := arrow.NewSchema(fields, &md)
	in.schema = schema
	next := in.next
	in.next = func() (arrow.RecordBatch, error) {
		rec, err := next()
		if rec == nil || err != nil {
			return rec, err
		}
		defer rec.Release()
		cols := make([]arrow.Array, rec.NumCols())
		defer func() {
			for i, c := range cols {
				if conv[i] && c != nil {
					c.Release()
				}
			}
		}()
		for i := range cols {
			if !conv[i] {
				cols[i] = rec.Column(i)
				continue
			}
			a, err := asTensors(rec.Column(i), m)
			if err != nil {
				return nil, fmt.Errorf("column %q: %w", fields[i].Name, err)
			}
			cols[i] = a
		}
		return array.NewRecordBatch(schema, cols, rec.NumRows()), nil
	}
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
// (every valid list must hold m.Size() numbers).
func asTensors(a arrow.Array, m metadata.Metadata) (*fixedshape.Array, error) {
	if _, ok := a.(*array.FixedSizeList); ok {
		return arrowconv.Wrap(a, m)
	}
	l, ok := a.(array.ListLike)
	if !ok {
		return nil, fmt.Errorf("%v is not a list", a.DataType())
	}
	size := m.Size()
	values := l.ListValues()
	elem := values.DataType().(arrow.FixedWidthDataType)
	w := elem.Bytes()
	n := l.Len()
	total, ok := mulOK(n, size)
	if !ok || total > int(^uint(0)>>1)/max(w, 1) {
		return nil, fmt.Errorf("%d lists of %d elements overflow", n, size)
	}
	var src []byte
	if b := values.Data().Buffers()[1]; b != nil {
		src = b.Bytes()[values.Data().Offset()*w:]
	}
	buf := memory.NewResizableBuffer(memory.DefaultAllocator)
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
			return nil, fmt.Errorf("row %d holds %d elements, not %d (shape %s)", i, end-start, size, metadata.FormatShape(m.Shape()))
		}
		for k := start; k < end; k++ {
			if values.IsNull(int(k)) {
				return nil, fmt.Errorf("row %d has a null element; a tensor has none", i)
			}
		}
		copy(dst[i*size*w:], src[int(start)*w:int(end)*w])
	}
	var valid *memory.Buffer
	if l.NullN() > 0 {
		valid = memory.NewResizableBuffer(memory.DefaultAllocator)
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
	if a != 0 && b > int(^uint(0)>>1)/a {
		return 0, false
	}
	return a * b, true
}
