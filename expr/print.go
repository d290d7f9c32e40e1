package expr

import (
	"math"
	"strconv"
)

// appendText appends the canonical text of n: `x`, then one suffix per
// operation: `[a, b:c, ::-1, None, ...]`, `[()]` for an empty index,
// `.T`, `.transpose(2, 0, 1)`, `.reshape(4, -1)`, `.reshape(())`.
func (n *node) appendText(b []byte) []byte {
	if n.x == nil {
		return append(b, 'x')
	}
	if n.op > opReshape {
		return n.appendCompute(b)
	}
	b = n.x.appendText(b)
	switch n.op {
	case opIndex:
		if len(n.items) == 0 {
			return append(b, "[()]"...)
		}
		b = append(b, '[')
		for i, it := range n.items {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = it.appendText(b)
		}
		return append(b, ']')
	case opTranspose:
		if n.ints == nil {
			return append(b, ".T"...)
		}
		return appendInts(append(b, ".transpose("...), n.ints)
	default:
		if len(n.ints) == 0 {
			return append(b, ".reshape(())"...)
		}
		return appendInts(append(b, ".reshape("...), n.ints)
	}
}

func appendInts(b []byte, xs []int) []byte {
	for i, v := range xs {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = strconv.AppendInt(b, int64(v), 10)
	}
	return append(b, ')')
}

// prec returns the precedence of n's text: 1 for + and -, 2 for * and /,
// 3 for a primary or postfix form.
func (n *node) prec() int {
	if n.op != opArith {
		return 3
	}
	if n.bop == Add || n.bop == Sub {
		return 1
	}
	return 2
}

// appendOperand appends x's text, in parentheses when its precedence is
// below min.
func appendOperand(b []byte, x *node, min int) []byte {
	if x.prec() < min {
		return append(x.appendText(append(b, '(')), ')')
	}
	return x.appendText(b)
}

// appendCompute appends the text of a computing node: `x.astype(float32)`,
// `x / 255 - [0.5]`, `x.clip(0, 1)`, `abs(x)`, `sqrt(x)`,
// `x.sum(axis=(0, 1), keepdims=True)`, `x.var(axis=0, ddof=1)`, `norm(x, axis=1)`,
// `dot(x, [1.0])`.
func (n *node) appendCompute(b []byte) []byte {
	switch n.op {
	case opAstype:
		return append(append(append(appendOperand(b, n.x, 3), ".astype("...), n.dt.String()...), ')')
	case opArith:
		p := n.prec()
		sym := " " + n.bop.String() + " "
		if n.left {
			b = n.c.appendText(b)
			return appendOperand(append(b, sym...), n.x, p+1)
		}
		b = appendOperand(b, n.x, p)
		b = append(b, sym...)
		if n.c.scalar() && (n.c.i != nil && n.c.i[0] < 0 || n.c.f != nil && math.Signbit(n.c.f[0])) {
			return append(n.c.appendText(append(b, '(')), ')')
		}
		return n.c.appendText(b)
	case opClip:
		b = append(appendOperand(b, n.x, 3), ".clip("...)
		b = appendBound(b, n.c, n.hasLo)
		b = append(b, ", "...)
		return append(appendBound(b, n.c2, n.hasHi), ')')
	case opAbs:
		return append(n.x.appendText(append(b, "abs("...)), ')')
	case opSqrt:
		return append(n.x.appendText(append(b, "sqrt("...)), ')')
	case opSim:
		b = n.x.appendText(append(append(b, n.metric.String()...), '('))
		return append(n.c.appendText(append(b, ", "...)), ')')
	}
	var args []byte
	if n.axes != nil {
		args = append(args, "axis="...)
		if len(n.axes) == 1 {
			args = strconv.AppendInt(args, int64(n.axes[0]), 10)
		} else {
			args = append(args, '(')
			for i, a := range n.axes {
				if i > 0 {
					args = append(args, ", "...)
				}
				args = strconv.AppendInt(args, int64(a), 10)
			}
			args = append(args, ')')
		}
	}
	if n.keep {
		if args != nil {
			args = append(args, ", "...)
		}
		args = append(args, "keepdims=True"...)
	}
	if n.ddof != 0 {
		if args != nil {
			args = append(args, ", "...)
		}
		args = strconv.AppendInt(append(args, "ddof="...), int64(n.ddof), 10)
	}
	if n.red == Norm {
		b = n.x.appendText(append(b, "norm("...))
		if args != nil {
			b = append(append(b, ", "...), args...)
		}
		return append(b, ')')
	}
	b = append(append(appendOperand(b, n.x, 3), '.'), n.red.String()...)
	return append(append(append(b, '('), args...), ')')
}

func appendBound(b []byte, c Const, has bool) []byte {
	if !has {
		return append(b, "None"...)
	}
	return c.appendText(b)
}
