//go:build cgo

package arrowconv

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/cdata"
	"github.com/fstensor/fstensor/arrowconv/internal/cabi"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/varshape"
)

// This file needs cgo (arrow-go's cdata package does); without it the
// rest of the package builds and these functions are absent.
//
// arrow-go exports an extension array with nested storage without its
// child, so the peer's import fails, and its importer never rebuilds
// extension types. The functions here export the schema from the
// extension type (name and metadata in the field metadata, as the C Data
// Interface specifies) and the data from the storage, and on import
// deserialize the type and rewrap the storage, zero-copy both ways.

// ExportArray exports arr through the C Data Interface: out receives
// the data (its storage FixedSizeList, sharing arr's buffers) and
// outSchema, when not nil, a field named name whose format is the
// FixedSizeList and whose metadata carries ARROW:extension:name and
// ARROW:extension:metadata. The consumer owns both structs and must call
// their release callbacks; arr stays valid and is kept alive until then.
func ExportArray(arr *fixedshape.Array, name string, out *cdata.CArrowArray, outSchema *cdata.CArrowSchema) {
	if outSchema != nil {
		// arrow-go's exporter has no public single-field entry point and
		// drops the child of an extension type's schema: export a struct
		// schema of the storage field, then move its only child out.
		f := StorageField(arrow.Field{Name: name, Type: arr.DataType(), Nullable: true})
		var parent cdata.CArrowSchema
		cdata.ExportArrowSchema(arrow.NewSchema([]arrow.Field{f}, nil), &parent)
		if err := cabi.MoveChild(&parent, 0, outSchema); err != nil {
			panic(err) // arrow-go exported a struct without its field: a broken invariant
		}
		cdata.ReleaseCArrowSchema(&parent)
	}
	cdata.ExportArrowArray(arr.Storage(), out, nil)
}

// ImportArray imports a tensor column from the C Data Interface,
// taking ownership of arr (it is released, moved into the result) and
// reading schema (left for the caller to release). schema must be a
// FixedSizeList field whose metadata names arrow.fixed_shape_tensor.
// The result shares the producer's buffers. Errors wrap
// arrow.ErrInvalid; on error arr is released too.
func ImportArray(arr *cdata.CArrowArray, schema *cdata.CArrowSchema) (*fixedshape.Array, arrow.Field, error) {
	field, err := cdata.ImportCArrowField(schema)
	if err != nil {
		cdata.ReleaseCArrowArray(arr)
		return nil, arrow.Field{}, errorf("c data import: %w", err)
	}
	field, err = TensorField(field)
	if err != nil {
		cdata.ReleaseCArrowArray(arr)
		return nil, arrow.Field{}, err
	}
	typ, ok := field.Type.(*fixedshape.Type)
	if !ok {
		cdata.ReleaseCArrowArray(arr)
		return nil, arrow.Field{}, errorf("c data import: field %q of type %v is not a tensor column", field.Name, field.Type)
	}
	storage, err := cdata.ImportCArrayWithType(arr, typ.StorageType())
	if err != nil {
		return nil, arrow.Field{}, errorf("c data import: %w", err)
	}
	defer storage.Release()
	out, err := fixedshape.NewArray(typ, storage)
	if err != nil {
		return nil, arrow.Field{}, errorf("c data import: %w", err)
	}
	return out, field, nil
}

// ExportRecordBatch exports rec through the C Data Interface as a struct
// array, tensor columns (fixed- and variable-shape) as their storage,
// and, when outSchema is not nil, its schema with every tensor field in
// the form of [StorageField] (varshape.StorageField for variable-shape
// ones). The data is shared; the consumer releases both structs.
func ExportRecordBatch(rec arrow.RecordBatch, out *cdata.CArrowArray, outSchema *cdata.CArrowSchema) {
	st := StorageRecord(rec)
	defer st.Release()
	// The storage schema carries the extension keys in field metadata;
	// exporting the extension types themselves would drop their children.
	vst := varshape.StorageRecord(st)
	defer vst.Release()
	cdata.ExportArrowRecordBatch(vst, out, outSchema)
}

// ImportRecordBatch imports a record batch exported through the C Data
// Interface by any producer (this package, pyarrow, Arrow C++), taking
// ownership of arr and reading schema (left for the caller to release).
// FixedSizeList fields whose metadata names arrow.fixed_shape_tensor
// become tensor columns sharing the producer's buffers ([TensorRecord]),
// and struct fields whose metadata names arrow.variable_shape_tensor
// variable-shape columns (varshape.FromStorage, validated). The caller
// releases the result. Errors wrap arrow.ErrInvalid.
func ImportRecordBatch(arr *cdata.CArrowArray, schema *cdata.CArrowSchema) (arrow.RecordBatch, error) {
	sc, err := cdata.ImportCArrowSchema(schema)
	if err != nil {
		cdata.ReleaseCArrowArray(arr)
		return nil, errorf("c data import: %w", err)
	}
	rec, err := cdata.ImportCRecordBatchWithSchema(arr, StorageSchema(sc))
	if err != nil {
		return nil, errorf("c data import: %w", err)
	}
	defer rec.Release()
	trec, err := TensorRecord(rec)
	if err != nil {
		return nil, err
	}
	defer trec.Release()
	return varshapeRecord(trec)
}

// varshapeRecord returns rec with every column whose field metadata
// names arrow.variable_shape_tensor as a variable-shape column sharing
// its buffers, the field's type the column's and its metadata without
// the extension keys. The caller releases the result.
func varshapeRecord(rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	s := rec.Schema()
	fields := slices.Clone(s.Fields())
	cols := slices.Clone(rec.Columns())
	for i, f := range fields {
		arr, ok, err := varshape.FromStorage(f, cols[i])
		if !ok {
			continue
		}
		if err != nil {
			return nil, errorf("c data import: column %q: %w", f.Name, err)
		}
		defer arr.Release()
		cols[i] = arr
		fields[i].Type, fields[i].Metadata = arr.DataType(), withoutExtensionKeys(f.Metadata)
	}
	md := s.Metadata()
	return array.NewRecordBatch(arrow.NewSchema(fields, &md), cols, rec.NumRows()), nil
}
