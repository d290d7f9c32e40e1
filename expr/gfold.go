package expr

import (
	"math"
	"math/bits"
)

// foldScalars computes op between two Python scalars as Python does
// before NumPy sees the result (`x * 2 ** 3` is `x * 8`): integers stay
// integers for + - * // % and ** of a non-negative power, / and ** of a
// negative power give floats, a float operand a float. It returns false
// for the operators Python scalars do not fold here (comparisons,
// bitwise, minimum, maximum) and for constant tensors; an error in
// Python's words for a division by zero, a negative number to a
// fractional power (a complex number) and an integer result beyond
// int64 (Python's integers are unbounded, expr's are not).
func foldScalars(a Const, op BinaryOp, b Const) (Const, bool, string) {
	if !a.scalar() || !b.scalar() || op > Pow {
		return Const{}, false, ""
	}
	if a.weak == weakInt && b.weak == weakInt && op != Div && !(op == Pow && b.i[0] < 0) {
		v, msg := foldInts(a.i[0], op, b.i[0])
		return Int(v), true, msg
	}
	v, msg := foldFloats(scalarFloat(a), op, scalarFloat(b))
	return Float(v), true, msg
}

// scalarFloat returns the value of a Python scalar as a float.
func scalarFloat(c Const) float64 {
	if c.weak == weakInt {
		return float64(c.i[0])
	}
	return c.f[0]
}

// foldInts computes op between Python integers, for + - * // % and **
// of a non-negative power.
func foldInts(x int64, op BinaryOp, y int64) (int64, string) {
	const overflow = "integer result out of the int64 range"
	switch op {
	case Add:
		s := x + y
		if (s > x) != (y > 0) {
			return 0, overflow
		}
		return s, ""
	case Sub:
		s := x - y
		if (s < x) != (y > 0) {
			return 0, overflow
		}
		return s, ""
	case Mul:
		hi, lo := bits.Mul64(uint64(abs64(x)), uint64(abs64(y)))
		if hi != 0 || lo > math.MaxInt64 || x == math.MinInt64 || y == math.MinInt64 {
			return 0, overflow
		}
		if (x < 0) != (y < 0) {
			return -int64(lo), ""
		}
		return int64(lo), ""
	case FloorDiv, Mod:
		if y == 0 {
			return 0, "integer division or modulo by zero"
		}
		if x == math.MinInt64 && y == -1 {
			return 0, overflow
		}
		q, r := x/y, x%y
		if r != 0 && (r < 0) != (y < 0) {
			q, r = q-1, r+y
		}
		if op == Mod {
			return r, ""
		}
		return q, ""
	}
	// Pow, y >= 0: |x| >= 2 overflows within 63 steps.
	switch {
	case y == 0 || x == 1:
		return 1, ""
	case x == 0:
		return 0, ""
	case x == -1:
		return 1 - 2*(y%2), ""
	}
	v := int64(1)
	for range y {
		var msg string
		if v, msg = foldInts(v, Mul, x); msg != "" {
			return 0, msg
		}
	}
	return v, ""
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// foldFloats computes op between Python floats.
func foldFloats(x float64, op BinaryOp, y float64) (float64, string) {
	switch op {
	case Add:
		return x + y, ""
	case Sub:
		return x - y, ""
	case Mul:
		return x * y, ""
	case Div:
		if y == 0 {
			return 0, "division by zero"
		}
		return x / y, ""
	case FloorDiv, Mod:
		if y == 0 {
			return 0, "float floor division by zero"
		}
		m := math.Mod(x, y)
		if m != 0 && (m < 0) != (y < 0) {
			m += y
		}
		if op == Mod {
			return m, ""
		}
		return math.Floor((x - m) / y), ""
	}
	if x < 0 && y != math.Trunc(y) {
		return 0, "a negative number to a fractional power is complex"
	}
	if x == 0 && y < 0 {
		return 0, "0.0 cannot be raised to a negative power"
	}
	return math.Pow(x, y), ""
}
