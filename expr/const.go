package expr

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/stride"
)

// Const is a constant operand of an arithmetic operation: a Python-style
// scalar (Int, Float), which takes the tensor's element type as NumPy 2's
// weak scalars do, or a constant tensor with an element type of its own
// (Array, Floats, Ints), which broadcasts against each tensor by NumPy's
// rules and takes part in type promotion. Consts are immutable values.
type Const struct {
	weak  weak      // a scalar: weakInt or weakFloat; weakNone for a tensor
	dt    dtype     // a tensor's element type
	shape []int     // a tensor's shape
	f     []float64 // the values of a float scalar or tensor, row-major
	i     []int64   // the values of an integer scalar or tensor (uint64 as bits)
	typed bool      // a tensor written with its type: float32([...])
	err   error
}

// Int returns the Python integer v: with an integer tensor it takes the
// tensor's type (an error when v is out of its range, as in NumPy 2),
// with a float tensor the float type.
func Int(v int64) Const { return Const{weak: weakInt, i: []int64{v}} }

// Float returns the Python float v: with a float tensor it takes the
// tensor's type, with an integer tensor the result is float64.
func Float(v float64) Const { return Const{weak: weakFloat, f: []float64{v}} }

// Floats returns a float64 constant tensor of the given shape holding
// values in row-major order, as NumPy makes of a nested list of floats
// (`[0.485, 0.456, 0.406]` has shape (3,)). A length that does not match
// the shape makes an expression using it fail Check.
func Floats(shape []int, values ...float64) Const {
	c := Const{dt: dtF64, shape: slices.Clone(shape), f: slices.Clone(values)}
	c.err = c.checkSize(len(values))
	return c
}

// Ints returns an int64 constant tensor, as NumPy makes of a nested list
// of integers.
func Ints(shape []int, values ...int64) Const {
	c := Const{dt: dtI64, shape: slices.Clone(shape), i: slices.Clone(values)}
	c.err = c.checkSize(len(values))
	return c
}

// Number is the constraint of Array's element types: the numeric tensor
// element types.
type Number interface {
	int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64 |
		float16.Num | float32 | float64
}

// Array returns a constant tensor of element type T (printed as
// `float32([...])`), of the given shape with values in row-major order.
func Array[T Number](shape []int, values []T) Const {
	c := Const{dt: dtypeOf(arrow.GetDataType[T]()), shape: slices.Clone(shape), typed: true}
	if c.dt.float() {
		c.f = make([]float64, len(values))
	} else {
		c.i = make([]int64, len(values))
	}
	for k, v := range values {
		switch v := any(v).(type) {
		case float16.Num:
			c.f[k] = float64(v.Float32())
		case float32:
			c.f[k] = float64(v)
		case float64:
			c.f[k] = v
		case uint64:
			c.i[k] = int64(v)
		case int8:
			c.i[k] = int64(v)
		case int16:
			c.i[k] = int64(v)
		case int32:
			c.i[k] = int64(v)
		case int64:
			c.i[k] = v
		case uint8:
			c.i[k] = int64(v)
		case uint16:
			c.i[k] = int64(v)
		case uint32:
			c.i[k] = int64(v)
		}
	}
	c.err = c.checkSize(len(values))
	return c
}

func (c Const) checkSize(n int) error {
	size, err := stride.NumElements(c.shape)
	if err != nil || size != n {
		return errorf("constant of %d values for shape %s", n, metadata.FormatShape(c.shape))
	}
	return nil
}

// scalar reports whether c is a Python scalar.
func (c Const) scalar() bool { return c.weak != weakNone }

// equal reports whether c and d are the same constant, bit for bit.
func (c Const) equal(d Const) bool {
	if c.weak != d.weak || c.dt != d.dt || c.typed != d.typed || !slices.Equal(c.shape, d.shape) || !slices.Equal(c.i, d.i) || len(c.f) != len(d.f) {
		return false
	}
	for k := range c.f {
		if math.Float64bits(c.f[k]) != math.Float64bits(d.f[k]) {
			return false
		}
	}
	return true
}

// value returns element k as a float64 (integers converted).
func (c Const) value(k int) float64 {
	if c.f != nil {
		return c.f[k]
	}
	if c.dt == dtU64 {
		return float64(uint64(c.i[k]))
	}
	return float64(c.i[k])
}

// appendText appends the text of c: `2`, `0.5`, `[1.0, 2.0]`,
// `float32([[1.0, 2.0]])`.
func (c Const) appendText(b []byte) []byte {
	if c.scalar() {
		if c.weak == weakInt {
			return appendInt(b, c.i[0])
		}
		return appendFloat(b, c.f[0], 64)
	}
	if c.typed {
		b = append(append(b, c.dt.String()...), '(')
	}
	switch {
	case c.err != nil:
		// values that do not fill the shape (Check reports it): a flat list
		d := c
		d.shape = []int{len(c.f) + len(c.i)}
		k := 0
		b = d.appendNested(b, 0, &k)
	case len(c.shape) == 0:
		b = c.appendElem(b, 0)
	default:
		k := 0
		b = c.appendNested(b, 0, &k)
	}
	if c.typed {
		b = append(b, ')')
	}
	return b
}

// appendInt appends the text of a Python integer: its digits, or, beyond
// the MaxInt that the text's literals may reach (a folded 7**20), a sum
// of two that folds back to it, `(1189007 * 67108864 + 37765825)`.
func appendInt(b []byte, v int64) []byte {
	if v >= -MaxInt && v <= MaxInt {
		return strconv.AppendInt(b, v, 10)
	}
	const unit = 1 << 26 // hi*unit stays in int64 and hi within MaxInt
	if v > 0 {
		return fmt.Appendf(b, "(%d * %d + %d)", v/unit, unit, v%unit)
	}
	hi, lo := -(v / unit), -(v % unit) // v = -hi*unit - lo
	if v == math.MinInt64 {
		hi, lo = hi-1, unit // -hi*unit alone would overflow
	}
	return fmt.Appendf(b, "(0 - %d * %d - %d)", hi, unit, lo)
}

func (c Const) appendNested(b []byte, axis int, k *int) []byte {
	b = append(b, '[')
	for j := range c.shape[axis] {
		if j > 0 {
			b = append(b, ", "...)
		}
		if axis == len(c.shape)-1 {
			b = c.appendElem(b, *k)
			*k++
		} else {
			b = c.appendNested(b, axis+1, k)
		}
	}
	return append(b, ']')
}

func (c Const) appendElem(b []byte, k int) []byte {
	if c.f != nil {
		bits := 64
		if c.typed && c.dt != dtF64 {
			bits = 32 // the shortest text of the float32 (or float16) value
		}
		return appendFloat(b, c.f[k], bits)
	}
	if c.dt == dtU64 {
		return strconv.AppendUint(b, uint64(c.i[k]), 10)
	}
	return strconv.AppendInt(b, c.i[k], 10)
}

// appendFloat writes v so that it reads back as the same float64 and as
// a float (with a '.' or an exponent); infinities and NaN as NumPy's
// names (`inf`, `-inf`, `nan`, and `-nan` for a NaN with its sign bit
// set, which Python's -nan makes).
func appendFloat(b []byte, v float64, bits int) []byte {
	switch {
	case math.IsNaN(v) && math.Signbit(v):
		return append(b, "-nan"...)
	case math.IsNaN(v):
		return append(b, "nan"...)
	case math.IsInf(v, 1):
		return append(b, "inf"...)
	case math.IsInf(v, -1):
		return append(b, "-inf"...)
	}
	start := len(b)
	b = strconv.AppendFloat(b, v, 'g', -1, bits)
	for _, ch := range b[start:] {
		if ch == '.' || ch == 'e' {
			return b
		}
	}
	return append(b, ".0"...)
}
