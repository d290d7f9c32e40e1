package metadata

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"unicode/utf8"

	"github.com/fstensor/fstensor/internal/errs"
	"github.com/fstensor/fstensor/stride"
)

// MaxListSize is the largest number of elements one tensor may have: the
// list size of an Arrow FixedSizeList is an int32.
const MaxListSize = math.MaxInt32

// Metadata describes one fixed-shape tensor type in logical terms. The zero
// value is a 0-D tensor (one element) without names or permutation. Values
// are immutable: accessors return copies, never internal slices.
type Metadata struct {
	shape []int    // logical
	names []string // logical; nil when absent
	perm  []int    // nil when absent
	size  int      // prod(shape)
}

// Error is the error type of this package. It wraps arrow.ErrInvalid and,
// when the stride arithmetic refused the input, stride.ErrInvalid.
type Error struct{ base }

type base = errs.Base

// strideError restates an error of package stride about the given key.
func strideError(key string, err error) error {
	var se *stride.Error
	if errors.As(err, &se) {
		return &Error{errs.Kind(err, "metadata", "%q %v %s", key, se.Value, se.Reason)}
	}
	return &Error{errs.Make("metadata", "%q: %w", key, err)}
}

func errorf(format string, args ...any) error {
	return &Error{errs.Make("metadata", format, args...)}
}

// New validates and returns the metadata of a tensor with the given
// logical shape, logical dimension names (nil for none) and permutation
// (nil for none; perm[i] is the physical axis of logical axis i). The
// arguments are copied.
//
// It fails, with an error wrapping arrow.ErrInvalid, on a negative
// dimension, a name count other than len(shape), a permutation of the wrong
// length, with an axis out of range or repeated, and an element count that
// overflows int or exceeds [MaxListSize].
func New(shape []int, names []string, perm []int) (Metadata, error) {
	if len(shape) > MaxDims {
		return Metadata{}, errorf(`"shape" has %d dimensions, more than %d`, len(shape), MaxDims)
	}
	if err := stride.CheckShape(shape); err != nil {
		return Metadata{}, strideError("shape", err)
	}
	size := 1
	for _, d := range shape {
		size *= d
	}
	if size > MaxListSize {
		return Metadata{}, errorf(`"shape" %v has %d elements, more than an Arrow FixedSizeList holds (%d)`, shape, size, MaxListSize)
	}
	if names != nil && len(names) != len(shape) {
		return Metadata{}, errorf(`"dim_names" has %d names for %d dimensions`, len(names), len(shape))
	}
	for i, n := range names {
		if !utf8.ValidString(n) {
			return Metadata{}, errorf(`"dim_names" item %d %q is not valid UTF-8`, i, n)
		}
	}
	if perm != nil {
		if len(perm) != len(shape) {
			return Metadata{}, errorf(`"permutation" %v has %d axes for %d dimensions`, perm, len(perm), len(shape))
		}
		if err := stride.CheckPermutation(perm); err != nil {
			return Metadata{}, strideError("permutation", err)
		}
	}
	return Metadata{
		shape: slices.Clone(shape),
		names: slices.Clone(names),
		perm:  slices.Clone(perm),
		size:  size,
	}, nil
}

// MustNew is like [New] but panics on error. It is meant for tests,
// examples and constant shapes.
func MustNew(shape []int, names []string, perm []int) Metadata {
	m, err := New(shape, names, perm)
	if err != nil {
		panic(err)
	}
	return m
}

// FromPhysical validates and returns the metadata given in Arrow's
// physical terms: the row-major storage shape, the names of the physical
// axes (nil for none) and the permutation (nil for none).
func FromPhysical(physicalShape []int, physicalNames []string, perm []int) (Metadata, error) {
	if perm != nil && len(perm) != len(physicalShape) {
		return Metadata{}, errorf(`"permutation" %v has %d axes for %d dimensions`, perm, len(perm), len(physicalShape))
	}
	if perm != nil {
		if err := stride.CheckPermutation(perm); err != nil {
			return Metadata{}, strideError("permutation", err)
		}
	}
	if physicalNames != nil && len(physicalNames) != len(physicalShape) {
		return Metadata{}, errorf(`"dim_names" has %d names for %d dimensions`, len(physicalNames), len(physicalShape))
	}
	shape := stride.LogicalShape(nil, physicalShape, perm)
	var names []string
	if physicalNames != nil {
		names = physicalNames
		if perm != nil {
			names = stride.Gather(nil, physicalNames, perm)
		}
	}
	return New(shape, names, perm)
}

// NDim returns the number of dimensions (0 for a 0-D tensor).
func (m Metadata) NDim() int { return len(m.shape) }

// Dim returns the size of logical axis i. It panics if i is out of range.
func (m Metadata) Dim(i int) int { return m.shape[i] }

// Size returns the number of elements of one tensor: the product of the
// shape, 1 for a 0-D tensor. It is the FixedSizeList list size.
func (m Metadata) Size() int {
	if len(m.shape) == 0 {
		return 1 // also the zero Metadata, whose size field is unset
	}
	return m.size
}

// Shape returns a copy of the logical shape.
func (m Metadata) Shape() []int { return append([]int{}, m.shape...) }

// AppendShape appends the logical shape to dst and returns it.
func (m Metadata) AppendShape(dst []int) []int { return append(dst, m.shape...) }

// DimNames returns a copy of the logical dimension names, nil when absent.
func (m Metadata) DimNames() []string { return slices.Clone(m.names) }

// HasDimNames reports whether dimension names are present.
func (m Metadata) HasDimNames() bool { return m.names != nil }

// DimName returns the name of logical axis i, "" when names are absent.
func (m Metadata) DimName(i int) string {
	if m.names == nil {
		return ""
	}
	return m.names[i]
}

// Permutation returns a copy of the permutation, nil when absent.
func (m Metadata) Permutation() []int { return slices.Clone(m.perm) }

// HasPermutation reports whether a permutation was given (the identity
// included).
func (m Metadata) HasPermutation() bool { return m.perm != nil }

// Axis returns the physical axis of logical axis i: perm[i], or i when the
// permutation is absent.
func (m Metadata) Axis(i int) int {
	if m.perm == nil {
		return i
	}
	return m.perm[i]
}

// PhysicalShape returns the row-major storage shape: P[perm[i]] = L[i].
func (m Metadata) PhysicalShape() []int {
	return stride.PhysicalShape(make([]int, 0, len(m.shape)), m.shape, m.perm)
}

// PhysicalDimNames returns the names of the physical axes, nil when names
// are absent.
func (m Metadata) PhysicalDimNames() []string {
	if m.names == nil {
		return nil
	}
	if m.perm == nil {
		return slices.Clone(m.names)
	}
	return stride.Scatter(nil, m.names, m.perm)
}

// ElemStrides returns the element strides of the logical axes.
func (m Metadata) ElemStrides() []int { return stride.Logical(nil, m.shape, m.perm) }

// AppendElemStrides appends the element strides of the logical axes to dst.
func (m Metadata) AppendElemStrides(dst []int) []int {
	n := len(dst)
	dst = slices.Grow(dst, len(m.shape))
	stride.Logical(dst[n:n+len(m.shape)], m.shape, m.perm)
	return dst[:n+len(m.shape)]
}

// ByteStrides returns the byte strides of the logical axes for elements of
// width bytes. The products are not checked: Size()*width must fit in an
// int, as it does for every fixedshape.Type (on a 32-bit platform a large
// shape of wide elements does not).
func (m Metadata) ByteStrides(width int) []int {
	return stride.Bytes(nil, m.ElemStrides(), width)
}

// Equal reports whether m and o describe the same type: equal logical
// shapes, equal names (absent only equals absent) and equal permutations,
// an absent permutation being equal to the identity.
func (m Metadata) Equal(o Metadata) bool {
	if !slices.Equal(m.shape, o.shape) || (m.names == nil) != (o.names == nil) || !slices.Equal(m.names, o.names) {
		return false
	}
	switch {
	case m.perm == nil:
		return stride.IsIdentity(o.perm)
	case o.perm == nil:
		return stride.IsIdentity(m.perm)
	}
	return slices.Equal(m.perm, o.perm)
}

// String returns a short human-readable form in logical terms, for
// example `(4,3) names=[W H] permutation=[1 0]`.
func (m Metadata) String() string {
	s := FormatShape(m.shape)
	if m.names != nil {
		s += fmt.Sprintf(" names=%q", m.names)
	}
	if m.perm != nil {
		s += fmt.Sprintf(" permutation=%v", m.perm)
	}
	return s
}
