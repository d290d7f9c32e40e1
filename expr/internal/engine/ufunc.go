package engine

import (
	"math"

	"github.com/fstensor/fstensor/internal/numeric"
)

type integer interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// unaryF sets d[j] = fn(a[j]) for a float type, through float64 and
// rounded to T for the transcendental functions; d may be a. Square
// roots, absolute values, negations, squares and roundings run
// numeric.Unary (AVX2 for float32).
func unaryF[T float](fn Fn, d, a []T) {
	a = a[:len(d)]
	if op, ok := floatUnary[fn]; ok {
		numeric.Unary(op, d, a)
		return
	}
	switch fn {
	case Sign:
		for j, v := range a {
			switch {
			case v > 0:
				d[j] = 1
			case v < 0:
				d[j] = -1
			case v == 0:
				d[j] = 0 // NumPy's sign(-0.0) is +0.0
			default:
				d[j] = v // NaN
			}
		}
	case Exp:
		if df, ok := any(d).([]float32); ok {
			numeric.ExpF32(df, any(a).([]float32)) // math.Exp's bits but within 2^-50 of a midpoint
			return
		}
		expF(d, a)
	default:
		f := floatFn(fn)
		for j, v := range a {
			d[j] = T(f(float64(v)))
		}
	}
}

// floatUnary are the operations numeric.Unary runs on float operands.
var floatUnary = map[Fn]numeric.F32Op{
	Sqrt: numeric.F32Sqrt, Abs: numeric.F32Abs, Neg: numeric.F32Neg, Square: numeric.F32Square,
	Floor: numeric.F32Floor, Ceil: numeric.F32Ceil, Round: numeric.F32Round,
}

// expF sets d[j] = exp(a[j]) through float64.
func expF[T float](d, a []T) {
	for j, v := range a {
		d[j] = T(math.Exp(float64(v)))
	}
}

// floatFn returns the function of package math that computes fn: log,
// log1p, expm1 or tanh.
func floatFn(fn Fn) func(float64) float64 {
	switch fn {
	case Log:
		return math.Log
	case Log1p:
		return math.Log1p
	case Expm1:
		return math.Expm1
	case Tanh:
		return math.Tanh
	}
	panic("engine: no float function")
}

// unaryI sets d[j] = fn(a[j]) for an integer type: floor, ceil and
// round are the identity, arithmetic wraps around.
func unaryI[T integer](fn Fn, d, a []T) {
	a = a[:len(d)]
	switch fn {
	case Neg:
		for j, v := range a {
			d[j] = -v
		}
	case Abs:
		for j, v := range a {
			if v < 0 {
				v = -v
			}
			d[j] = v
		}
	case Square:
		for j, v := range a {
			d[j] = v * v
		}
	case Sign:
		for j, v := range a {
			switch {
			case v > 0:
				d[j] = 1
			case v < 0:
				d[j] = 0
				d[j]-- // -1
			default:
				d[j] = 0
			}
		}
	case Not:
		for j, v := range a {
			d[j] = ^v
		}
	default: // Floor, Ceil, Round
		copy(d, a)
	}
}

// predicate sets d[j] to IsNaN or IsFinite of a[j], 0 or 1.
func predicate[T number](fn Fn, d []uint8, a []T) {
	a = a[:len(d)]
	for j, v := range a {
		f := float64(v)
		var r bool
		if fn == IsNaN {
			r = f != f
		} else {
			r = !math.IsInf(f, 0) && f == f
		}
		d[j] = b2u(r)
	}
}

func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// binaryF sets d[j] = a[j] fn b[j] for a float type.
func binaryF[T float](fn Fn, d, a, b []T) {
	a, b = a[:len(d)], b[:len(d)]
	switch fn {
	case Add:
		for j := range d {
			d[j] = a[j] + b[j]
		}
	case Sub:
		for j := range d {
			d[j] = a[j] - b[j]
		}
	case Mul:
		for j := range d {
			d[j] = a[j] * b[j]
		}
	case Div:
		for j := range d {
			d[j] = a[j] / b[j]
		}
	case Minimum:
		for j := range d {
			x, y := a[j], b[j]
			if !(x <= y || x != x) {
				x = y
			}
			d[j] = x
		}
	case Maximum:
		for j := range d {
			x, y := a[j], b[j]
			if !(x >= y || x != x) {
				x = y
			}
			d[j] = x
		}
	case FloorDiv:
		for j := range d {
			d[j] = T(floorDiv(float64(a[j]), float64(b[j])))
		}
	case Mod:
		for j := range d {
			d[j] = T(remainder(float64(a[j]), float64(b[j])))
		}
	case Pow:
		for j := range d {
			d[j] = T(math.Pow(float64(a[j]), float64(b[j])))
		}
	}
}

// floorDiv is NumPy's floor_divide of floats (npy_divmod).
func floorDiv(a, b float64) float64 {
	if b == 0 {
		return a / b
	}
	mod := math.Mod(a, b)
	div := (a - mod) / b
	if mod != 0 && (b < 0) != (mod < 0) {
		div--
	}
	if div == 0 {
		return math.Copysign(0, a/b)
	}
	fl := math.Floor(div)
	if div-fl > 0.5 {
		fl++
	}
	return fl
}

// remainder is NumPy's remainder of floats: the sign of the divisor.
func remainder(a, b float64) float64 {
	mod := math.Mod(a, b)
	if b == 0 {
		return mod
	}
	if mod != 0 {
		if (b < 0) != (mod < 0) {
			mod += b
		}
		return mod
	}
	return math.Copysign(0, b)
}

// binaryI sets d[j] = a[j] fn b[j] for an integer type and the
// operations numeric.BinaryInt does not run (floor division and
// remainder, 0 for a divisor of 0; powers); it returns false when
// a Pow has a negative exponent (d[j] is then 0).
func binaryI[T integer](fn Fn, d, a, b []T) bool {
	a, b = a[:len(d)], b[:len(d)]
	ok := true
	switch fn {
	case FloorDiv:
		for j := range d {
			x, y := a[j], b[j]
			if y == 0 {
				d[j] = 0
				continue
			}
			q := x / y
			if x%y != 0 && (x < 0) != (y < 0) {
				q--
			}
			d[j] = q
		}
	case Mod:
		for j := range d {
			x, y := a[j], b[j]
			if y == 0 {
				d[j] = 0
				continue
			}
			r := x % y
			if r != 0 && (r < 0) != (y < 0) {
				r += y
			}
			d[j] = r
		}
	case Pow:
		for j := range d {
			x, y := a[j], b[j]
			if y < 0 {
				d[j], ok = 0, false
				continue
			}
			r := T(1)
			for y != 0 {
				if y&1 != 0 {
					r *= x
				}
				x *= x
				y >>= 1
			}
			d[j] = r
		}
	}
	return ok
}
