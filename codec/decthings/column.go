package decthings

import (
	"slices"

	"github.com/fstensor/fstensor/codec/internal/rawcol"
	"github.com/fstensor/fstensor/codec/internal/readopt"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

// NewColumn returns the tensors ts as one fixedshape column. They must all
// have the same numeric type and shape; the column's tensor type has that
// shape, no names and no permutation (Decthings tensors are row-major).
// A single tensor whose data is aligned for its element type is wrapped
// without copying (the column then shares t.Data); otherwise the elements
// are copied into one new Go-owned buffer.
//
// Errors wrap arrow.ErrInvalid: no tensors, differing types or shapes,
// element data of the wrong length, a Boolean byte other than 0 or 1.
// Boolean tensors become bool columns, their bytes packed into bits
// (always a copy). String, Binary and media tensors have no fixedshape
// element type and are refused with an error that
// also wraps arrow.ErrNotImplemented: read them through Tensor. A shape with
// a 0 dimension is refused as fixedshape.NewType refuses it.
func NewColumn(ts []Tensor) (*fixedshape.Array, error) {
	if len(ts) == 0 {
		return nil, errorf("column: no tensors")
	}
	first := &ts[0]
	dt, ok := first.Type.ArrowType()
	if !ok {
		return nil, unsupported("column: %s tensors have no fixed-shape element type; read them as Tensor values", first.Type)
	}
	m, err := metadata.New(first.Shape, nil, nil)
	if err != nil {
		return nil, wrap(err, "column: shape %s", metadata.FormatShape(first.Shape))
	}
	typ, err := fixedshape.NewType(dt, m)
	if err != nil {
		return nil, wrap(err, "column: shape %s", metadata.FormatShape(first.Shape))
	}
	size := typ.ListSize() * first.Type.Width()
	for i := range ts {
		t := &ts[i]
		if t.Type != first.Type || !slices.Equal(t.Shape, first.Shape) {
			return nil, errorf("column: tensor %d is %s %s, tensor 0 is %s %s", i, t.Type, metadata.FormatShape(t.Shape), first.Type, metadata.FormatShape(first.Shape))
		}
		if len(t.Data) != size {
			return nil, errorf("column: tensor %d has %d data bytes, its shape needs %d", i, len(t.Data), size)
		}
	}
	if first.Type == Boolean {
		return boolColumn(typ, ts)
	}
	arr, err := rawcol.Join(typ, len(ts), func(i int) []byte { return ts[i].Data })
	if err != nil {
		return nil, wrap(err, "column")
	}
	return arr, nil
}

// ReadColumn decodes the concatenated tensors of b (DecodeAll) into one
// column (NewColumn). Errors are theirs, and a count of tensors other
// than [WithExpectedCount]'s. Options: [WithExpectedCount].
func ReadColumn(b []byte, opts ...ReadOption) (*fixedshape.Array, error) {
	c, err := readopt.Apply(opts)
	if err != nil {
		return nil, err
	}
	ts, err := DecodeAll(b, 0)
	if err != nil {
		return nil, err
	}
	if err := c.CheckCount(len(ts), errorf); err != nil {
		return nil, err
	}
	return NewColumn(ts)
}

// TensorOf returns tensor i of arr as a Decthings tensor. Its data shares the
// column's memory when the layout is row-major and is an explicit copy in C
// order otherwise (a permutation other than the identity). Dimension names
// are not carried: the format has none.
//
// Errors wrap arrow.ErrInvalid: an array failing Validate, a null tensor
// (the format has no nulls), an element type with no Decthings type
// (float16). It panics if i is out of range.
func TensorOf(arr *fixedshape.Array, i int) (Tensor, error) {
	if i < 0 || i >= arr.Len() {
		panic("decthings: tensor index out of range")
	}
	typ := arr.TensorType()
	dt, ok := TypeOf(typ.ElemType())
	if !ok {
		return Tensor{}, unsupported("element type %s has no Decthings type", typ.ElemType())
	}
	if err := arr.Validate(); err != nil {
		return Tensor{}, wrap(err, "column")
	}
	if arr.IsNull(i) {
		return Tensor{}, nullTensor("tensor %d is null; the format has no null tensors", i)
	}
	t := Tensor{Type: dt, Shape: typ.Shape()}
	if dt == Boolean {
		t.Data = rawcol.BoolBytes(arr, i)
	} else {
		t.Data = rawcol.COrder(arr, i)
	}
	return t, nil
}

// AppendColumn appends every tensor of arr to dst, one serialized tensor
// after another (the form ReadColumn reads), in C order: a permuted layout is
// copied through its permutation. Errors are those of TensorOf; dst is
// returned unchanged on error.
func AppendColumn(dst []byte, arr *fixedshape.Array) ([]byte, error) {
	start := len(dst)
	for i := range arr.Len() {
		t, err := TensorOf(arr, i)
		if err != nil {
			return dst[:start], err
		}
		if dst, err = AppendTensor(dst, &t); err != nil {
			return dst[:start], err
		}
	}
	return dst, nil
}
