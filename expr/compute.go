package expr

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/metadata"
)

// BinaryOp is an operator of Arith (Add to Div) and Binary (all).
type BinaryOp uint8

// The operators. Div is NumPy's true division: integer operands give
// float64. FloorDiv (//), Mod (%, the divisor's sign) and Pow (**) are
// NumPy's floor_divide, remainder and power; Lt to Ne the comparisons
// (bool results); And, Or, Xor (& | ^) bitwise for integers, logical for
// bool; Minimum and Maximum NumPy's (NaN propagates), printed as calls.
const (
	Add BinaryOp = iota
	Sub
	Mul
	Div
	FloorDiv
	Mod
	Pow
	Lt
	Le
	Gt
	Ge
	Eq
	Ne
	And
	Or
	Xor
	Minimum
	Maximum
)

var binaryText = [...]string{Add: "+", Sub: "-", Mul: "*", Div: "/", FloorDiv: "//", Mod: "%", Pow: "**",
	Lt: "<", Le: "<=", Gt: ">", Ge: ">=", Eq: "==", Ne: "!=", And: "&", Or: "|", Xor: "^",
	Minimum: "minimum", Maximum: "maximum"}

// String returns the operator's symbol.
func (o BinaryOp) String() string {
	if int(o) < len(binaryText) {
		return binaryText[o]
	}
	return "?"
}

// Arith returns x op c (x + 2, x / [255.0]), element by element, with c
// broadcast against x by NumPy's rules; the result's shape is the
// broadcast shape and its element type NumPy 2's promotion of x's type
// with c (see the package doc). Integer results wrap around as NumPy's
// do. An operator outside Add..Div, a Python integer out of an integer
// tensor's range, or shapes that do not broadcast make an expression
// that fails Check.
func Arith(x Expr, op BinaryOp, c Const) Expr { return arith(x, op, c, false) }

// ArithLeft returns c op x, the constant on the left: `1 - x`, `255 / x`.
func ArithLeft(c Const, op BinaryOp, x Expr) Expr { return arith(x, op, c, true) }

func arith(x Expr, op BinaryOp, c Const, left bool) Expr {
	if op > Div || isGraph(x) {
		if left {
			return Binary(op, Lit(c), x)
		}
		return Binary(op, x, Lit(c))
	}
	n, xn := deriveCompute(x, opArith)
	n.bop, n.c, n.left = op, c, left
	if n.err != nil {
		return n
	}
	if op > Div {
		return n.fail(errorf("unknown operator %d", op))
	}
	if c.err != nil {
		return n.fail(c.err)
	}
	a := dtypeOf(xn.elem)
	var p dtype
	if c.scalar() {
		if c.weak == weakInt && !a.float() && !a.fits(c.i[0]) {
			return n.fail(errorf("Python integer %d out of bounds for %s", c.i[0], a))
		}
		p = promoteWeak(a, c.weak)
	} else {
		p = promote(a, c.dt)
	}
	if op == Div && !p.float() {
		p = dtF64
	}
	n.dt = p
	shape := xn.meta.Shape()
	if !c.scalar() {
		var ok bool
		s1, s2 := shape, c.shape
		if left {
			s1, s2 = s2, s1
		}
		if shape, ok = broadcast(s1, s2); !ok {
			return n.fail(errorf("operands could not be broadcast together with shapes %s %s ", metadata.FormatShape(s1), metadata.FormatShape(s2)))
		}
	}
	return n.computed(shape, keepNames(xn, shape))
}

// Astype returns x with its elements converted to element type t, as
// NumPy's astype: integers wrap around to a narrower integer type,
// floats round to the nearest of a narrower float type, integers to
// floats round to nearest. Floats to integers truncate toward zero;
// NaN gives 0 and values beyond the integer type's range saturate to its
// smallest or largest value (NumPy leaves these undefined). t must be a
// numeric element type (int8..uint64, float16..float64).
func Astype(x Expr, t arrow.DataType) Expr {
	if isGraph(x) {
		return graphSuffix(x, gAstype, func(g *gnode) { g.dt, g.keep = dtypeOf(t), t != nil && t.ID() == arrow.BOOL })
	}
	n, xn := deriveCompute(x, opAstype)
	n.dt = dtypeOf(t)
	if n.err != nil {
		return n
	}
	if n.dt == dtNone {
		return n.fail(errorf("astype to %v: not a numeric element type", t))
	}
	return n.computed(xn.meta.Shape(), xn.meta.DimNames())
}

// Clip returns x with its elements limited to [lo, hi] (NumPy's clip:
// minimum(maximum(x, lo), hi), so NaN stays NaN, a NaN bound gives NaN
// and lo > hi gives hi).
// lo and hi are Python scalars (Int, Float), or nil for no bound; an
// integer bound beyond an integer tensor's range leaves that side
// unbounded, as NumPy 2 does. The result type is x's promoted with the
// bounds (a float bound on an integer tensor gives float64).
func Clip(x Expr, lo, hi *Const) Expr {
	if isGraph(x) {
		return graphSuffix(x, gClip, func(g *gnode) {
			if lo != nil {
				g.c, g.hasLo = *lo, true
			}
			if hi != nil {
				g.c2, g.hasHi = *hi, true
			}
		})
	}
	n, xn := deriveCompute(x, opClip)
	if lo != nil {
		n.c, n.hasLo = *lo, true
	}
	if hi != nil {
		n.c2, n.hasHi = *hi, true
	}
	if n.err != nil {
		return n
	}
	if !n.hasLo && !n.hasHi {
		return n.fail(errorf("One of max or min must be given"))
	}
	p := dtypeOf(xn.elem)
	for _, b := range []*Const{lo, hi} {
		if b == nil {
			continue
		}
		if !b.scalar() {
			return n.fail(errorf("clip bounds must be scalars"))
		}
		p = promoteWeak(p, b.weak)
	}
	n.dt = p
	return n.computed(xn.meta.Shape(), xn.meta.DimNames())
}

// Abs returns the absolute values of x's elements, of x's type (the most
// negative integer stays itself, as in NumPy).
func Abs(x Expr) Expr {
	if isGraph(x) {
		return Call(fnAbs, x)
	}
	n, xn := deriveCompute(x, opAbs)
	if n.err != nil {
		return n
	}
	n.dt = dtypeOf(xn.elem)
	return n.computed(xn.meta.Shape(), xn.meta.DimNames())
}

// Sqrt returns the square roots of x's elements (NaN for negatives), of
// the float type NumPy's sqrt picks: float16 for 8-bit integers, float32
// for 16-bit ones, float64 for wider integers, floats kept.
func Sqrt(x Expr) Expr {
	if isGraph(x) {
		return Call(fnSqrt, x)
	}
	n, xn := deriveCompute(x, opSqrt)
	if n.err != nil {
		return n
	}
	n.dt = sqrtType(dtypeOf(xn.elem))
	return n.computed(xn.meta.Shape(), xn.meta.DimNames())
}

// deriveCompute starts a computing node on x: x must have a numeric
// element type and no reduction may follow a reduction.
func deriveCompute(x Expr, o op) (*node, *node) {
	n, xn := derive(x, o)
	n.computes = true
	if n.err == nil && dtypeOf(xn.elem) == dtNone {
		n.err = unsupportedf("%s is not supported for %v elements", opName(o), xn.elem)
	}
	return n, xn
}

func opName(o op) string {
	switch o {
	case opAstype:
		return "astype"
	case opArith:
		return "arithmetic"
	case opClip:
		return "clip"
	case opAbs:
		return "abs"
	case opSqrt:
		return "sqrt"
	case opReduce:
		return "reduction"
	}
	return "similarity"
}

func (n *node) fail(err error) Expr {
	n.err = err
	n.meta = metadata.Metadata{}
	return n
}

// computed sets the result of a computing node: shape, names (nil for
// none) and element type n.dt.
func (n *node) computed(shape []int, names []string) Expr {
	n.elem = n.dt.arrow()
	return n.finish(shape, names, nil)
}

// keepNames returns x's names when shape is x's shape, nil otherwise.
func keepNames(x *node, shape []int) []string {
	if slices.Equal(x.meta.Shape(), shape) {
		return x.meta.DimNames()
	}
	return nil
}

// broadcast returns the broadcast shape of a and b by NumPy's rules, and
// false when they do not broadcast.
func broadcast(a, b []int) ([]int, bool) {
	if len(a) < len(b) {
		a, b = b, a
	}
	out := slices.Clone(a)
	off := len(a) - len(b)
	for i, d := range b {
		switch o := out[off+i]; {
		case o == d || d == 1:
		case o == 1:
			out[off+i] = d
		default:
			return nil, false
		}
	}
	return out, true
}

// clipOf returns Clip(x, lo, hi) with a bound only where has says so.
func clipOf(x Expr, lo, hi Const, hasLo, hasHi bool) Expr {
	var l, h *Const
	if hasLo {
		l = &lo
	}
	if hasHi {
		h = &hi
	}
	return Clip(x, l, h)
}

// recompute rebuilds computing node n over the operand y.
func recompute(n *node, y Expr) Expr {
	switch n.op {
	case opAstype:
		return Astype(y, n.dt.arrow())
	case opArith:
		return arith(y, n.bop, n.c, n.left)
	case opClip:
		return clipOf(y, n.c, n.c2, n.hasLo, n.hasHi)
	case opAbs:
		return Abs(y)
	case opSqrt:
		return Sqrt(y)
	case opReduce:
		return ReduceDdof(y, n.red, n.ddof, n.keep, n.axes...)
	}
	return Similarity(y, n.metric, n.c)
}
