package arrowconv

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/validate"
)

// Field metadata keys by which Arrow marks an extension column whose
// type travels as its storage type (IPC, Parquet, C Data).
const (
	ExtensionNameKey     = "ARROW:extension:name"
	ExtensionMetadataKey = "ARROW:extension:metadata"
)

// StorageField returns f with a tensor type (or a
// fixedshape.Unsupported one) replaced by its storage type and the
// extension name and metadata added to the field metadata (replacing keys
// of the same name), the form in which writers that cannot handle the
// extension type itself carry it. Other fields are returned unchanged.
func StorageField(f arrow.Field) arrow.Field {
	var data string
	switch t := f.Type.(type) {
	case *fixedshape.Type:
		data = t.Serialize()
	case *fixedshape.Unsupported:
		data = t.Serialize()
	default:
		return f
	}
	keys := []string{ExtensionNameKey, ExtensionMetadataKey}
	vals := []string{fixedshape.ExtensionName, data}
	for i, k := range f.Metadata.Keys() {
		if k != ExtensionNameKey && k != ExtensionMetadataKey {
			keys = append(keys, k)
			vals = append(vals, f.Metadata.Values()[i])
		}
	}
	f.Type = f.Type.(arrow.ExtensionType).StorageType()
	f.Metadata = arrow.NewMetadata(keys, vals)
	return f
}

// TensorField is the inverse of [StorageField]: a field whose metadata
// names arrow.fixed_shape_tensor gets the type fixedshape.Type.Deserialize
// gives (a tensor type, or a fixedshape.Unsupported one when the storage
// or the extension metadata is not a tensor type's, as arrow-go's IPC
// reader does) and loses the two extension keys. Other fields are
// returned unchanged. The error, for a field without a type, wraps
// arrow.ErrInvalid and names the field.
func TensorField(f arrow.Field) (arrow.Field, error) {
	if f.Type == nil {
		return f, nil
	}
	name, ok := f.Metadata.GetValue(ExtensionNameKey)
	if !ok || name != fixedshape.ExtensionName {
		return f, nil
	}
	serialized, _ := f.Metadata.GetValue(ExtensionMetadataKey)
	var proto fixedshape.Type
	et, err := proto.Deserialize(f.Type, serialized)
	if err != nil {
		return f, errorf("field %q: %w", f.Name, err)
	}
	f.Type = et
	f.Metadata = withoutExtensionKeys(f.Metadata)
	return f, nil
}

// withoutExtensionKeys returns md without the two extension keys.
func withoutExtensionKeys(md arrow.Metadata) arrow.Metadata {
	var keys, vals []string
	for i, k := range md.Keys() {
		if k != ExtensionNameKey && k != ExtensionMetadataKey {
			keys = append(keys, k)
			vals = append(vals, md.Values()[i])
		}
	}
	return arrow.NewMetadata(keys, vals)
}

// StorageSchema applies [StorageField] to every field of s.
func StorageSchema(s *arrow.Schema) *arrow.Schema {
	fields := make([]arrow.Field, s.NumFields())
	for i, f := range s.Fields() {
		fields[i] = StorageField(f)
	}
	md := s.Metadata()
	return arrow.NewSchema(fields, &md)
}

// TensorSchema applies [TensorField] to every field of s.
func TensorSchema(s *arrow.Schema) (*arrow.Schema, error) {
	fields := make([]arrow.Field, s.NumFields())
	for i, f := range s.Fields() {
		var err error
		if fields[i], err = TensorField(f); err != nil {
			return nil, err
		}
	}
	md := s.Metadata()
	return arrow.NewSchema(fields, &md), nil
}

// StorageRecord returns rec with every tensor column replaced by its
// storage column and the schema by [StorageSchema]'s, sharing all
// buffers. The caller releases the result.
func StorageRecord(rec arrow.RecordBatch) arrow.RecordBatch {
	cols := make([]arrow.Array, rec.NumCols())
	for i, c := range rec.Columns() {
		switch t := c.(type) {
		case *fixedshape.Array:
			cols[i] = t.Storage()
		case *fixedshape.UnsupportedArray:
			cols[i] = t.Storage()
		default:
			cols[i] = c
		}
	}
	return array.NewRecordBatch(StorageSchema(rec.Schema()), cols, rec.NumRows())
}

// TensorRecord returns rec with every column whose field metadata names
// arrow.fixed_shape_tensor wrapped as a tensor column, or as a
// fixedshape.UnsupportedArray ([TensorField]), sharing all buffers, and validates every tensor column
// (fixedshape.Array.Validate), those rec already had included. Use it on
// records from a reader that does not restore extension types (a C Data
// import, a Parquet file without a stored Arrow schema). Errors wrap
// arrow.ErrInvalid and name the column. The caller releases the result
// and keeps its reference to rec.
func TensorRecord(rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	sc, err := TensorSchema(rec.Schema())
	if err != nil {
		return nil, err
	}
	cols := make([]arrow.Array, rec.NumCols())
	var made []arrow.Array
	defer func() {
		for _, a := range made {
			a.Release()
		}
	}()
	for i, c := range rec.Columns() {
		f := sc.Field(i)
		if u, ok := f.Type.(*fixedshape.Unsupported); ok && !arrow.TypeEqual(c.DataType(), u) {
			arr := array.NewExtensionArrayWithStorage(u, c)
			made = append(made, arr)
			cols[i] = arr
			continue
		}
		typ, ok := f.Type.(*fixedshape.Type)
		if !ok {
			cols[i] = c
			continue
		}
		if t, ok := c.(*fixedshape.Array); ok {
			if err := t.Validate(); err != nil {
				return nil, errorf("column %q: %w", f.Name, err)
			}
			cols[i] = c
			continue
		}
		arr, err := fixedshape.NewArray(typ, c)
		if err != nil {
			return nil, errorf("column %q: %w", f.Name, err)
		}
		made = append(made, arr)
		cols[i] = arr
	}
	return array.NewRecordBatch(sc, cols, rec.NumRows()), nil
}

// ValidateRecord checks rec in full before it is handed out or written:
// every invariant of the Arrow columnar format that Arrow C++'s
// ValidateFull checks, for every column and its children (buffer sizes,
// null counts, offsets within their data or child, UTF-8 of strings,
// union type ids, dictionary indices, run ends; see the package doc,
// Errors), then every tensor column with fixedshape.Array.Validate.
// arrow-go's readers check little of this, and its writers panic on, or
// copy, what they do not check. The error wraps arrow.ErrInvalid and
// names the first bad column (a child by its path, "col.item") and, where
// one row is at fault, the row. The cost is O(1) per fixed-width column
// plus a bit count per validity bitmap, O(rows) for offsets, and O(bytes)
// for the UTF-8 of strings.
func ValidateRecord(rec arrow.RecordBatch) error {
	if err := validate.Record(rec); err != nil {
		return errorf("%w", err)
	}
	for i, c := range rec.Columns() {
		if t, ok := c.(*fixedshape.Array); ok {
			if err := t.Validate(); err != nil {
				return errorf("column %q: %w", rec.Schema().Field(i).Name, err)
			}
		}
	}
	return nil
}

// RecordBytes returns the bytes of the buffers of rec, children and
// dictionaries included: what writing it costs before compression. A
// buffer shared by several columns, or a slice's whole buffer, counts in
// full each time.
func RecordBytes(rec arrow.RecordBatch) int64 {
	var n int64
	for _, c := range rec.Columns() {
		n += dataBytes(c.Data())
	}
	return n
}

func dataBytes(d arrow.ArrayData) int64 {
	var n int64
	for _, b := range d.Buffers() {
		if b != nil {
			n += int64(b.Len())
		}
	}
	for _, c := range d.Children() {
		n += dataBytes(c)
	}
	if d.DataType().ID() == arrow.DICTIONARY {
		n += dataBytes(d.Dictionary())
	}
	return n
}
