package arrowconv

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/stride"
)

// Wrap returns storage, a plain FixedSizeList array of list size
// m.Size() and a primitive element type, as a tensor column described
// by m, sharing its buffers (O(1)). The child field may be named "item"
// or "element" and be nullable or not; a valid list with a null element
// is refused. Errors wrap arrow.ErrInvalid. The caller keeps its
// reference to storage; release both.
func Wrap(storage arrow.Array, m metadata.Metadata) (*fixedshape.Array, error) {
	typ, err := fixedshape.NewTypeWithStorage(storage.DataType(), m)
	if err != nil {
		return nil, errorf("wrap: %w", err)
	}
	arr, err := fixedshape.NewArray(typ, storage)
	if err != nil {
		return nil, errorf("wrap: %w", err)
	}
	return arr, nil
}

// Unwrap returns the FixedSizeList storage of arr and its metadata: the
// inverse of [Wrap]. The list array shares arr's buffers (O(1)) and holds
// its own reference: the caller releases it.
func Unwrap(arr *fixedshape.Array) (*array.FixedSizeList, metadata.Metadata) {
	st := arr.Storage().(*array.FixedSizeList)
	st.Retain()
	return st, arr.TensorType().Metadata()
}

// FromNested returns nested, a FixedSizeList of FixedSizeLists ... of a
// primitive element type, as a tensor column whose logical shape is the
// list sizes from the outside in: FSL<FSL<float32, 4>, 3> gives shape
// (3,4). names, when not nil, are the logical dimension names. The column
// shares nested's values buffer and its outer validity bitmap (O(1) in the
// data size).
//
// Only the outer level can carry nulls (null tensors): a null inner list
// or a null element inside a valid tensor has no representation and is
// refused, with an error wrapping arrow.ErrInvalid, as are element types
// other than fixedshape.ElemTypeOK's. The caller keeps its reference to
// nested.
func FromNested(nested arrow.Array, names []string) (*fixedshape.Array, error) {
	outer, ok := nested.(*array.FixedSizeList)
	if !ok {
		return nil, errorf("from nested: expected a FixedSizeList, got %v", nested.DataType())
	}
	var shape []int
	var level arrow.Array = outer
	// first and count: the range of lists (then elements) of the current
	// level that the tensors of nested cover, in the level's data
	// coordinates (its offset included).
	first, count := outer.Data().Offset(), outer.Len()
	for {
		fsl, ok := level.(*array.FixedSizeList)
		if !ok {
			break
		}
		if len(shape) >= metadata.MaxDims {
			return nil, errorf("from nested: more than %d levels", metadata.MaxDims)
		}
		n := int(fsl.DataType().(*arrow.FixedSizeListType).Len())
		shape = append(shape, n)
		if level != arrow.Array(outer) && fsl.NullN() > 0 {
			if bits := fsl.NullBitmapBytes(); bits != nil && bitutil.CountSetBits(bits, first, count) != count {
				return nil, errorf("from nested: level %d has null lists inside the tensors; only the outer level can be null", len(shape)-1)
			}
		}
		child := fsl.ListValues()
		var okf, okc bool
		first, okf = stride.MulCheck(first, n)
		count, okc = stride.MulCheck(count, n)
		if !okf || !okc {
			return nil, errorf("from nested: list sizes %v overflow", shape)
		}
		first += child.Data().Offset()
		if child.Len() < first-child.Data().Offset()+count {
			return nil, errorf("from nested: level %d has %d values, the tensors need %d", len(shape), child.Len(), first-child.Data().Offset()+count)
		}
		level = child
	}
	elem := level.DataType()
	if !fixedshape.ElemTypeOK(elem) {
		return nil, errorf("from nested: element type %v is not a primitive integer or float type", elem)
	}
	m, err := metadata.New(shape, names, nil)
	if err != nil {
		return nil, errorf("from nested: %w", err)
	}
	typ, err := fixedshape.NewType(elem, m)
	if err != nil {
		return nil, errorf("from nested: %w", err)
	}
	size := typ.ListSize()
	buf := level.Data().Buffers()[1]
	if count > 0 && (buf == nil || buf.Len() < (first+count)*typ.ElemWidth()) {
		return nil, errorf("from nested: the values buffer is too short")
	}
	// first is the element index of tensor 0 of nested; keep the outer
	// offset so that the outer bitmap can be shared.
	off := outer.Data().Offset()
	if count == 0 {
		buf = nil
		first = off * size
	}
	child := array.NewData(elem, (off+outer.Len())*size, []*memory.Buffer{level.Data().Buffers()[0], buf}, nil, -1, first-off*size)
	if level.NullN() == 0 {
		child.Release()
		child = array.NewData(elem, (off+outer.Len())*size, []*memory.Buffer{nil, buf}, nil, 0, first-off*size)
	}
	defer child.Release()
	od := outer.Data()
	st := array.NewData(typ.StorageType(), outer.Len(), []*memory.Buffer{od.Buffers()[0]}, []arrow.ArrayData{child}, od.NullN(), off)
	defer st.Release()
	storage := array.MakeFromData(st)
	defer storage.Release()
	arr, err := fixedshape.NewArray(typ, storage)
	if err != nil {
		return nil, errorf("from nested: %w", err)
	}
	return arr, nil
}

// NonNullableValuesType returns typ with its storage's child field
// declared non-nullable: fixed_size_list<item: elem not null>[size]
// instead of Arrow C++'s nullable "item". arrow-rs (its
// canonical_extension_types, 60.x) accepts arrow.fixed_shape_tensor only
// over such a child, and only without a permutation (it reads its own
// "permutations" key, not the spec's "permutation"), so this makes
// columns without a permutation readable there. pyarrow reads both forms.
// Parquet is unaffected: parquetconv always declares the child nullable,
// because Arrow C++ restores the extension type from Parquet only over a
// nullable child. Errors are fixedshape.NewTypeWithStorage's.
func NonNullableValuesType(typ *fixedshape.Type) (*fixedshape.Type, error) {
	st := arrow.FixedSizeListOfNonNullable(int32(typ.ListSize()), typ.ElemType())
	return fixedshape.NewTypeWithStorage(st, typ.Metadata())
}

// NonNullableValues returns arr under [NonNullableValuesType], sharing its
// buffers (O(1)); the caller releases both. A validity bitmap of the
// elements is dropped: the elements of valid tensors are never null (a
// fixedshape.Array guarantees it), and those of null tensors are
// undefined. Errors wrap arrow.ErrInvalid.
func NonNullableValues(arr *fixedshape.Array) (*fixedshape.Array, error) {
	typ, err := NonNullableValuesType(arr.TensorType())
	if err != nil {
		return nil, errorf("non-nullable values: %w", err)
	}
	sd := arr.Storage().Data()
	child := sd.Children()[0]
	if child.NullN() != 0 {
		child = array.NewData(child.DataType(), child.Len(), []*memory.Buffer{nil, child.Buffers()[1]}, nil, 0, child.Offset())
		defer child.Release()
	}
	data := array.NewData(typ.StorageType(), sd.Len(), sd.Buffers(), []arrow.ArrayData{child}, sd.NullN(), sd.Offset())
	defer data.Release()
	storage := array.MakeFromData(data)
	defer storage.Release()
	out, err := fixedshape.NewArray(typ, storage)
	if err != nil {
		return nil, errorf("non-nullable values: %w", err)
	}
	return out, nil
}

// NonNullableValuesRecord returns rec with every fixed-shape tensor
// column under [NonNullableValuesType] (see [NonNullableValues]) and its
// schema changed to match; other columns are kept. The result shares
// rec's buffers; the caller releases both. Write it with the writers of
// this package to give arrow-rs readable columns.
func NonNullableValuesRecord(rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	schema := rec.Schema()
	fields := schema.Fields()
	cols := make([]arrow.Array, rec.NumCols())
	for i, c := range rec.Columns() {
		cols[i] = c
		arr, ok := c.(*fixedshape.Array)
		if !ok {
			continue
		}
		nn, err := NonNullableValues(arr)
		if err != nil {
			return nil, errorf("column %q: %w", fields[i].Name, err)
		}
		defer nn.Release()
		cols[i] = nn
		fields[i].Type = nn.DataType()
	}
	md := schema.Metadata()
	return array.NewRecordBatch(arrow.NewSchema(fields, &md), cols, rec.NumRows()), nil
}
