package npy

import (
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/float16"

	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
)

// ReadConst reads one .npy array of any shape and numeric element type
// from r, as ReadTensor does, and returns it as a constant of package expr
// (expr.Array, in logical order), for expressions that load it
// (expr.WithLoad). Options are ReadTensor's: WithMaxDataSize bounds the
// array's data. Errors are ReadTensor's; an array of booleans is an error
// wrapping arrow.ErrInvalid.
func ReadConst(r io.Reader, opts ...ReadOption) (expr.Const, error) {
	a, err := ReadTensor(r, opts...)
	if err != nil {
		return expr.Const{}, err
	}
	defer a.Release()
	switch a.TensorType().ElemType().ID() {
	case arrow.INT8:
		return constOf[int8](a)
	case arrow.INT16:
		return constOf[int16](a)
	case arrow.INT32:
		return constOf[int32](a)
	case arrow.INT64:
		return constOf[int64](a)
	case arrow.UINT8:
		return constOf[uint8](a)
	case arrow.UINT16:
		return constOf[uint16](a)
	case arrow.UINT32:
		return constOf[uint32](a)
	case arrow.UINT64:
		return constOf[uint64](a)
	case arrow.FLOAT16:
		return constOf[float16.Num](a)
	case arrow.FLOAT32:
		return constOf[float32](a)
	case arrow.FLOAT64:
		return constOf[float64](a)
	}
	return expr.Const{}, fmt.Errorf("npy: an array of %v elements is not a numeric constant: %w", a.TensorType().ElemType(), arrow.ErrInvalid)
}

// constOf returns the one tensor of a as a constant, in logical order.
func constOf[T fixedshape.Elem](a *fixedshape.Array) (expr.Const, error) {
	c, err := fixedshape.ColumnOf[T](a)
	if err != nil {
		return expr.Const{}, err
	}
	t := c.Tensor(0)
	return expr.Array(t.Shape(), t.AppendLogical(nil)), nil
}
