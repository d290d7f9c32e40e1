package expr

import (
	"strconv"
)

// Precedence levels of the text, lowest first, as Python's.
const (
	precCompare = 1 + iota // < <= > >= == !=
	precOr                 // |
	precXor                // ^
	precAnd                // &
	precSum                // + -
	precProduct            // * / // % @
	precUnary              // -x ~x
	precPow                // **
	precPostfix            // primaries, calls, x[...], x.f()
)

// prec returns the precedence level of g's text.
func (g *gnode) prec() int {
	switch g.op {
	case gBinary:
		return binaryPrec(g.bop)
	case gMatMul:
		return precProduct
	case gUnary:
		if g.fn == Negative && g.args[0].op != gConst || g.fn == Invert {
			return precUnary
		}
	case gConst:
		c := g.c
		if c.scalar() && (c.i != nil && c.i[0] < 0 || c.f != nil && c.f[0] < 0) {
			return precUnary
		}
	}
	return precPostfix
}

func binaryPrec(op BinaryOp) int {
	switch op {
	case Add, Sub:
		return precSum
	case Mul, Div, FloorDiv, Mod:
		return precProduct
	case Pow:
		return precPow
	case Lt, Le, Gt, Ge, Eq, Ne:
		return precCompare
	case And:
		return precAnd
	case Or:
		return precOr
	case Xor:
		return precXor
	}
	return precPostfix
}

// appendArg appends g's text, in parentheses when its level is below min.
func (g *gnode) appendArg(b []byte, min int) []byte {
	if g.prec() < min {
		return append(g.appendText(append(b, '(')), ')')
	}
	return g.appendText(b)
}

// appendText appends the canonical text of g.
func (g *gnode) appendText(b []byte) []byte {
	switch g.op {
	case gX:
		return append(b, 'x')
	case gCol:
		return appendColumnName(b, g.name)
	case gConst:
		return g.c.appendText(b)
	case gLoad:
		return append(appendQuoted(append(b, "load("...), g.name), ')')
	case gUnary:
		switch {
		case g.fn == Invert:
			return g.args[0].appendArg(append(b, '~'), precUnary)
		case g.fn == Negative && g.args[0].op != gConst:
			return g.args[0].appendArg(append(b, '-'), precUnary)
		}
		return g.appendCall(b, g.fn.String())
	case gBinary:
		if g.bop == Minimum || g.bop == Maximum {
			return g.appendCall(b, g.bop.String())
		}
		return g.appendInfix(b, g.bop.String(), binaryPrec(g.bop))
	case gMatMul:
		return g.appendInfix(b, "@", precProduct)
	case gWhere:
		return g.appendCall(b, "where")
	case gSim:
		return g.appendCall(b, g.metric.String())
	case gConcat, gStack:
		name := "concatenate("
		if g.op == gStack {
			name = "stack("
		}
		b = append(b, name...)
		b = appendTuple(b, g.args)
		b = strconv.AppendInt(append(b, ", axis="...), int64(g.axis), 10)
		return append(b, ')')
	case gEinsum:
		b = appendQuoted(append(b, "einsum("...), g.name)
		for _, a := range g.args {
			b = a.appendText(append(b, ", "...))
		}
		return append(b, ')')
	}
	return g.appendSuffix(b)
}

// appendSuffix appends the text of a postfix operation: a view, astype,
// clip or reduction.
func (g *gnode) appendSuffix(b []byte) []byte {
	x := g.args[0]
	if g.op == gReduce && g.red == Norm {
		b = x.appendText(append(b, "norm("...))
		if args := reduceArgsText(nil, g.axes, g.keep, g.ddof); args != nil {
			b = append(append(b, ", "...), args...)
		}
		return append(b, ')')
	}
	b = x.appendArg(b, precPostfix)
	switch g.op {
	case gIndex:
		if len(g.items) == 0 {
			return append(b, "[()]"...)
		}
		b = append(b, '[')
		for i, it := range g.items {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = it.appendText(b)
		}
		return append(b, ']')
	case gTranspose:
		if g.ints == nil {
			return append(b, ".T"...)
		}
		return appendInts(append(b, ".transpose("...), g.ints)
	case gReshape:
		if len(g.ints) == 0 {
			return append(b, ".reshape(())"...)
		}
		return appendInts(append(b, ".reshape("...), g.ints)
	case gAstype:
		if g.keep {
			return append(b, ".astype(bool)"...)
		}
		return append(append(append(b, ".astype("...), g.dt.String()...), ')')
	case gClip:
		b = appendBound(append(b, ".clip("...), g.c, g.hasLo)
		return append(appendBound(append(b, ", "...), g.c2, g.hasHi), ')')
	}
	b = append(append(b, '.'), g.red.String()...)
	return append(append(append(b, '('), reduceArgsText(nil, g.axes, g.keep, g.ddof)...), ')')
}

// reduceArgsText appends a reduction's keywords: `axis=(0, 1),
// keepdims=True, ddof=1`, each only when it is not the default.
func reduceArgsText(args []byte, axes []int, keep bool, ddof int) []byte {
	if axes != nil {
		args = append(args, "axis="...)
		if len(axes) == 1 {
			args = strconv.AppendInt(args, int64(axes[0]), 10)
		} else {
			args = append(appendTupleInts(append(args, '('), axes), ')')
		}
	}
	if keep {
		if args != nil {
			args = append(args, ", "...)
		}
		args = append(args, "keepdims=True"...)
	}
	if ddof != 0 {
		if args != nil {
			args = append(args, ", "...)
		}
		args = strconv.AppendInt(append(args, "ddof="...), int64(ddof), 10)
	}
	return args
}

func appendTupleInts(b []byte, xs []int) []byte {
	for i, v := range xs {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = strconv.AppendInt(b, int64(v), 10)
	}
	if len(xs) == 1 {
		b = append(b, ',')
	}
	return b
}

// appendTuple appends `(a, b)` (`(a,)` for one).
func appendTuple(b []byte, args []*gnode) []byte {
	b = append(b, '(')
	for i, a := range args {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = a.appendText(b)
	}
	if len(args) == 1 {
		b = append(b, ',')
	}
	return append(b, ')')
}

func (g *gnode) appendCall(b []byte, name string) []byte {
	b = append(append(b, name...), '(')
	for i, a := range g.args {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = a.appendText(b)
	}
	return append(b, ')')
}

// appendInfix appends `a op b` of a binary operation of level p: left
// associative, except ** (right associative, its right operand may be
// unary) and the comparisons (not associative).
func (g *gnode) appendInfix(b []byte, sym string, p int) []byte {
	lmin, rmin := p, p+1
	switch p {
	case precPow:
		lmin, rmin = precPostfix, precUnary
	case precCompare:
		lmin = p + 1
	}
	b = g.args[0].appendArg(b, lmin)
	b = append(append(append(b, ' '), sym...), ' ')
	return g.args[1].appendArg(b, rmin)
}

// reservedNames are identifiers the text reads otherwise than as a
// column.
var reservedNames = map[string]bool{"x": true, "inf": true, "nan": true, "None": true, "True": true, "False": true, "np": true}

// appendColumnName appends a column's name: as is when it is an
// identifier the text reads as a column, col("name") otherwise.
func appendColumnName(b []byte, name string) []byte {
	if isIdent(name) && !reservedNames[name] {
		return append(b, name...)
	}
	return append(appendQuoted(append(b, "col("...), name), ')')
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '_' && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// appendQuoted appends s in double quotes, a backslash before each
// quote and backslash.
func appendQuoted(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' || s[i] == '\\' {
			b = append(b, '\\')
		}
		b = append(b, s[i])
	}
	return append(b, '"')
}
