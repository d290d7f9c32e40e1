package varshape

import (
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/errs"
	"github.com/fstensor/fstensor/internal/jsontext"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/stride"
)

// ExtensionName is the canonical Arrow name of the type.
const ExtensionName = "arrow.variable_shape_tensor"

// Varies marks a dimension of a uniform shape whose size differs between
// rows; it is written as JSON null.
const Varies = -1

// Error is the error type of this package. It matches arrow.ErrInvalid
// under errors.Is, and its cause too.
type Error struct{ base }

type base = errs.Base

func errorf(format string, args ...any) error {
	return &Error{errs.Make("varshape", format, args...)}
}

// Options are the optional parameters of a [Type], in logical terms: the
// i-th entry of each describes logical axis i.
type Options struct {
	// DimNames names the logical axes; nil when absent.
	DimNames []string
	// Permutation maps logical axis i to physical axis Permutation[i];
	// nil when absent (the identity).
	Permutation []int
	// UniformShape fixes the size of logical axis i for every valid row
	// when UniformShape[i] >= 0; [Varies] leaves it free. nil when absent.
	UniformShape []int
}

// Type is the `arrow.variable_shape_tensor` extension type: a struct of
// data (a List of elements, one list per tensor, row-major in the row's
// physical shape) and shape (a FixedSizeList<int32>[ndim] holding each
// row's physical shape). Its accessors speak the logical view;
// [Type.Serialize] writes the physical wire form. A Type is immutable and
// safe for concurrent use.
type Type struct {
	arrow.ExtensionBase
	ndim    int
	names   []string // physical, as stored; nil when absent
	perm    []int    // nil when absent
	uniform []int    // physical, Varies for null; nil when absent
}

var _ arrow.ExtensionType = (*Type)(nil)

// StorageOf returns the storage type Arrow C++ and pyarrow make:
// struct<data: list<item: elem>, shape: fixed_size_list<item: int32>[ndim]>.
func StorageOf(elem arrow.DataType, ndim int) arrow.DataType {
	return arrow.StructOf(
		arrow.Field{Name: "data", Type: arrow.ListOf(elem), Nullable: true},
		arrow.Field{Name: "shape", Type: arrow.FixedSizeListOf(int32(ndim), arrow.PrimitiveTypes.Int32), Nullable: true},
	)
}

// NewType returns the type of tensors of ndim logical dimensions with
// element type elem and the logical options o. It fails with an error
// wrapping arrow.ErrInvalid when elem is not a tensor element type
// (fixedshape.ElemTypeOK, or bool: fixedshape.BitElem), ndim is negative or above metadata.MaxDims, or
// an option has the wrong length or value; for ndim 0 it also wraps
// arrow.ErrNotImplemented (arrow-go cannot type a FixedSizeList of size 0,
// so 0-D variable-shape columns cannot be represented).
func NewType(elem arrow.DataType, ndim int, o Options) (*Type, error) {
	if !elemOK(elem) {
		return nil, errorf("element type %v is not a primitive integer, float or bool type", elem)
	}
	if ndim < 0 || ndim > metadata.MaxDims {
		return nil, errorf("%d dimensions: want 1 to %d", ndim, metadata.MaxDims)
	}
	if ndim == 0 {
		// The shape child would be a FixedSizeList of size 0, which
		// arrow-go cannot type (its constructor panics).
		return nil, errorf("0 dimensions: a shape fixed_size_list<int32>[0] cannot be represented: %w", arrow.ErrNotImplemented)
	}
	if err := checkOptions(ndim, o.DimNames, o.Permutation, o.UniformShape); err != nil {
		return nil, err
	}
	t := &Type{ExtensionBase: arrow.ExtensionBase{Storage: StorageOf(elem, ndim)}, ndim: ndim, perm: slices.Clone(o.Permutation)}
	if o.DimNames != nil {
		t.names = append([]string{}, o.DimNames...)
		if t.perm != nil {
			t.names = stride.Scatter(nil, o.DimNames, t.perm)
		}
	}
	if o.UniformShape != nil {
		t.uniform = stride.PhysicalShape(make([]int, 0, ndim), o.UniformShape, t.perm)
	}
	return t, nil
}

// MustNewType is like [NewType] but panics on error; for tests and
// examples.
func MustNewType(elem arrow.DataType, ndim int, o Options) *Type {
	t, err := NewType(elem, ndim, o)
	if err != nil {
		panic(err)
	}
	return t
}

// elemOK reports whether dt can be the element type of a column: a
// whole-byte tensor element type or bool, bit-packed in the data list as
// Arrow's list<bool> stores it.
func elemOK(dt arrow.DataType) bool {
	return dt != nil && (fixedshape.ElemTypeOK(dt) || fixedshape.BitElem(dt))
}

// checkOptions validates options of either space; names, permutation and
// uniform shape each have ndim entries when present.
func checkOptions(ndim int, names []string, perm, uniform []int) error {
	if names != nil && len(names) != ndim {
		return errorf(`"dim_names" has %d names for %d dimensions`, len(names), ndim)
	}
	for i, n := range names {
		if !utf8.ValidString(n) {
			return errorf(`"dim_names" item %d %q is not valid UTF-8`, i, n)
		}
	}
	if perm != nil {
		if len(perm) != ndim {
			return errorf(`"permutation" %v has %d axes for %d dimensions`, perm, len(perm), ndim)
		}
		if err := stride.CheckPermutation(perm); err != nil {
			return errorf(`"permutation" %v: %w`, perm, err)
		}
	}
	if uniform != nil {
		if len(uniform) != ndim {
			return errorf(`"uniform_shape" %v has %d sizes for %d dimensions`, uniform, len(uniform), ndim)
		}
		for i, d := range uniform {
			if d < Varies || d > math.MaxInt32 {
				return errorf(`"uniform_shape" %v: size %d of dimension %d is not an int32 size or null`, uniform, d, i)
			}
		}
	}
	return nil
}

// NewTypeWithStorage is [NewType] for a given storage type and options in
// physical terms, as stored: storage must be a struct of a "data" List of
// an element type and a "shape" FixedSizeList<int32>, in either order; ndim
// is the shape list's size. Child fields (names, nullability) are kept.
// A LargeList data child is refused with arrow.ErrNotImplemented.
func NewTypeWithStorage(storage arrow.DataType, physicalNames []string, perm, physicalUniform []int) (*Type, error) {
	st, ok := storage.(*arrow.StructType)
	if !ok || st.NumFields() != 2 {
		return nil, errorf("expected storage struct<data: list<T>, shape: fixed_size_list<int32>[ndim]>, got %v", storage)
	}
	df, okd := st.FieldByName("data")
	sf, oks := st.FieldByName("shape")
	if !okd || !oks {
		return nil, errorf("storage %v has no \"data\" and \"shape\" fields", storage)
	}
	var elem arrow.DataType
	switch dt := df.Type.(type) {
	case *arrow.ListType:
		elem = dt.Elem()
	case *arrow.LargeListType:
		return nil, errorf("storage %v: a large_list data child is not supported: %w", storage, arrow.ErrNotImplemented)
	default:
		return nil, errorf("storage %v: \"data\" is %v, not a list", storage, df.Type)
	}
	if !elemOK(elem) {
		return nil, errorf("storage %v: element type %v is not a primitive integer, float or bool type", storage, elem)
	}
	shp, ok := sf.Type.(*arrow.FixedSizeListType)
	if !ok || shp.Elem().ID() != arrow.INT32 {
		return nil, errorf("storage %v: \"shape\" is %v, not a fixed_size_list<int32>", storage, sf.Type)
	}
	ndim := int(shp.Len())
	if ndim > metadata.MaxDims {
		return nil, errorf("storage %v: %d dimensions, more than %d", storage, ndim, metadata.MaxDims)
	}
	if err := checkOptions(ndim, physicalNames, perm, physicalUniform); err != nil {
		return nil, err
	}
	return &Type{
		ExtensionBase: arrow.ExtensionBase{Storage: st},
		ndim:          ndim,
		names:         slices.Clone(physicalNames),
		perm:          slices.Clone(perm),
		uniform:       slices.Clone(physicalUniform),
	}, nil
}

// ArrayType returns the Go type of the arrays of this type, [Array].
func (*Type) ArrayType() reflect.Type { return reflect.TypeOf(Array{}) }

// ExtensionName returns [ExtensionName].
func (*Type) ExtensionName() string { return ExtensionName }

// Serialize returns the canonical extension metadata: compact JSON with
// the keys permutation, dim_names and uniform_shape in that order, absent
// ones left out, names and uniform sizes physical; `{}` when there are
// none. This is byte-identical to Arrow C++.
func (t *Type) Serialize() string { return string(t.AppendJSON(nil)) }

// AppendJSON appends [Type.Serialize]'s text to dst.
func (t *Type) AppendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	sep := func() {
		if len(dst) > 0 && dst[len(dst)-1] != '{' {
			dst = append(dst, ',')
		}
	}
	if t.perm != nil {
		dst = append(dst, `"permutation":`...)
		dst = appendInts(dst, t.perm, false)
	}
	if t.names != nil {
		sep()
		dst = append(dst, `"dim_names":[`...)
		for i, n := range t.names {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = jsontext.AppendString(dst, n)
		}
		dst = append(dst, ']')
	}
	if t.uniform != nil {
		sep()
		dst = append(dst, `"uniform_shape":`...)
		dst = appendInts(dst, t.uniform, true)
	}
	return append(dst, '}')
}

// Deserialize validates storage and the extension metadata data and
// returns the type. Every failure wraps arrow.ErrInvalid and says which
// key and value are wrong; it never panics.
func (*Type) Deserialize(storage arrow.DataType, data string) (arrow.ExtensionType, error) {
	names, perm, uniform, err := parseJSON([]byte(data))
	if err != nil {
		return nil, err
	}
	return NewTypeWithStorage(storage, names, perm, uniform)
}

// ExtensionEquals reports logical type equality: equal element types and
// dimensions, equal names, equal permutations (absent equals the
// identity) and equal uniform shapes (absent equals all null).
func (t *Type) ExtensionEquals(other arrow.ExtensionType) bool {
	o, ok := other.(*Type)
	if !ok || t.ndim != o.ndim || !arrow.TypeEqual(t.ElemType(), o.ElemType()) {
		return false
	}
	if (t.names == nil) != (o.names == nil) || !slices.Equal(t.names, o.names) {
		return false
	}
	return slices.Equal(t.fullPerm(), o.fullPerm()) && slices.Equal(t.fullUniform(), o.fullUniform())
}

func (t *Type) fullPerm() []int {
	if t.perm == nil {
		return stride.Identity(nil, t.ndim)
	}
	return t.perm
}

func (t *Type) fullUniform() []int {
	if t.uniform == nil {
		u := make([]int, t.ndim)
		for i := range u {
			u[i] = Varies
		}
		return u
	}
	return t.uniform
}

// Fingerprint identifies the type for caches and comparisons; unlike the
// default it includes the metadata.
func (t *Type) Fingerprint() string {
	return t.ExtensionBase.Fingerprint() + strconv.Itoa(t.ndim) + string(t.AppendJSON(nil))
}

// String returns the form Arrow C++ prints, in physical terms, for example
// extension<arrow.variable_shape_tensor[value_type=int64, ndim=3,
// permutation=[0,1,2], dim_names=[x,y,z], uniform_shape=[null,1,null]]>.
func (t *Type) String() string {
	var b strings.Builder
	b.WriteString("extension<" + ExtensionName + "[value_type=" + cppTypeName(t.ElemType()) + ", ndim=" + strconv.Itoa(t.ndim))
	if t.perm != nil {
		b.WriteString(", permutation=" + string(appendInts(nil, t.perm, false)))
	}
	if t.names != nil {
		b.WriteString(", dim_names=[" + strings.Join(t.names, ",") + "]")
	}
	if t.uniform != nil {
		b.WriteString(", uniform_shape=" + string(appendInts(nil, t.uniform, true)))
	}
	b.WriteString("]>")
	return b.String()
}

func cppTypeName(dt arrow.DataType) string {
	switch dt.ID() {
	case arrow.FLOAT16:
		return "halffloat"
	case arrow.FLOAT32:
		return "float"
	case arrow.FLOAT64:
		return "double"
	}
	return dt.String()
}

// ElemType returns the element type.
func (t *Type) ElemType() arrow.DataType {
	st := t.Storage.(*arrow.StructType)
	f, _ := st.FieldByName("data")
	return f.Type.(*arrow.ListType).Elem()
}

// ElemWidth returns the size of one element in bytes, 0 for bool (whose
// elements are bits: see [Array.ValueBits]).
func (t *Type) ElemWidth() int {
	if fixedshape.BitElem(t.ElemType()) {
		return 0
	}
	return t.ElemType().(arrow.FixedWidthDataType).Bytes()
}

// NDim returns the number of dimensions of every tensor.
func (t *Type) NDim() int { return t.ndim }

// DimNames returns the logical dimension names, nil if absent.
func (t *Type) DimNames() []string {
	if t.names == nil || t.perm == nil {
		return slices.Clone(t.names)
	}
	return stride.Gather(nil, t.names, t.perm)
}

// PhysicalDimNames returns a copy of the names as stored, nil if absent.
func (t *Type) PhysicalDimNames() []string { return slices.Clone(t.names) }

// Permutation returns a copy of the permutation, nil if absent.
func (t *Type) Permutation() []int { return slices.Clone(t.perm) }

// UniformShape returns the logical uniform shape ([Varies] for sizes that
// differ between rows), nil if absent.
func (t *Type) UniformShape() []int {
	if t.uniform == nil {
		return nil
	}
	return stride.LogicalShape(nil, t.uniform, t.perm)
}

// PhysicalUniformShape returns a copy of the uniform shape as stored, nil
// if absent.
func (t *Type) PhysicalUniformShape() []int { return slices.Clone(t.uniform) }

// RowMetadata returns the fixed-shape metadata of a row whose physical
// shape, as stored in the shape column, is physicalShape: the logical shape
// with this type's names and permutation. It fails with an error wrapping
// arrow.ErrInvalid when the shape has the wrong length, a negative size,
// too many elements or disagrees with the uniform shape.
func (t *Type) RowMetadata(physicalShape []int) (metadata.Metadata, error) {
	if len(physicalShape) != t.ndim {
		return metadata.Metadata{}, errorf("shape %s has %d dimensions, the type %d", metadata.FormatShape(physicalShape), len(physicalShape), t.ndim)
	}
	for i, d := range t.uniform {
		if d != Varies && physicalShape[i] != d {
			return metadata.Metadata{}, errorf("shape %s: dimension %d is %d, the uniform shape %s fixes it to %d", metadata.FormatShape(physicalShape), i, physicalShape[i], appendInts(nil, t.uniform, true), d)
		}
	}
	m, err := metadata.FromPhysical(physicalShape, t.names, t.perm)
	if err != nil {
		return metadata.Metadata{}, errorf("shape %s: %w", metadata.FormatShape(physicalShape), err)
	}
	return m, nil
}

// FixedType returns the fixed-shape type of a row of physical shape
// physicalShape: this type's element type, names and permutation. It fails
// like [Type.RowMetadata] and fixedshape.NewType.
func (t *Type) FixedType(physicalShape []int) (*fixedshape.Type, error) {
	m, err := t.RowMetadata(physicalShape)
	if err != nil {
		return nil, err
	}
	return fixedshape.NewType(t.ElemType(), m)
}

func appendInts(dst []byte, xs []int, nulls bool) []byte {
	dst = append(dst, '[')
	for i, x := range xs {
		if i > 0 {
			dst = append(dst, ',')
		}
		if nulls && x == Varies {
			dst = append(dst, "null"...)
			continue
		}
		dst = strconv.AppendInt(dst, int64(x), 10)
	}
	return append(dst, ']')
}
