package fixedshape

import (
	"bytes"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/stride"
)

// Equal reports logical value equality: a and b have the same length,
// element type and logical shape, nulls at the same positions, and at every
// logical index of every valid tensor the same element, whatever the two
// permutations (physical layouts) and dimension names. Elements are
// compared by their bits: a NaN equals a NaN with the same bits, 0 and -0
// differ. Arrays that fail [Array.Validate] are not equal to anything.
func Equal(a, b *Array) bool {
	ta, tb := a.TensorType(), b.TensorType()
	if a.Len() != b.Len() || !arrow.TypeEqual(ta.ElemType(), tb.ElemType()) ||
		!slices.Equal(ta.Shape(), tb.Shape()) || a.NullN() != b.NullN() {
		return false
	}
	if a.Validate() != nil || b.Validate() != nil {
		return false
	}
	switch ta.ElemWidth() {
	case 0:
		return equalBool(a, b)
	case 1:
		return equalAs[uint8](a, b)
	case 2:
		return equalAs[uint16](a, b)
	case 4:
		return equalAs[uint32](a, b)
	case 8:
		return equalAs[uint64](a, b)
	default:
		return equalRaw(a, b, ta.ElemWidth())
	}
}

// equalRaw compares elements of w bytes (decimals, intervals, fixed-size
// binaries) byte for byte.
func equalRaw(a, b *Array, w int) bool {
	ta, tb := a.TensorType(), b.TensorType()
	sa, sb := ta.ElemStrides(), tb.ElemStrides()
	shape := ta.Shape()
	n := ta.ListSize() * w
	va, vb := a.ValueBytes(), b.ValueBytes()
	sameLayout := slices.Equal(sa, sb)
	for i := range a.Len() {
		if a.IsNull(i) != b.IsNull(i) {
			return false
		}
		if a.IsNull(i) {
			continue
		}
		x, y := va[i*n:(i+1)*n], vb[i*n:(i+1)*n]
		if sameLayout {
			if !bytes.Equal(x, y) {
				return false
			}
			continue
		}
		for p, q := range stride.Pairs(shape, sa, sb) {
			if !bytes.Equal(x[p*w:(p+1)*w], y[q*w:(q+1)*w]) {
				return false
			}
		}
	}
	return true
}

func equalAs[U uint8 | uint16 | uint32 | uint64](a, b *Array) bool {
	ca, errA := columnAs[U](a)
	cb, errB := columnAs[U](b)
	if errA != nil || errB != nil {
		return false
	}
	sameLayout := slices.Equal(ca.strides, cb.strides)
	for i := range a.Len() {
		if a.IsNull(i) != b.IsNull(i) {
			return false
		}
		if a.IsNull(i) {
			continue
		}
		x, y := ca.Tensor(i), cb.Tensor(i)
		if sameLayout {
			if !slices.Equal(x.data, y.data) {
				return false
			}
			continue
		}
		for p, q := range stride.Pairs(x.shape, x.strides, y.strides) {
			if x.data[p] != y.data[q] {
				return false
			}
		}
	}
	return true
}
