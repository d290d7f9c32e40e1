package main

import (
	"fmt"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/float16"

	"github.com/fstensor/fstensor/codec/npy"
	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
)

// maxLoadBytes bounds the data of one constant of load("W.npy").
const maxLoadBytes = 256 << 20

// loadNPY reads the constant of load(name) in an expression: the .npy
// file name (relative to the working directory), one array of any shape
// and numeric type, of at most maxLoadBytes of data. Its errors wrap
// arrow.ErrInvalid.
func loadNPY(name string) (expr.Const, error) {
	f, err := os.Open(name)
	if err != nil {
		return expr.Const{}, fmt.Errorf("%w: %w", arrow.ErrInvalid, err)
	}
	defer f.Close()
	a, err := npy.ReadTensor(f, npy.WithAllocator(mem), npy.WithMaxDataSize(maxLoadBytes))
	if err != nil {
		return expr.Const{}, fmt.Errorf("%w: %w", arrow.ErrInvalid, err)
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
	return expr.Const{}, fmt.Errorf("%w: %s holds %v elements, not numbers", arrow.ErrInvalid, name, a.TensorType().ElemType())
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
