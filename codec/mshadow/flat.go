package mshadow

import (
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/stride"
)

// Size returns the number of elements of shape, 1 for a 0-D shape, as
// TShape::Size does, but with the product checked: a negative dimension or
// an element count that overflows an int is an error wrapping
// arrow.ErrInvalid.
func Size(shape []int) (int, error) {
	n, err := stride.NumElements(shape)
	if err != nil {
		return 0, wrap(err, "shape %s", metadata.FormatShape(shape))
	}
	return n, nil
}

// ProdShape returns the product of the dimensions shape[begin:end] (end
// exclusive), 1 for an empty range, as TShape::ProdShape does. A range
// outside the shape, a negative dimension or an overflowing product is an
// error wrapping arrow.ErrInvalid.
func ProdShape(shape []int, begin, end int) (int, error) {
	if begin < 0 || end > len(shape) || begin > end {
		return 0, errorf("ProdShape(%d, %d) of %s: range outside the shape", begin, end, metadata.FormatShape(shape))
	}
	return prod(shape, begin, end)
}

func prod(shape []int, begin, end int) (int, error) {
	n := 1
	for i := begin; i < end; i++ {
		if shape[i] < 0 {
			return 0, errorf("shape %s: dimension %d is negative", metadata.FormatShape(shape), i)
		}
		var ok bool
		if n, ok = stride.MulCheck(n, shape[i]); !ok {
			return 0, errorf("shape %s: product of dimensions [%d,%d) overflows", metadata.FormatShape(shape), begin, end)
		}
	}
	return n, nil
}

// FlatTo2D returns shape collapsed to two dimensions, as TShape::FlatTo2D
// does: the product of all leading dimensions, then the last one. (7,) gives
// (1,7). A 0-D shape gives (0,0), as mshadow does (MXNet's later TShape gives
// (1,1)); note that (0,0) has 0 elements where () has one, so Reshape refuses
// it. Errors wrap arrow.ErrInvalid (a negative dimension, an overflow).
func FlatTo2D(shape []int) ([2]int, error) {
	if len(shape) == 0 {
		return [2]int{0, 0}, nil
	}
	n := len(shape)
	lead, err := prod(shape, 0, n-1)
	if err != nil {
		return [2]int{}, err
	}
	if shape[n-1] < 0 {
		return [2]int{}, errorf("shape %s: dimension %d is negative", metadata.FormatShape(shape), n-1)
	}
	return [2]int{lead, shape[n-1]}, nil
}

// FlatTo3D returns shape collapsed to three dimensions, as
// TShape::FlatTo3D(axisBegin, axisEnd) does: the products of [0,axisBegin),
// [axisBegin,axisEnd] (inclusive) and (axisEnd,ndim). FlatTo3D(s, a, a) is
// mshadow's one-axis FlatTo3D(a). A 0-D shape gives (0,0,0) as in mshadow.
// Errors wrap arrow.ErrInvalid: axisEnd < axisBegin (mshadow's CHECK), an
// axis outside the shape, a negative dimension, an overflow.
func FlatTo3D(shape []int, axisBegin, axisEnd int) ([3]int, error) {
	if axisEnd < axisBegin {
		return [3]int{}, errorf("FlatTo3D(%d, %d): axis_end is before axis_begin", axisBegin, axisEnd)
	}
	if len(shape) == 0 {
		return [3]int{0, 0, 0}, nil
	}
	if axisBegin < 0 || axisEnd >= len(shape) {
		return [3]int{}, errorf("FlatTo3D(%d, %d) of %s: axis outside the shape", axisBegin, axisEnd, metadata.FormatShape(shape))
	}
	var out [3]int
	var err error
	if out[0], err = prod(shape, 0, axisBegin); err != nil {
		return [3]int{}, err
	}
	if out[1], err = prod(shape, axisBegin, axisEnd+1); err != nil {
		return [3]int{}, err
	}
	if out[2], err = prod(shape, axisEnd+1, len(shape)); err != nil {
		return [3]int{}, err
	}
	return out, nil
}

// Reshape returns arr viewed with the logical shape shape, without copying,
// as TBlob::get_with_shape does: the tensors must be contiguous (dense
// row-major, i.e. no permutation other than the identity) and the element
// count must not change. Dimension names are dropped. The result shares
// arr's buffers and holds its own reference: release both.
//
// Errors wrap arrow.ErrInvalid: a permuted layout (materialize it first), a
// different element count, an invalid shape (and, through
// fixedshape.NewType, a shape with 0 elements).
func Reshape(arr *fixedshape.Array, shape []int) (*fixedshape.Array, error) {
	typ := arr.TensorType()
	m := typ.Metadata()
	if m.HasPermutation() && !stride.IsIdentity(m.Permutation()) {
		return nil, errorf("get_with_shape %s: tensor of shape %s with permutation %v is not contiguous", metadata.FormatShape(shape), metadata.FormatShape(m.Shape()), m.Permutation())
	}
	n, err := Size(shape)
	if err != nil {
		return nil, err
	}
	if n != m.Size() {
		return nil, errorf("get_with_shape: new shape %s has %d elements, old shape %s has %d", metadata.FormatShape(shape), n, metadata.FormatShape(m.Shape()), m.Size())
	}
	nm, err := metadata.New(shape, nil, nil)
	if err != nil {
		return nil, wrap(err, "get_with_shape %s", metadata.FormatShape(shape))
	}
	nt, err := fixedshape.NewTypeWithStorage(typ.StorageType(), nm)
	if err != nil {
		return nil, wrap(err, "get_with_shape %s", metadata.FormatShape(shape))
	}
	out, err := fixedshape.NewArray(nt, arr.Storage())
	if err != nil {
		return nil, wrap(err, "get_with_shape %s", metadata.FormatShape(shape))
	}
	return out, nil
}
