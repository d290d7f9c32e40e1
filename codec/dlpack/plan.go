package dlpack

import (
	"github.com/fstensor/fstensor/codec/dlpack/internal/dltype"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/stride"
)

// Layout is a DLTensor's description without its data pointer: what the
// importer validates. Shape and Strides are in elements; nil Strides
// means compact row-major. Its fields:
//
//	Device     Device
//	DataType   DataType
//	Shape      []int64
//	Strides    []int64
//	ByteOffset uint64 // bytes from the data pointer to element 0
type Layout = dltype.Layout

// Plan says how a [Layout] becomes a column.
type Plan struct {
	// Type is the tensor type of the column.
	Type *fixedshape.Type
	// Len is the number of tensors.
	Len int
	// Copy is true when the strides are not a dense permutation: the
	// elements must be gathered into a new row-major buffer.
	Copy bool
	// Shape and Strides are the source shape and element strides, as
	// ints, to gather with when Copy is true (the whole tensor, batch
	// axis included for a column).
	Shape, Strides []int
	// Lo and Hi bound the element offsets the source is read at,
	// relative to the data pointer plus ByteOffset: [Lo, Hi) (Lo < 0
	// only with negative strides). Hi == Lo when there are no elements.
	Lo, Hi int
}

// PlanImport validates l and says how to import it: as a column whose
// axis 0 is the batch axis when column is true (a 0-D tensor is then an
// error), else as one tensor (a column of length 1). Zero-copy needs
// NULL strides or strides that are a dense permutation of the shape (for
// a column, with the batch axis outermost); otherwise Plan.Copy is set
// when allowCopy is true and an error is returned when it is false.
// Strides of a tensor without elements are ignored: it imports as
// row-major, without copying.
// Errors wrap arrow.ErrInvalid: a device other than CPU, lanes != 1, a
// type that is not an fstensor element type, negative dimensions, more
// than metadata.MaxDims dimensions, strides of the wrong length, sizes
// that overflow int, a size-0 tensor shape (also
// arrow.ErrNotImplemented), and non-dense strides without allowCopy.
func PlanImport(l Layout, column, allowCopy bool) (Plan, error) {
	var p Plan
	if l.Device.Type != CPU {
		return p, errorf("device type %d is not CPU (%d)", l.Device.Type, CPU)
	}
	elem, err := l.DataType.ArrowType()
	if err != nil {
		return p, err
	}
	width := int(l.DataType.Bits / 8)
	if len(l.Shape) > metadata.MaxDims+1 {
		return p, errorf("%d dimensions, more than %d", len(l.Shape), metadata.MaxDims)
	}
	if l.Strides != nil && len(l.Strides) != len(l.Shape) {
		return p, errorf("%d strides for %d dimensions", len(l.Strides), len(l.Shape))
	}
	shape := make([]int, len(l.Shape))
	for i, d := range l.Shape {
		if d < 0 || int64(int(d)) != d {
			return p, errorf("shape[%d] = %d is not a valid dimension", i, d)
		}
		shape[i] = int(d)
	}
	n, err := stride.NumElements(shape)
	if err != nil {
		return p, errorf("shape %s: %v", metadata.FormatShape(shape), err)
	}
	if _, ok := stride.MulCheck(n, width); !ok {
		return p, errorf("shape %s of %d-byte elements overflows int", metadata.FormatShape(shape), width)
	}
	if l.ByteOffset > uint64(maxInt) || int(l.ByteOffset)%width != 0 {
		return p, errorf("byte_offset %d is not a whole number of %d-byte elements", l.ByteOffset, width)
	}
	var strides []int
	if l.Strides == nil {
		strides = stride.RowMajor(nil, shape)
	} else {
		strides = make([]int, len(shape))
		for i, s := range l.Strides {
			if int64(int(s)) != s {
				return p, errorf("strides[%d] = %d overflows int", i, s)
			}
			strides[i] = int(s)
		}
	}
	p.Shape, p.Strides = shape, strides
	if p.Lo, p.Hi, err = span(shape, strides); err != nil {
		return p, err
	}

	tshape, tstrides := shape, strides
	p.Len = 1
	if column {
		if len(shape) == 0 {
			return p, errorf("a 0-D tensor has no batch axis; import it as one tensor")
		}
		p.Len, tshape, tstrides = shape[0], shape[1:], strides[1:]
	}
	size, _ := stride.NumElements(tshape)
	perm, dense := stride.Dense(tshape, tstrides)
	if column && p.Len > 1 && strides[0] != size {
		dense = false
	}
	if !dense && n == 0 {
		// No element is ever read, so the strides say nothing: NumPy
		// exports empty arrays with all-zero strides.
		perm, dense = nil, true
	}
	if !dense {
		if !allowCopy {
			return p, errorf("strides %v of shape %s are not a dense permutation (copy not allowed)", strides, metadata.FormatShape(shape))
		}
		p.Copy, perm = true, nil
	}
	if stride.IsIdentity(perm) {
		perm = nil
	}
	m, err := metadata.New(tshape, nil, perm)
	if err != nil {
		return p, errorf("shape %s: %v", metadata.FormatShape(tshape), err)
	}
	if p.Type, err = fixedshape.NewType(elem, m); err != nil {
		return p, wrapf(err, "shape %s", metadata.FormatShape(tshape))
	}
	return p, nil
}

// span returns the lowest and one past the highest element offset of
// shape under strides, overflow-checked.
func span(shape, strides []int) (lo, hi int, err error) {
	for _, d := range shape {
		if d == 0 {
			return 0, 0, nil
		}
	}
	for i, d := range shape {
		ext, ok := stride.MulCheck(d-1, abs(strides[i]))
		if !ok {
			return 0, 0, errorf("strides %v of shape %v overflow int", strides, shape)
		}
		if strides[i] < 0 {
			if lo < -maxInt+ext {
				return 0, 0, errorf("strides %v of shape %v overflow int", strides, shape)
			}
			lo -= ext
		} else {
			if hi > maxInt-ext-1 {
				return 0, 0, errorf("strides %v of shape %v overflow int", strides, shape)
			}
			hi += ext
		}
	}
	return lo, hi + 1, nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

const maxInt = int(^uint(0) >> 1)

// ExportLayout returns the DLPack shape and element strides of a column
// of n tensors of typ when column is true ((N+1)-D, batch axis first with
// stride ListSize), else of one tensor: shape = logical shape, strides =
// logical element strides (design section 1), so every permutation is
// exported without copying.
func ExportLayout(typ *fixedshape.Type, n int, column bool) (shape, strides []int64) {
	ls, es := typ.Shape(), typ.ElemStrides()
	if column {
		shape = append(shape, int64(n))
		strides = append(strides, int64(typ.ListSize()))
	}
	for i := range ls {
		shape = append(shape, int64(ls[i]))
		strides = append(strides, int64(es[i]))
	}
	return shape, strides
}
