package fixedshape

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/fstensor/fstensor/internal/errs"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/stride"
)

// ExtensionName is the canonical Arrow name of the type.
const ExtensionName = "arrow.fixed_shape_tensor"

// Elem is the set of Go element types of a tensor: Arrow's signed and
// unsigned integers, half, single and double floats.
type Elem interface {
	int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64 |
		float16.Num | float32 | float64
}

// Type is the `arrow.fixed_shape_tensor` extension type: a FixedSizeList of
// primitive elements, one list per tensor, described by [metadata.Metadata].
// Its accessors speak the logical view; [Type.Serialize] writes the
// physical wire form. A Type is immutable and safe for concurrent use.
type Type struct {
	arrow.ExtensionBase
	meta metadata.Metadata
}

var _ arrow.ExtensionType = (*Type)(nil)

// Error is the error type of this package. It matches arrow.ErrInvalid
// under errors.Is, and its cause (a metadata or stride error, or
// arrow.ErrNotImplemented) too.
type Error struct{ base }

type base = errs.Base

func errorf(format string, args ...any) error {
	return &Error{errs.Make("fixedshape", format, args...)}
}

// ElemTypeOK reports whether dt can be the element type of a tensor: a
// numeric type ([ElemNumeric]) or another fixed-width type whose elements
// are whole bytes: decimal32..decimal256, date32/64, time32/64,
// timestamp, duration, the three intervals and fixed_size_binary of a
// width above 0. Columns of the latter are read, written, viewed as raw
// elements ([Array.RawAt]), compared and transformed by view expressions
// like the numeric ones; arithmetic and the codecs refuse them. bool is an
// element type too, but bit-packed, so it is not one of these whole-byte
// types: see [BitElem].
func ElemTypeOK(dt arrow.DataType) bool {
	if dt == nil {
		return false
	}
	if ElemNumeric(dt) {
		return true
	}
	switch dt.ID() {
	case arrow.DECIMAL32, arrow.DECIMAL64, arrow.DECIMAL128, arrow.DECIMAL256,
		arrow.DATE32, arrow.DATE64, arrow.TIME32, arrow.TIME64, arrow.TIMESTAMP, arrow.DURATION,
		arrow.INTERVAL_MONTHS, arrow.INTERVAL_DAY_TIME, arrow.INTERVAL_MONTH_DAY_NANO:
		_, ok := dt.(arrow.FixedWidthDataType)
		return ok
	case arrow.FIXED_SIZE_BINARY:
		f, ok := dt.(*arrow.FixedSizeBinaryType)
		return ok && f.ByteWidth > 0
	}
	return false
}

// BitElem reports whether dt is bool, the bit-packed element type. Bool is
// an element type of [NewType] besides those of [ElemTypeOK]: its
// elements are bits, read with [Array.BoolAt], built with [FromBools],
// compared by [Equal], transformed by view expressions, read and written
// through IPC and Parquet. [Type.ElemWidth] is 0 for it and
// [Array.ValueBytes] nil: code that moves whole bytes refuses it.
func BitElem(dt arrow.DataType) bool { return dt != nil && dt.ID() == arrow.BOOL }

// ElemNumeric reports whether dt is one of the numeric element types of
// [Elem]: int8..int64, uint8..uint64, float16, float32 or float64.
func ElemNumeric(dt arrow.DataType) bool {
	if dt == nil {
		return false
	}
	switch dt.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64,
		arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64,
		arrow.FLOAT16, arrow.FLOAT32, arrow.FLOAT64:
		return true
	}
	return false
}

// NewType returns the tensor type with element type elem and metadata m.
// The storage is fixed_size_list<item: elem>[m.Size()], as Arrow C++ makes
// it. It fails with an error wrapping arrow.ErrInvalid when elem is not an
// element type ([ElemTypeOK], [BitElem]) or one tensor has more bytes than an int
// counts (only possible on a 32-bit platform, where the limit is 2 GiB),
// and additionally arrow.ErrNotImplemented when the shape has no elements:
// a size-0 dimension is valid metadata, but arrow-go cannot represent a
// FixedSizeList of size 0 (its type constructor panics, IPC and C Data
// refuse it).
func NewType(elem arrow.DataType, m metadata.Metadata) (*Type, error) {
	if elem == nil || !ElemTypeOK(elem) && !BitElem(elem) {
		return nil, errorf("element type %v is not a fixed-width type of whole-byte elements", elem)
	}
	if m.Size() == 0 {
		return nil, errorf("shape %s has no elements: a FixedSizeList of size 0 cannot be represented: %w", metadata.FormatShape(m.Shape()), arrow.ErrNotImplemented)
	}
	if err := checkByteSize(elem, m); err != nil {
		return nil, err
	}
	return &Type{
		ExtensionBase: arrow.ExtensionBase{Storage: arrow.FixedSizeListOf(int32(m.Size()), elem)},
		meta:          m,
	}, nil
}

// MustNewType is like [NewType] but panics on error; for tests and
// examples.
func MustNewType(elem arrow.DataType, m metadata.Metadata) *Type {
	t, err := NewType(elem, m)
	if err != nil {
		panic(err)
	}
	return t
}

// NewTypeWithStorage is [NewType] for a given storage type, which must be
// a FixedSizeList of an element type whose list size is m.Size(). The
// child field (its name, "item" or "element", and nullability) is kept as
// given.
func NewTypeWithStorage(storage arrow.DataType, m metadata.Metadata) (*Type, error) {
	fsl, ok := storage.(*arrow.FixedSizeListType)
	if !ok {
		return nil, errorf("expected FixedSizeList storage type, got %v", storage)
	}
	if !ElemTypeOK(fsl.Elem()) && !BitElem(fsl.Elem()) {
		return nil, errorf("storage %v: element type %v is not a fixed-width type of whole-byte elements", storage, fsl.Elem())
	}
	if err := m.CheckListSize(int(fsl.Len())); err != nil {
		return nil, errorf("storage %v: %w", storage, err)
	}
	if err := checkByteSize(fsl.Elem(), m); err != nil {
		return nil, err
	}
	return &Type{ExtensionBase: arrow.ExtensionBase{Storage: fsl}, meta: m}, nil
}

// checkByteSize refuses a tensor whose size in bytes overflows int, so that
// byte strides and offsets computed from the type fit. The list size is at
// most math.MaxInt32; with numeric elements of at most 8 bytes this only
// happens on a 32-bit platform, with fixed-size binaries on any.
func checkByteSize(elem arrow.DataType, m metadata.Metadata) error {
	w := elem.(arrow.FixedWidthDataType).Bytes()
	if _, ok := stride.MulCheck(m.Size(), w); !ok {
		return errorf("shape %s of %d-byte %v elements: a tensor of %d elements has more bytes than an int counts", metadata.FormatShape(m.Shape()), w, elem, m.Size())
	}
	return nil
}

// ArrayType returns the Go type of the arrays of this type, [Array].
func (*Type) ArrayType() reflect.Type { return reflect.TypeOf(Array{}) }

// ExtensionName returns [ExtensionName].
func (*Type) ExtensionName() string { return ExtensionName }

// Serialize returns the canonical extension metadata, physical shape
// first (see metadata.Metadata.AppendJSON).
func (t *Type) Serialize() string { return string(t.meta.AppendJSON(nil)) }

// Deserialize returns the type of a column with storage type storage and
// extension metadata data: a [*Type] when [ParseType] accepts them, and
// otherwise an [*Unsupported] holding the storage, data and the reason
// ([Unsupported.Reason]). It never fails for a non-nil storage, because
// arrow-go's readers fail a whole schema when one column's Deserialize
// does; callers that want an error use [ParseType]. A nil storage gives
// an error wrapping arrow.ErrInvalid. It never panics.
func (*Type) Deserialize(storage arrow.DataType, data string) (arrow.ExtensionType, error) {
	if storage == nil {
		return nil, errorf("%s: no storage type", ExtensionName)
	}
	t, err := ParseType(storage, data)
	if err != nil {
		return NewUnsupported(storage, data, err), nil
	}
	return t, nil
}

// ParseType validates storage and the extension metadata data and
// returns the tensor type. Every failure wraps arrow.ErrInvalid and says
// which key and value are wrong; it never panics.
func ParseType(storage arrow.DataType, data string) (*Type, error) {
	m, err := metadata.Parse([]byte(data))
	if err != nil {
		return nil, errorf("%s: %w", ExtensionName, err)
	}
	return NewTypeWithStorage(storage, m)
}

// ExtensionEquals reports logical type equality: other is a tensor type
// with an equal element type and equal metadata (an absent permutation
// equals the identity; see metadata.Metadata.Equal).
func (t *Type) ExtensionEquals(other arrow.ExtensionType) bool {
	o, ok := other.(*Type)
	return ok && arrow.TypeEqual(t.ElemType(), o.ElemType()) && t.meta.Equal(o.meta)
}

// Fingerprint identifies the type for caches and comparisons. Unlike the
// default it includes the metadata (an identity permutation is dropped, as
// [Type.ExtensionEquals] ignores it), so different shapes never collide.
func (t *Type) Fingerprint() string {
	m := t.meta
	if m.HasPermutation() && stride.IsIdentity(m.Permutation()) {
		m = metadata.MustNew(m.Shape(), m.DimNames(), nil)
	}
	return t.ExtensionBase.Fingerprint() + string(m.AppendJSON(nil))
}

// String returns the form Arrow C++ prints, in physical terms:
// extension<arrow.fixed_shape_tensor[value_type=int32, shape=[3,4],
// permutation=[1,0], dim_names=[x,y]]>.
func (t *Type) String() string {
	var b strings.Builder
	b.WriteString("extension<" + ExtensionName + "[value_type=" + cppTypeName(t.ElemType()) + ", shape=")
	writeInts(&b, t.meta.PhysicalShape())
	if t.meta.HasPermutation() {
		b.WriteString(", permutation=")
		writeInts(&b, t.meta.Permutation())
	}
	if t.meta.HasDimNames() {
		b.WriteString(", dim_names=[" + strings.Join(t.meta.PhysicalDimNames(), ",") + "]")
	}
	b.WriteString("]>")
	return b.String()
}

// cppTypeName returns the name Arrow C++ prints for an element type; it
// differs from arrow-go's for the floats.
func cppTypeName(dt arrow.DataType) string {
	switch dt.ID() {
	case arrow.FLOAT16:
		return "halffloat"
	case arrow.FLOAT32:
		return "float"
	case arrow.FLOAT64:
		return "double"
	case arrow.DECIMAL128, arrow.DECIMAL256, arrow.DECIMAL32, arrow.DECIMAL64:
		d := dt.(arrow.DecimalType)
		return fmt.Sprintf("decimal%d(%d, %d)", d.BitWidth(), d.GetPrecision(), d.GetScale())
	}
	return dt.String()
}

func writeInts(b *strings.Builder, xs []int) {
	b.WriteByte('[')
	for i, x := range xs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(x))
	}
	b.WriteByte(']')
}

// Metadata returns the tensor metadata (logical shape, names, permutation).
func (t *Type) Metadata() metadata.Metadata { return t.meta }

// ElemType returns the element type.
func (t *Type) ElemType() arrow.DataType { return t.Storage.(*arrow.FixedSizeListType).Elem() }

// ElemWidth returns the size of one element in bytes, 0 for bool (whose
// elements are bits: see [BitElem]).
func (t *Type) ElemWidth() int {
	if BitElem(t.ElemType()) {
		return 0
	}
	return t.ElemType().(arrow.FixedWidthDataType).Bytes()
}

// ListSize returns the number of elements of one tensor.
func (t *Type) ListSize() int { return t.meta.Size() }

// NDim returns the number of logical dimensions.
func (t *Type) NDim() int { return t.meta.NDim() }

// Shape returns a copy of the logical shape.
func (t *Type) Shape() []int { return t.meta.Shape() }

// PhysicalShape returns a copy of the physical (storage) shape.
func (t *Type) PhysicalShape() []int { return t.meta.PhysicalShape() }

// DimNames returns a copy of the logical dimension names, nil if absent.
func (t *Type) DimNames() []string { return t.meta.DimNames() }

// PhysicalDimNames returns the names of the physical axes, nil if absent.
func (t *Type) PhysicalDimNames() []string { return t.meta.PhysicalDimNames() }

// Permutation returns a copy of the permutation, nil if absent.
func (t *Type) Permutation() []int { return t.meta.Permutation() }

// ElemStrides returns the element strides of the logical axes.
func (t *Type) ElemStrides() []int { return t.meta.ElemStrides() }

// ByteStrides returns the byte strides of the logical axes.
func (t *Type) ByteStrides() []int { return t.meta.ByteStrides(t.ElemWidth()) }

// PhysicalElemStrides returns the row-major element strides of the
// physical axes.
func (t *Type) PhysicalElemStrides() []int {
	return stride.RowMajor(nil, t.meta.PhysicalShape())
}
