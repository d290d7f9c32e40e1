package tfproto

import (
	"encoding/binary"
	"slices"

	"github.com/fstensor/fstensor/codec/internal/rawcol"
	"github.com/fstensor/fstensor/codec/internal/readopt"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

// NewColumn returns the tensors ts as one fixedshape column. They must share
// dtype, shape and dim names; the column's type has that shape, those names
// (when any dimension is named; an unnamed one becomes "") and no
// permutation, TensorProto being C order only. A single tensor whose content
// is aligned for its element type is wrapped without copying (the column
// shares t.Content); otherwise the elements are copied into one Go-owned
// buffer. DT_BFLOAT16 becomes a float32 column, each value widened exactly;
// DT_BOOL a bool column, its bytes packed into bits (always a copy).
//
// Errors wrap arrow.ErrInvalid: no tensors, differing dtypes, shapes or
// names, content of the wrong length, a DT_BOOL byte other than 0 or 1.
// DT_STRING has no fixedshape element type and is refused with an error
// that also wraps arrow.ErrNotImplemented, as is a shape with a 0
// dimension (see fixedshape.NewType).
func NewColumn(ts []Tensor) (*fixedshape.Array, error) {
	if len(ts) == 0 {
		return nil, errorf("column: no tensors")
	}
	first := &ts[0]
	dt, ok := first.DType.ArrowType()
	if !ok {
		return nil, unsupported("column: %s tensors have no fixed-shape element type; read them as Tensor values", first.DType)
	}
	m, err := metadata.New(first.Shape, first.DimNames, nil)
	if err != nil {
		return nil, wrap(err, "column: shape %s", metadata.FormatShape(first.Shape))
	}
	typ, err := fixedshape.NewType(dt, m)
	if err != nil {
		return nil, wrap(err, "column: shape %s", metadata.FormatShape(first.Shape))
	}
	size := typ.ListSize() * first.DType.Width()
	for i := range ts {
		t := &ts[i]
		if t.DType != first.DType || !slices.Equal(t.Shape, first.Shape) || !slices.Equal(t.DimNames, first.DimNames) {
			return nil, errorf("column: tensor %d is %s %s names %q, tensor 0 is %s %s names %q", i, t.DType, metadata.FormatShape(t.Shape), t.DimNames, first.DType, metadata.FormatShape(first.Shape), first.DimNames)
		}
		if len(t.Content) != size {
			return nil, errorf("column: tensor %d has %d content bytes, its shape needs %d", i, len(t.Content), size)
		}
	}
	if first.DType == Bool {
		return boolColumn(typ, ts)
	}
	if first.DType == BFloat16 {
		buf := rawcol.AlignedBytes(len(ts) * size * 2)
		for i := range ts {
			for k := 0; k < len(ts[i].Content); k += 2 {
				bits := uint32(binary.LittleEndian.Uint16(ts[i].Content[k:])) << 16
				binary.LittleEndian.PutUint32(buf[(i*size+k)*2:], bits)
			}
		}
		return newArray(typ, buf)
	}
	arr, err := rawcol.Join(typ, len(ts), func(i int) []byte { return ts[i].Content })
	if err != nil {
		return nil, wrap(err, "column")
	}
	return arr, nil
}

// ReadColumn decodes each message of msgs (Decode) and returns them as one
// column (NewColumn). Errors are theirs, naming the message, and a count
// of messages other than [WithExpectedCount]'s.
func ReadColumn(msgs [][]byte, opts ...ReadOption) (*fixedshape.Array, error) {
	c, err := readopt.Apply(opts)
	if err != nil {
		return nil, err
	}
	if err := c.CheckCount(len(msgs), errorf); err != nil {
		return nil, err
	}
	ts := make([]Tensor, len(msgs))
	for i, b := range msgs {
		var err error
		if ts[i], err = Decode(b); err != nil {
			return nil, wrap(err, "message %d", i)
		}
	}
	return NewColumn(ts)
}

// TensorOf returns tensor i of arr as a TensorProto tensor with the logical
// shape and dim names. Its content shares the column's memory when the layout
// is row-major and is an explicit copy in C order otherwise (TensorProto has
// no strides or permutation); a bool tensor's content is always a copy, one
// byte 0 or 1 per element.
//
// Errors wrap arrow.ErrInvalid: an array failing Validate, a null tensor
// (TensorProto has no nulls). It panics if i is out of range.
func TensorOf(arr *fixedshape.Array, i int) (Tensor, error) {
	if i < 0 || i >= arr.Len() {
		panic("tfproto: tensor index out of range")
	}
	typ := arr.TensorType()
	dt, ok := DataTypeOf(typ.ElemType())
	if !ok {
		return Tensor{}, unsupported("element type %s has no TensorFlow dtype", typ.ElemType())
	}
	if err := arr.Validate(); err != nil {
		return Tensor{}, wrap(err, "column")
	}
	if arr.IsNull(i) {
		return Tensor{}, nullTensor("tensor %d is null; TensorProto has no null tensors", i)
	}
	t := Tensor{DType: dt, Shape: typ.Shape(), DimNames: typ.DimNames()}
	if dt == Bool {
		t.Content = rawcol.BoolBytes(arr, i)
	} else {
		t.Content = rawcol.COrder(arr, i)
	}
	return t, nil
}

// AppendColumn appends one serialized TensorProto per tensor of arr to dst
// and returns the extended slice (see TensorOf and AppendTensor). dst is
// returned unchanged on error.
func AppendColumn(dst [][]byte, arr *fixedshape.Array) ([][]byte, error) {
	start := len(dst)
	for i := range arr.Len() {
		t, err := TensorOf(arr, i)
		if err != nil {
			return dst[:start], err
		}
		b, err := AppendTensor(nil, &t)
		if err != nil {
			return dst[:start], err
		}
		dst = append(dst, b)
	}
	return dst, nil
}
