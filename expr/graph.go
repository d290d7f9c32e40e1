package expr

import (
	"slices"

	"github.com/fstensor/fstensor/search"
)

// A graph expression is a DAG of operations over columns, typed when it
// is compiled against a schema (see Compile): node.g holds its root.
// Chains over one typed input (Input, InputOf) stay nodes of their own
// kind, which Plan evaluates.

// gop is the operation of a graph node.
type gop uint8

const (
	gX         gop = iota + 1 // x, the input column
	gCol                      // a column by name
	gConst                    // a constant
	gLoad                     // a constant read by WithLoad
	gUnary                    // fn(args[0])
	gBinary                   // args[0] bop args[1]
	gWhere                    // where(args[0], args[1], args[2])
	gIndex                    // args[0][items]
	gTranspose                // args[0].T, .transpose(ints)
	gReshape                  // args[0].reshape(ints)
	gAstype                   // args[0].astype(dt)
	gClip                     // args[0].clip(lo, hi)
	gReduce                   // args[0].red(axis=axes, keepdims=keep, ddof=ddof)
	gSim                      // metric(args[0], args[1])
	gMatMul                   // args[0] @ args[1]
	gConcat                   // concatenate(args, axis=axis)
	gStack                    // stack(args, axis=axis)
	gEinsum                   // einsum(spec, args[0], args[1])
)

// gnode is one operation of a graph expression. It is immutable once
// made; pos is where the text it was parsed from starts (-1 when built
// in Go), for errors only.
type gnode struct {
	op     gop
	args   []*gnode
	name   string // gCol, gLoad: the name; gEinsum: the subscripts
	fn     Func   // gUnary
	bop    BinaryOp
	c      Const // gConst; gClip: lo
	c2     Const // gClip: hi
	hasLo  bool  // gClip
	hasHi  bool  // gClip
	items  []Item
	ints   []int // gTranspose (nil: reversed), gReshape
	dt     dtype // gAstype (keep: to bool)
	red    Reduction
	axes   []int // gReduce: nil for all
	keep   bool  // gReduce: keepdims; gAstype: to bool
	ddof   int
	metric search.Metric
	axis   int // gConcat, gStack
	pos    int
	err    error // built in Go: the first Check error of the operands
}

// graphNode wraps g as an Expr whose Check reports g.err, or the error
// of a constant of g (one whose values do not fill its shape).
func graphNode(g *gnode) Expr {
	err := g.err
	for _, c := range []Const{g.c, g.c2} {
		if err == nil {
			err = c.err
		}
	}
	return &node{g: g, err: err}
}

// graphOf returns the graph of e: its own for a graph expression, and
// the equivalent graph over x for a chain (nil for nil).
func graphOf(e Expr) *gnode {
	if e == nil {
		return nil
	}
	n := e.node()
	if n.g != nil {
		return n.g
	}
	return chainGraph(n)
}

// chainGraph converts a chain node to a graph over x.
func chainGraph(n *node) *gnode {
	if n.x == nil {
		return &gnode{op: gX, pos: -1}
	}
	x := chainGraph(n.x)
	g := &gnode{args: []*gnode{x}, pos: -1}
	switch n.op {
	case opIndex:
		g.op, g.items = gIndex, n.items
	case opTranspose:
		g.op, g.ints = gTranspose, n.ints
	case opReshape:
		g.op, g.ints = gReshape, n.ints
	case opAstype:
		g.op, g.dt = gAstype, n.dt
	case opArith:
		c := &gnode{op: gConst, c: n.c, pos: -1}
		g.op, g.bop = gBinary, n.bop
		if n.left {
			g.args = []*gnode{c, x}
		} else {
			g.args = []*gnode{x, c}
		}
	case opClip:
		g.op, g.c, g.c2, g.hasLo, g.hasHi = gClip, n.c, n.c2, n.hasLo, n.hasHi
	case opAbs:
		g.op, g.fn = gUnary, fnAbs
	case opSqrt:
		g.op, g.fn = gUnary, fnSqrt
	case opReduce:
		g.op, g.red, g.axes, g.keep, g.ddof = gReduce, n.red, n.axes, n.keep, n.ddof
	case opSim:
		g.op, g.metric = gSim, n.metric
		g.args = []*gnode{x, {op: gConst, c: n.c, pos: -1}}
	}
	return g
}

// isGraph reports whether any of es is a graph expression.
func isGraph(es ...Expr) bool {
	for _, e := range es {
		if e.node().g != nil {
			return true
		}
	}
	return false
}

// X returns the input x of a graph expression: the column Compile's
// WithInput names (or the schema's only tensor column). Unlike Input, it
// carries no type: the expressions built on it are typed by Compile
// (their Metadata is the zero Metadata and ElemType nil until then; see
// Program.Schema).
func X() Expr { return graphNode(&gnode{op: gX, pos: -1}) }

// Col returns the column named name, typed by Compile: a fixed-shape or
// variable-shape tensor column, or a plain integer or floating-point
// column read as a 0-D tensor per row. It prints as the name when that is an identifier
// the text does not reserve and as col("name") otherwise.
func Col(name string) Expr { return graphNode(&gnode{op: gCol, name: name, pos: -1}) }

// Lit returns the constant c as an operand of Binary, Where and the
// functions: a Python scalar (Int, Float) is weak, as NumPy 2's are; a
// constant tensor (Array, Floats, Ints) promotes as an array.
func Lit(c Const) Expr { return graphNode(&gnode{op: gConst, c: c, pos: -1}) }

// Load returns the constant a WithLoad function gives for name, read by
// Compile: `load("W.npy")`. Compile fails without WithLoad.
func Load(name string) Expr { return graphNode(&gnode{op: gLoad, name: name, pos: -1}) }

func gmake(op gop, args ...Expr) *gnode {
	g := &gnode{op: op, pos: -1, args: make([]*gnode, len(args))}
	for i, a := range args {
		g.args[i] = graphOf(a)
		if g.err == nil {
			g.err = Check(a)
		}
	}
	return g
}

// Binary returns a op b element by element, with NumPy's broadcasting
// between their shapes and NumPy 2's type promotion (see the package
// doc): the arithmetic operators Add to Pow, the comparisons Lt to Ne
// (bool results), the bitwise And, Or, Xor (integers and bool only) and
// Minimum, Maximum.
func Binary(op BinaryOp, a, b Expr) Expr {
	g := gmake(gBinary, a, b)
	g.bop = op
	return graphNode(g)
}

// Call returns f applied to each element of x (Exp(x) is `exp(x)`,
// Negative `-x`, Invert `~x`).
func Call(f Func, x Expr) Expr {
	g := gmake(gUnary, x)
	g.fn = f
	return graphNode(g)
}

// Where returns NumPy's where(cond, a, b): a's element where cond is
// true (non-zero), b's elsewhere, the three broadcast together.
func Where(cond, a, b Expr) Expr { return graphNode(gmake(gWhere, cond, a, b)) }

// MatMul returns a @ b by NumPy's matmul rules: a 1-D operand is a row
// (on the left) or a column (on the right) vector whose added axis is
// removed again, the axes before the last two are batch axes that
// broadcast.
func MatMul(a, b Expr) Expr { return graphNode(gmake(gMatMul, a, b)) }

// Concatenate returns numpy.concatenate(xs, axis=axis): the tensors
// joined along axis, their other sizes equal.
func Concatenate(axis int, xs ...Expr) Expr {
	g := gmake(gConcat, xs...)
	g.axis = axis
	return graphNode(g)
}

// Stack returns numpy.stack(xs, axis=axis): the tensors, of one shape,
// along a new axis.
func Stack(axis int, xs ...Expr) Expr {
	g := gmake(gStack, xs...)
	g.axis = axis
	return graphNode(g)
}

// Einsum returns numpy.einsum(subscripts, a, b) of two operands, with
// explicit (`ij,jk->ik`) or implicit (`ij,jk`) output subscripts and
// ellipses (`...ij,...jk`: the axes an ellipsis stands for broadcast
// between the operands, right-aligned, as NumPy's).
func Einsum(subscripts string, a, b Expr) Expr {
	g := gmake(gEinsum, a, b)
	g.name = subscripts
	return graphNode(g)
}

// SimilarityOf returns the metric m between the tensors a and b of each
// row (of one shape), as Similarity does with a constant: dot(a, b),
// cosine, l2, sqeuclidean.
func SimilarityOf(a Expr, m search.Metric, b Expr) Expr {
	g := gmake(gSim, a, b)
	g.metric = m
	return graphNode(g)
}

// graphSuffix makes the graph node of a view, astype, clip or reduction
// of x (x a graph expression or a chain that is to become one).
func graphSuffix(x Expr, op gop, f func(g *gnode)) Expr {
	g := gmake(op, x)
	f(g)
	return graphNode(g)
}

// equalGraph reports whether a and b are the same graph (pos aside).
func equalGraph(a, b *gnode) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil || a.op != b.op || a.name != b.name || a.fn != b.fn || a.bop != b.bop ||
		!a.c.equal(b.c) || !a.c2.equal(b.c2) || a.hasLo != b.hasLo || a.hasHi != b.hasHi ||
		!slices.Equal(a.items, b.items) || !slices.Equal(a.ints, b.ints) || (a.ints == nil) != (b.ints == nil) ||
		a.dt != b.dt || a.red != b.red || !slices.Equal(a.axes, b.axes) || (a.axes == nil) != (b.axes == nil) ||
		a.keep != b.keep || a.ddof != b.ddof || a.metric != b.metric || a.axis != b.axis || len(a.args) != len(b.args) {
		return false
	}
	for i := range a.args {
		if !equalGraph(a.args[i], b.args[i]) {
			return false
		}
	}
	return true
}

// isChain reports whether g is in the chain language of Plan: one
// column read once, views, then element-wise operations with constants,
// then at most one reduction (or similarity to a constant) and
// element-wise operations on its result. It walks from the last
// operation to the column.
func isChain(g *gnode) bool {
	views, reduced := false, false // seen below the top
	for {
		compute := true
		switch g.op {
		case gX, gCol:
			return true
		case gIndex, gTranspose, gReshape:
			views, compute = true, false
		case gAstype, gClip:
		case gUnary:
			if g.fn != fnAbs && g.fn != fnSqrt {
				return false
			}
		case gBinary:
			switch {
			case g.bop > Div:
				return false
			case g.args[1].op == gConst:
			case g.args[0].op == gConst:
				if views {
					return false
				}
				g = g.args[1]
				continue
			default:
				return false
			}
		case gReduce, gSim:
			if reduced || g.op == gReduce && g.red > Std || g.op == gSim && g.args[1].op != gConst {
				return false
			}
			reduced = true
		default:
			return false
		}
		if compute && views {
			return false
		}
		g = g.args[0]
	}
}
