package expr

import (
	"errors"
)

// The chains of the text: a graph in the chain language of Plan (isChain)
// becomes the chain expression the constructors build, so that Parse
// and Compile read the text with one parser and still hand chains to a
// Plan.

// chainLeaf returns the column g reads when g is a chain that the
// constructors express (chainOf), and nil otherwise.
func chainLeaf(g *gnode) *gnode {
	if !isChain(g) {
		return nil
	}
	for {
		switch g.op {
		case gX, gCol:
			return g
		case gAstype:
			if g.keep { // to bool: a graph operation
				return nil
			}
		case gBinary:
			if g.args[0].op == gConst {
				g = g.args[1]
				continue
			}
		}
		g = g.args[0]
	}
}

// chainOf returns g, a chain for which chainLeaf is not nil, as the
// chain expression over in (the input of its column, or of one row shape
// of it) that the constructors build. Each operation is checked as it is
// added, and its error placed at the operation in text (the end of a
// method call or index, the operator of a binary operation), as a
// parser would report it.
func chainOf(g *gnode, in Expr, text string) (Expr, error) {
	if g.op == gX || g.op == gCol {
		return in, nil
	}
	k := 0
	if g.op == gBinary && g.args[0].op == gConst {
		k = 1
	}
	x, err := chainOf(g.args[k], in, text)
	if err != nil {
		return nil, err
	}
	e := chainView(g, x)
	switch g.op {
	case gAstype:
		e = Astype(x, g.dt.arrow())
	case gClip:
		e = clipOf(x, g.c, g.c2, g.hasLo, g.hasHi)
	case gUnary:
		if g.fn == fnAbs {
			e = Abs(x)
		} else {
			e = Sqrt(x)
		}
	case gBinary:
		if k == 1 {
			e = ArithLeft(g.args[0].c, g.bop, x)
		} else {
			e = Arith(x, g.bop, g.args[1].c)
		}
	case gSim:
		e = Similarity(x, g.metric, g.args[1].c)
	}
	if err := Check(e); err != nil {
		msg := err.Error()
		var ee *Error
		if errors.As(err, &ee) {
			msg = ee.Msg
		}
		return nil, newErrorOf(err, text, g.pos, msg)
	}
	return e, nil
}

// chainView returns the chain step of an index, transpose, reshape or
// reduction g applied to x, or nil for another operation.
func chainView(g *gnode, x Expr) Expr {
	switch g.op {
	case gIndex:
		return Subscript(x, g.items...)
	case gTranspose:
		return Transpose(x, g.ints...)
	case gReshape:
		return Reshape(x, g.ints...)
	case gReduce:
		return ReduceDdof(x, g.red, g.ddof, g.keep, g.axes...)
	}
	return nil
}
