package main

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/float16"

	"github.com/fstensor/fstensor/fixedshape"
)

// floatColumn reads the tensors of a column as float64 values.
type floatColumn interface {
	// appendPhysical appends tensor i's elements in storage order.
	appendPhysical(dst []float64, i int) []float64
	// appendLogical appends tensor i's elements in logical row-major order.
	appendLogical(dst []float64, i int) []float64
}

type floatCol[T fixedshape.Elem] struct {
	c *fixedshape.Column[T]
	f func(T) float64
}

func (fc floatCol[T]) appendPhysical(dst []float64, i int) []float64 {
	for _, v := range fc.c.Tensor(i).PhysicalData() {
		dst = append(dst, fc.f(v))
	}
	return dst
}

func (fc floatCol[T]) appendLogical(dst []float64, i int) []float64 {
	for v := range fc.c.Tensor(i).All() {
		dst = append(dst, fc.f(v))
	}
	return dst
}

func newFloatCol[T fixedshape.Elem](a *fixedshape.Array, f func(T) float64) (floatColumn, error) {
	c, err := fixedshape.ColumnOf[T](a)
	if err != nil {
		return nil, err
	}
	return floatCol[T]{c, f}, nil
}

// number is every element type but float16, which converts through
// float32.
type number interface {
	int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64 | float32 | float64
}

func toFloat[T number](v T) float64     { return float64(v) }
func halfToFloat(v float16.Num) float64 { return float64(v.Float32()) }

// floatsOf returns the float64 reader of a column, for every element type.
func floatsOf(a *fixedshape.Array) (floatColumn, error) {
	switch a.TensorType().ElemType().ID() {
	case arrow.INT8:
		return newFloatCol(a, toFloat[int8])
	case arrow.INT16:
		return newFloatCol(a, toFloat[int16])
	case arrow.INT32:
		return newFloatCol(a, toFloat[int32])
	case arrow.INT64:
		return newFloatCol(a, toFloat[int64])
	case arrow.UINT8:
		return newFloatCol(a, toFloat[uint8])
	case arrow.UINT16:
		return newFloatCol(a, toFloat[uint16])
	case arrow.UINT32:
		return newFloatCol(a, toFloat[uint32])
	case arrow.UINT64:
		return newFloatCol(a, toFloat[uint64])
	case arrow.FLOAT16:
		return newFloatCol(a, halfToFloat)
	case arrow.FLOAT32:
		return newFloatCol(a, toFloat[float32])
	case arrow.FLOAT64:
		return newFloatCol(a, toFloat[float64])
	}
	return nil, fmt.Errorf("unsupported element type %v: %w", a.TensorType().ElemType(), arrow.ErrNotImplemented)
}

// logicalValues returns tensor i of a as float64 values in logical
// row-major order.
func logicalValues(a *fixedshape.Array, i int) ([]float64, error) {
	fc, err := floatsOf(a)
	if err != nil {
		return nil, err
	}
	return fc.appendLogical(nil, i), nil
}

// stats accumulates per-column statistics over the valid tensors of one or
// more arrays (record batches).
type stats struct {
	Rows  int64     `json:"rows"`
	Nulls int64     `json:"nulls"`
	Bytes int64     `json:"bytes"`
	Min   jsonFloat `json:"min"`
	Max   jsonFloat `json:"max"`
	Mean  jsonFloat `json:"mean"`
	NaN   int64     `json:"nan_count"`
	True  *int64    `json:"true_count,omitempty"` // bool elements of valid tensors that are true
	count int64
	sum   float64
}

func (s *stats) add(a *fixedshape.Array) error {
	t := a.TensorType()
	if fixedshape.BitElem(t.ElemType()) {
		s.Rows += int64(a.Len())
		s.Nulls += int64(a.NullN())
		s.Bytes += (int64(a.Len())*int64(t.ListSize()) + 7) / 8
		if s.True == nil {
			s.True = new(int64)
		}
		bits, first := a.ValueBits()
		for i := range a.Len() {
			if a.IsValid(i) {
				*s.True += int64(bitutil.CountSetBits(bits, first+i*t.ListSize(), t.ListSize()))
			}
		}
		return nil
	}
	if !fixedshape.ElemNumeric(t.ElemType()) {
		// Decimals, timestamps, intervals, fixed-size binaries: counts only.
		s.Rows += int64(a.Len())
		s.Nulls += int64(a.NullN())
		s.Bytes += int64(a.Len()) * int64(t.ListSize()) * int64(t.ElemWidth())
		return nil
	}
	fc, err := floatsOf(a)
	if err != nil {
		return err
	}
	s.Rows += int64(a.Len())
	s.Nulls += int64(a.NullN())
	s.Bytes += int64(a.Len()) * int64(t.ListSize()) * int64(t.ElemWidth())
	buf := make([]float64, 0, t.ListSize())
	for i := range a.Len() {
		if a.IsNull(i) {
			continue
		}
		buf = fc.appendPhysical(buf[:0], i)
		for _, x := range buf {
			if math.IsNaN(x) {
				s.NaN++
				continue
			}
			if s.count == 0 || x < float64(s.Min) {
				s.Min = jsonFloat(x)
			}
			if s.count == 0 || x > float64(s.Max) {
				s.Max = jsonFloat(x)
			}
			s.sum += x
			s.count++
		}
	}
	if s.count > 0 {
		s.Mean = jsonFloat(s.sum / float64(s.count))
	}
	return nil
}

// jsonFloat is a float64 that JSON encodes as a number when finite and
// as the string "NaN", "+Inf" or "-Inf" otherwise (JSON has no such
// numbers; strconv.ParseFloat reads the strings back).
type jsonFloat float64

// MarshalJSON implements json.Marshaler.
func (f jsonFloat) MarshalJSON() ([]byte, error) {
	v := float64(f)
	switch {
	case math.IsNaN(v):
		return []byte(`"NaN"`), nil
	case math.IsInf(v, 1):
		return []byte(`"+Inf"`), nil
	case math.IsInf(v, -1):
		return []byte(`"-Inf"`), nil
	}
	return json.Marshal(v)
}

// UnmarshalJSON implements json.Unmarshaler, for both encodings.
func (f *jsonFloat) UnmarshalJSON(b []byte) error {
	var v float64
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		x, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return err
		}
		*f = jsonFloat(x)
		return nil
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*f = jsonFloat(v)
	return nil
}
