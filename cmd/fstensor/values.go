package main

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/fstensor/fstensor/fixedshape"
)

// number is every element type but float16, which converts through
// float32.
type number interface {
	int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64 | float32 | float64
}

func toFloat[T number](v T) float64     { return float64(v) }
func halfToFloat(v float16.Num) float64 { return float64(v.Float32()) }
func tensorValues[T fixedshape.Elem](c *fixedshape.Column[T], i int, f func(T) float64) []float64 {
	t := c.Tensor(i)
	out := make([]float64, 0, t.Size())
	for v := range t.All() {
		out = append(out, f(v))
	}
	return out
}

// logicalValues returns tensor i of a as float64 values in logical
// row-major order.
func logicalValues(a *fixedshape.Array, i int) ([]float64, error) {
	switch a.TensorType().ElemType().ID() {
	case arrow.INT8:
		return valuesAs(a, i, toFloat[int8])
	case arrow.INT16:
		return valuesAs(a, i, toFloat[int16])
	case arrow.INT32:
		return valuesAs(a, i, toFloat[int32])
	case arrow.INT64:
		return valuesAs(a, i, toFloat[int64])
	case arrow.UINT8:
		return valuesAs(a, i, toFloat[uint8])
	case arrow.UINT16:
		return valuesAs(a, i, toFloat[uint16])
	case arrow.UINT32:
		return valuesAs(a, i, toFloat[uint32])
	case arrow.UINT64:
		return valuesAs(a, i, toFloat[uint64])
	case arrow.FLOAT16:
		return valuesAs(a, i, halfToFloat)
	case arrow.FLOAT32:
		return valuesAs(a, i, toFloat[float32])
	case arrow.FLOAT64:
		return valuesAs(a, i, toFloat[float64])
	}
	return nil, fmt.Errorf("unsupported element type %v", a.TensorType().ElemType())
}

func valuesAs[T fixedshape.Elem](a *fixedshape.Array, i int, f func(T) float64) ([]float64, error) {
	c, err := fixedshape.ColumnOf[T](a)
	if err != nil {
		return nil, err
	}
	return tensorValues(c, i, f), nil
}

// stats accumulates per-column statistics over the valid tensors of one or
// more arrays (record batches).
type stats struct {
	Rows  int64   `json:"rows"`
	Nulls int64   `json:"nulls"`
	Bytes int64   `json:"bytes"`
	Min   float64 `json:"min"`
	Max   float64 `json:"max"`
	Mean  float64 `json:"mean"`
	NaN   int64   `json:"nan_count"`
	count int64
	sum   float64
}

func (s *stats) add(a *fixedshape.Array) error {
	t := a.TensorType()
	s.Rows += int64(a.Len())
	s.Nulls += int64(a.NullN())
	s.Bytes += int64(a.Len()) * int64(t.ListSize()) * int64(t.ElemWidth())
	switch t.ElemType().ID() {
	case arrow.INT8:
		return addAs(s, a, toFloat[int8])
	case arrow.INT16:
		return addAs(s, a, toFloat[int16])
	case arrow.INT32:
		return addAs(s, a, toFloat[int32])
	case arrow.INT64:
		return addAs(s, a, toFloat[int64])
	case arrow.UINT8:
		return addAs(s, a, toFloat[uint8])
	case arrow.UINT16:
		return addAs(s, a, toFloat[uint16])
	case arrow.UINT32:
		return addAs(s, a, toFloat[uint32])
	case arrow.UINT64:
		return addAs(s, a, toFloat[uint64])
	case arrow.FLOAT16:
		return addAs(s, a, halfToFloat)
	case arrow.FLOAT32:
		return addAs(s, a, toFloat[float32])
	case arrow.FLOAT64:
		return addAs(s, a, toFloat[float64])
	}
	return fmt.Errorf("unsupported element type %v", t.ElemType())
}

func addAs[T fixedshape.Elem](s *stats, a *fixedshape.Array, f func(T) float64) error {
	c, err := fixedshape.ColumnOf[T](a)
	if err != nil {
		return err
	}
	size := a.TensorType().ListSize()
	vals := c.Values()
	for i := range c.Len() {
		if c.IsNull(i) {
			continue
		}
		for _, v := range vals[i*size : (i+1)*size] {
			x := f(v)
			if math.IsNaN(x) {
				s.NaN++
				continue
			}
			if s.count == 0 || x < s.Min {
				s.Min = x
			}
			if s.count == 0 || x > s.Max {
				s.Max = x
			}
			s.sum += x
			s.count++
		}
	}
	if s.count > 0 {
		s.Mean = s.sum / float64(s.count)
	}
	return nil
}
