package engine

import (
	"fmt"
	"math"

	"github.com/fstensor/fstensor/internal/half"
	"github.com/fstensor/fstensor/internal/unsafeslice"
)

var dtypeNames = [...]string{
	Invalid: "invalid", Bool: "bool", Int8: "int8", Int16: "int16", Int32: "int32", Int64: "int64",
	Uint8: "uint8", Uint16: "uint16", Uint32: "uint32", Uint64: "uint64",
	Float16: "float16", Float32: "float32", Float64: "float64",
}

// String returns NumPy's name of the type ("float32").
func (d DType) String() string {
	if int(d) < len(dtypeNames) {
		return dtypeNames[d]
	}
	return fmt.Sprintf("DType(%d)", uint8(d))
}

// Width returns the bytes of one element in the engine's buffers (Bool:
// 1), 0 for an invalid type.
func (d DType) Width() int {
	switch d {
	case Bool, Int8, Uint8:
		return 1
	case Int16, Uint16, Float16:
		return 2
	case Int32, Uint32, Float32:
		return 4
	case Int64, Uint64, Float64:
		return 8
	}
	return 0
}

func (d DType) valid() bool    { return d >= Bool && d <= Float64 }
func (d DType) isFloat() bool  { return d >= Float16 && d <= Float64 }
func (d DType) isSigned() bool { return d >= Int8 && d <= Int64 }
func (d DType) isInt() bool    { return d >= Int8 && d <= Uint64 }

// number is the Go types of the engine's buffers (Bool as uint8, Float16
// as float32 while computing).
type number interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~float32 | ~float64
}

type float interface{ ~float32 | ~float64 }

// as returns b as a slice of T; b is one of the engine's aligned buffers
// or a checked column, so a failure is a broken invariant.
func as[T any](b []byte) []T {
	s, err := unsafeslice.Cast[T](b)
	if err != nil {
		panic("engine: " + err.Error())
	}
	return s
}

func isFloatT[T number]() bool {
	switch any(T(0)).(type) {
	case float32, float64:
		return true
	}
	return false
}

func isF32[T number]() bool {
	_, ok := any(T(0)).(float32)
	return ok
}

// sat holds the range of integer type T for float conversions.
type sat[T number] struct {
	lo, hi float64 // T's smallest value; 2^bits (2^(bits-1) signed)
	max    T
}

func satOf[T number]() sat[T] {
	var v any
	var lo, hi float64
	switch any(T(0)).(type) {
	case int8:
		v, lo, hi = int8(math.MaxInt8), math.MinInt8, 1<<7
	case int16:
		v, lo, hi = int16(math.MaxInt16), math.MinInt16, 1<<15
	case int32:
		v, lo, hi = int32(math.MaxInt32), math.MinInt32, 1<<31
	case int64:
		v, lo, hi = int64(math.MaxInt64), math.MinInt64, 1<<63
	case uint8:
		v, hi = uint8(math.MaxUint8), 1<<8
	case uint16:
		v, hi = uint16(math.MaxUint16), 1<<16
	case uint32:
		v, hi = uint32(math.MaxUint32), 1<<32
	case uint64:
		v, hi = uint64(math.MaxUint64), 1<<64
	default:
		return sat[T]{lo: math.Inf(-1), hi: math.Inf(1)}
	}
	return sat[T]{lo: lo, hi: hi, max: v.(T)}
}

// conv converts a float to integer type T as Cast does: toward zero, NaN
// to 0, saturating at T's range.
func (s sat[T]) conv(v float64) T {
	switch {
	case v != v:
		return 0
	case v <= s.lo:
		return T(s.lo)
	case v >= s.hi:
		return s.max
	}
	return T(v)
}

// f16to32 widens float16 bits to float32 (exact).
func f16to32(dst []float32, src []uint16) {
	for i, h := range src[:len(dst)] {
		dst[i] = float32(half.ToFloat64(h))
	}
}

// f32to16 narrows float32 values to float16 bits, rounding to nearest
// even.
func f32to16(dst []uint16, src []float32) {
	for i, v := range src[:len(dst)] {
		dst[i] = half.FromFloat64(float64(v))
	}
}
