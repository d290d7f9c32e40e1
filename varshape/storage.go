package varshape

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Extension keys of a field's metadata that name an extension type in
// Arrow IPC schemas and Parquet's stored Arrow schema.
const (
	KeyExtensionName     = "ARROW:extension:name"
	KeyExtensionMetadata = "ARROW:extension:metadata"
)

// StorageField returns f with a variable-shape type replaced by its
// storage type and the two extension keys added to its metadata: the form
// in which writers that do not know the extension type (arrow-go's pqarrow
// refuses struct-backed extension columns; parquetconv writes this form
// itself) still record it, and in which
// pyarrow, which has no variable-shape type, hands it over. Other fields
// are returned unchanged.
func StorageField(f arrow.Field) arrow.Field {
	t, ok := TypeOf(f.Type)
	if !ok {
		return f
	}
	keys := []string{KeyExtensionName, KeyExtensionMetadata}
	vals := []string{ExtensionName, t.Serialize()}
	for i, k := range f.Metadata.Keys() {
		if k != KeyExtensionName && k != KeyExtensionMetadata {
			keys = append(keys, k)
			vals = append(vals, f.Metadata.Values()[i])
		}
	}
	f.Type = t.StorageType()
	f.Metadata = arrow.NewMetadata(keys, vals)
	return f
}

// StorageRecord returns rec with every variable-shape column replaced by
// its storage array and field by [StorageField], sharing the buffers. The
// caller releases the result.
func StorageRecord(rec arrow.RecordBatch) arrow.RecordBatch {
	s := rec.Schema()
	fields := make([]arrow.Field, s.NumFields())
	cols := make([]arrow.Array, s.NumFields())
	for i, f := range s.Fields() {
		fields[i] = StorageField(f)
		cols[i] = rec.Column(i)
		if a, ok := cols[i].(*Array); ok {
			st := rebase(a.Storage().Data())
			defer st.Release()
			cols[i] = array.MakeFromData(st)
			defer cols[i].Release()
		}
	}
	md := s.Metadata()
	return array.NewRecordBatch(arrow.NewSchema(fields, &md), cols, rec.NumRows())
}

// rebase returns struct data d as data of offset 0 whose children are
// zero-copy slices and whose validity bitmap is a copy (arrow-go's pqarrow
// writes the children of a sliced struct from their own offset), with the
// struct's nulls also marked on both children (pqarrow refuses a null
// struct row over a non-null list).
func rebase(d arrow.ArrayData) arrow.ArrayData {
	off, n := int64(d.Offset()), int64(d.Len())
	nulls := nullCount(d, 0, int(n))
	var valid *memory.Buffer
	if nulls > 0 {
		valid = memory.NewBufferBytes(make([]byte, bitutil.BytesForBits(n)))
		bitutil.CopyBitmap(d.Buffers()[0].Bytes(), int(off), int(n), valid.Bytes(), 0)
	}
	children := make([]arrow.ArrayData, len(d.Children()))
	for i, c := range d.Children() {
		s := sliceData(c, int(off), int(n))
		if valid != nil {
			// The child's own nulls are kept (AND with the struct's), in
			// a bitmap from the child's offset, which the slice keeps.
			so := int64(s.Offset())
			cb := memory.NewBufferBytes(make([]byte, bitutil.BytesForBits(so+n)))
			bitutil.CopyBitmap(valid.Bytes(), 0, int(n), cb.Bytes(), int(so))
			if bufs := s.Buffers(); s.NullN() > 0 {
				bitutil.BitmapAnd(cb.Bytes(), bufs[0].Bytes(), so, so, cb.Bytes(), so, n)
			}
			bufs := append([]*memory.Buffer{cb}, s.Buffers()[1:]...)
			ns := array.NewData(s.DataType(), int(n), bufs, s.Children(), int(n)-bitutil.CountSetBits(cb.Bytes(), int(so), int(n)), s.Offset())
			s.Release()
			s = ns
		}
		if fsl, ok := s.DataType().(*arrow.FixedSizeListType); ok && s.Offset() != 0 {
			// pqarrow writes a FixedSizeList with an offset wrongly.
			k := int(fsl.Len())
			vals := sliceData(s.Children()[0], s.Offset()*k, int(n)*k)
			var bits *memory.Buffer
			if s.NullN() > 0 {
				bits = memory.NewBufferBytes(make([]byte, bitutil.BytesForBits(n)))
				bitutil.CopyBitmap(s.Buffers()[0].Bytes(), s.Offset(), int(n), bits.Bytes(), 0)
			}
			ns := array.NewData(fsl, int(n), []*memory.Buffer{bits}, []arrow.ArrayData{vals}, s.NullN(), 0)
			vals.Release()
			s.Release()
			s = ns
		}
		children[i] = s
		defer s.Release()
	}
	return array.NewData(d.DataType(), int(n), []*memory.Buffer{valid}, children, nulls, 0)
}

// FromStorage returns storage, a struct array read with the extension
// keys of field f (what pyarrow and storage-only readers produce), as a
// variable-shape [Array], validated, and whether f names this type. The
// caller releases the result.
func FromStorage(f arrow.Field, storage arrow.Array) (*Array, bool, error) {
	name, _ := f.Metadata.GetValue(KeyExtensionName)
	if name != ExtensionName {
		return nil, false, nil
	}
	meta, _ := f.Metadata.GetValue(KeyExtensionMetadata)
	et, err := prototype.Deserialize(storage.DataType(), meta)
	if err != nil {
		return nil, true, err
	}
	arr, err := NewArray(et.(*Type), storage)
	return arr, true, err
}

// sliceData is array.NewSliceData with the null count computed, never
// left unknown (which arrow-go recomputes from a possibly absent bitmap).
func sliceData(c arrow.ArrayData, off, n int) arrow.ArrayData {
	return array.NewData(c.DataType(), n, c.Buffers(), c.Children(), nullCount(c, off, n), c.Offset()+off)
}

// nullCount counts the nulls of values off..off+n of d from its bitmap;
// ArrayData.NullN may be unknown (negative) for sliced data.
func nullCount(d arrow.ArrayData, off, n int) int {
	bufs := d.Buffers()
	if d.NullN() == 0 || len(bufs) == 0 || bufs[0] == nil {
		return 0
	}
	return n - bitutil.CountSetBits(bufs[0].Bytes(), d.Offset()+off, n)
}
