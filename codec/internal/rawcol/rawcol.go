// Package rawcol turns the raw little-endian tensor bytes of wire formats
// into fixedshape columns and back: shared by the codecs whose payloads are
// plain element bytes (decthings, tfproto, zio), and the strided copies of
// npy.
package rawcol

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/float16"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/layout"
	"github.com/fstensor/fstensor/internal/unsafeslice"
	"github.com/fstensor/fstensor/stride"
)

// NewArray returns an array of typ over raw, the little-endian physical
// bytes of whole tensors, without nulls. It shares raw when raw is aligned
// for the element type and copies it into a fresh Go slice otherwise.
// Errors wrap arrow.ErrInvalid.
func NewArray(typ *fixedshape.Type, raw []byte) (*fixedshape.Array, error) {
	switch typ.ElemType().ID() {
	case arrow.INT8:
		return fromRaw[int8](typ, raw)
	case arrow.INT16:
		return fromRaw[int16](typ, raw)
	case arrow.INT32:
		return fromRaw[int32](typ, raw)
	case arrow.INT64:
		return fromRaw[int64](typ, raw)
	case arrow.UINT8:
		return fromRaw[uint8](typ, raw)
	case arrow.UINT16:
		return fromRaw[uint16](typ, raw)
	case arrow.UINT32:
		return fromRaw[uint32](typ, raw)
	case arrow.UINT64:
		return fromRaw[uint64](typ, raw)
	case arrow.FLOAT16:
		return fromRaw[float16.Num](typ, raw)
	case arrow.FLOAT32:
		return fromRaw[float32](typ, raw)
	case arrow.FLOAT64:
		return fromRaw[float64](typ, raw)
	}
	return nil, fmt.Errorf("element type %s is not a tensor element type: %w", typ.ElemType(), arrow.ErrInvalid)
}

func fromRaw[T fixedshape.Elem](typ *fixedshape.Type, raw []byte) (*fixedshape.Array, error) {
	data, err := unsafeslice.Cast[T](raw)
	if err != nil {
		w := typ.ElemWidth()
		if len(raw)%w != 0 {
			return nil, fmt.Errorf("%d bytes are not a whole number of %d-byte elements: %w", len(raw), w, arrow.ErrInvalid)
		}
		data = make([]T, len(raw)/w)
		copy(unsafeslice.Bytes(data), raw)
	}
	return fixedshape.FromSlice(typ, data, nil)
}

// Join returns an array of typ over the physical bytes of n tensors,
// data(i) for tensor i, each of typ.ListSize()*typ.ElemWidth() bytes (the
// caller checked the lengths), without nulls: over data(0) itself when n
// is 1 (NewArray shares it when it is aligned), and otherwise over a new
// aligned buffer that holds them back to back. Errors are NewArray's.
func Join(typ *fixedshape.Type, n int, data func(i int) []byte) (*fixedshape.Array, error) {
	if n == 1 {
		return NewArray(typ, data(0))
	}
	size := typ.ListSize() * typ.ElemWidth()
	buf := AlignedBytes(n * size)
	for i := range n {
		copy(buf[i*size:], data(i))
	}
	return NewArray(typ, buf)
}

// AlignedBytes returns n zero bytes aligned for any element type.
func AlignedBytes(n int) []byte {
	return unsafeslice.Bytes(make([]uint64, (n+7)/8))[:n:n]
}

// TensorBytes returns the physical bytes of tensor i of arr, sharing them.
func TensorBytes(arr *fixedshape.Array, i int) []byte {
	typ := arr.TensorType()
	size := typ.ListSize() * typ.ElemWidth()
	return arr.ValueBytes()[i*size : (i+1)*size]
}

// AppendLogical appends tensor i of arr to dst in logical row-major (C)
// order: the physical bytes as they are for an identity layout, a copy
// through the permutation (Gather) otherwise.
func AppendLogical(dst []byte, arr *fixedshape.Array, i int) []byte {
	typ := arr.TensorType()
	src := TensorBytes(arr, i)
	m := typ.Metadata()
	if !m.HasPermutation() || stride.IsIdentity(m.Permutation()) {
		return append(dst, src...)
	}
	start := len(dst)
	dst = append(dst, make([]byte, len(src))...)
	Gather(dst[start:], src, typ.ElemWidth(), m.Shape(), m.ElemStrides(), 0)
	return dst
}

// Gather copies the view of src given by shape, element strides (of any
// sign) and element offset, for elements of w bytes, to dst in row-major
// order of shape, with the kernels of internal/layout (contiguous runs,
// blocked transposes, strided gathers). It panics, as slice indexing
// does, when the view reaches outside src or dst is shorter than the view:
// callers pass the layout of a validated type.
func Gather(dst, src []byte, w int, shape, strides []int, offset int) {
	p, err := layout.NewPlan(w, shape, strides, offset)
	if err != nil {
		panic("rawcol: " + err.Error())
	}
	p.Run(dst, src, 1, 0, 1)
}

// COrder returns tensor i of arr in logical row-major (C) order: the
// column's own bytes, shared, when its layout is row-major, and a copy
// otherwise.
func COrder(arr *fixedshape.Array, i int) []byte {
	m := arr.TensorType().Metadata()
	if m.HasPermutation() && !stride.IsIdentity(m.Permutation()) {
		return AppendLogical(nil, arr, i)
	}
	return TensorBytes(arr, i)
}
