package engine

import (
	"math"

	"github.com/fstensor/fstensor/internal/numeric"
)

// This file enters the typed loops of the element-wise nodes through one
// switch on the element type each. Float16 never reaches them: eval
// widens it to float32.

func binInt[T integer](ws *workspace, fn Fn, d, a, b []byte) bool {
	ok := true
	if c, found := cmps[fn]; found {
		walk2(ws, as[uint8](d), as[T](a), as[T](b), func(d []uint8, x, y []T) { numeric.Compare(c, d, x, y) })
		return true
	}
	if op, found := u8Ops[fn]; found {
		// AVX2 for 8-, 16- and 32-bit integers (wrapping as NumPy's)
		walk2(ws, as[T](d), as[T](a), as[T](b), func(d, x, y []T) { numeric.BinaryInt(op, d, x, y) })
		return true
	}
	walk2(ws, as[T](d), as[T](a), as[T](b), func(d, x, y []T) {
		if !binaryI(fn, d, x, y) {
			ok = false
		}
	})
	return ok
}

func binFloat[T float](ws *workspace, fn Fn, d, a, b []byte) {
	if ops, ok := f32Ops[fn]; ok && isF32[T]() {
		walkF32(ws, ops[0], ops[1], as[float32](d), as[float32](a), as[float32](b))
		return
	}
	if op, ok := boundOps[fn]; ok && isF32[T]() && len(b) == 4 && !math.IsNaN(float64(as[float32](b)[0])) {
		// A bound that is one number (clip): numeric's Max and Min
		// keep a NaN of the other operand, as NumPy's maximum does.
		walkF32(ws, op, op, as[float32](d), as[float32](a), as[float32](b))
		return
	}
	if c, ok := cmps[fn]; ok {
		walk2(ws, as[uint8](d), as[T](a), as[T](b), func(d []uint8, x, y []T) { numeric.Compare(c, d, x, y) })
		return
	}
	walk2(ws, as[T](d), as[T](a), as[T](b), func(d, x, y []T) { binaryF(fn, d, x, y) })
}

// binaryOf evaluates a Binary node's kernel over the walk set up in ws for
// operands of type dt; false when an integer Pow met a negative
// exponent.
func binaryOf(ws *workspace, fn Fn, dt DType, d, a, b []byte) bool {
	switch dt {
	case Bool, Uint8:
		return binInt[uint8](ws, fn, d, a, b)
	case Int8:
		return binInt[int8](ws, fn, d, a, b)
	case Int16:
		return binInt[int16](ws, fn, d, a, b)
	case Int32:
		return binInt[int32](ws, fn, d, a, b)
	case Int64:
		return binInt[int64](ws, fn, d, a, b)
	case Uint16:
		return binInt[uint16](ws, fn, d, a, b)
	case Uint32:
		return binInt[uint32](ws, fn, d, a, b)
	case Uint64:
		return binInt[uint64](ws, fn, d, a, b)
	case Float32:
		binFloat[float32](ws, fn, d, a, b)
	case Float64:
		binFloat[float64](ws, fn, d, a, b)
	}
	return true
}

// whereOf evaluates a Where node over the walk set up in ws, by element
// width (it moves elements).
func whereOf(ws *workspace, width int, d, c, a, b []byte) {
	switch width {
	case 1:
		walk3(ws, d, c, a, b)
	case 2:
		walk3(ws, as[uint16](d), c, as[uint16](a), as[uint16](b))
	case 4:
		walk3(ws, as[uint32](d), c, as[uint32](a), as[uint32](b))
	case 8:
		walk3(ws, as[uint64](d), c, as[uint64](a), as[uint64](b))
	}
}

func unInt[T integer](fn Fn, d, a []byte) {
	if fn == IsNaN || fn == IsFinite {
		predicate(fn, d, as[T](a))
		return
	}
	unaryI(fn, as[T](d), as[T](a))
}

func unFloat[T float](fn Fn, d, a []byte) {
	if fn == IsNaN || fn == IsFinite {
		predicate(fn, d, as[T](a))
		return
	}
	unaryF(fn, as[T](d), as[T](a))
}

// unary evaluates a Unary node of operand type dt over dense d and a.
func unary(fn Fn, dt DType, d, a []byte) {
	switch dt {
	case Bool: // Not
		for j, v := range a[:len(d)] {
			d[j] = v ^ 1
		}
	case Uint8:
		unInt[uint8](fn, d, a)
	case Int8:
		unInt[int8](fn, d, a)
	case Int16:
		unInt[int16](fn, d, a)
	case Int32:
		unInt[int32](fn, d, a)
	case Int64:
		unInt[int64](fn, d, a)
	case Uint16:
		unInt[uint16](fn, d, a)
	case Uint32:
		unInt[uint32](fn, d, a)
	case Uint64:
		unInt[uint64](fn, d, a)
	case Float32:
		unFloat[float32](fn, d, a)
	case Float64:
		unFloat[float64](fn, d, a)
	}
}
