package expr

import (
	"slices"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/search"
	"github.com/fstensor/fstensor/stride"
)

// Expr is an immutable, lazily evaluated tensor expression: either a
// chain over an input tensor type (Input, InputOf), views then
// element-wise operations and at most one reduction, whose result
// metadata and element type are known as soon as it is built; or a graph
// over columns (X, Col: any operations, reuse, several columns; see the
// package doc), typed when Compile binds it to a schema, whose Metadata
// is the zero Metadata and ElemType nil until then. No data is touched
// until evaluation. Expressions are safe for concurrent use.
//
// The interface is sealed: the constructors of this package (Input,
// InputOf, X, Col, Lit, Load, Subscript, Slice, Index, Transpose,
// Reshape, Astype, Arith, ArithLeft, Binary, Call, Where, Clip, Abs,
// Sqrt, Reduce, ReduceDdof, Similarity, SimilarityOf, MatMul,
// Concatenate, Stack, Einsum, Parse) make every Expr. A constructor
// given a graph makes a graph; Arith with an operator beyond Div, and
// Reduce with AnyTrue or AllTrue, make graphs of chains too.
type Expr interface {
	// String returns the canonical text form, which Parse reads back
	// to an equal expression (Equal). The input prints as `x`.
	String() string
	// Metadata returns the logical shape and dimension names of one
	// result tensor (no permutation: results are dense row-major).
	// It returns the zero Metadata when Check fails.
	Metadata() metadata.Metadata
	// ElemType returns the element type of the result (of the input
	// too for a view expression).
	ElemType() arrow.DataType
	// Input returns the metadata of the expression's input tensors.
	Input() metadata.Metadata

	node() *node // seals the interface
}

type op uint8

const (
	opInput op = iota
	opIndex
	opTranspose
	opReshape
	opAstype
	opArith
	opClip
	opAbs
	opSqrt
	opReduce
	opSim
)

// node is the one implementation of Expr.
type node struct {
	op    op
	x     *node          // the operand; nil for the input
	elem  arrow.DataType // the result's element type
	in    metadata.Metadata
	items []Item // opIndex
	ints  []int  // opTranspose: the axes as given (nil: reversed); opReshape: the shape as given
	meta  metadata.Metadata
	err   error

	// Computing operations (compute.go, reduce.go).
	computes     bool          // this node or one below it computes
	reduced      bool          // this node or one below it reduces
	dt           dtype         // the result's dtype
	bop          BinaryOp      // opArith
	left         bool          // opArith: the constant is the left operand
	c, c2        Const         // opArith, opSim: the constant; opClip: the bounds
	hasLo, hasHi bool          // opClip: which bounds are given
	red          Reduction     // opReduce
	metric       search.Metric // opSim
	axes         []int         // opReduce: the axes as given, nil for all
	keep         bool          // opReduce: keepdims
	ddof         int           // opReduce: Var and Std's delta degrees of freedom

	g *gnode // a graph expression (graph.go); the fields above are unused
}

func (n *node) node() *node                 { return n }
func (n *node) Metadata() metadata.Metadata { return n.meta }
func (n *node) ElemType() arrow.DataType    { return n.elem }
func (n *node) Input() metadata.Metadata    { return n.in }
func (n *node) String() string {
	if n.g != nil {
		return string(n.g.appendText(nil))
	}
	return string(n.appendText(nil))
}

// Check returns the first error of e's arguments: an index out of bounds,
// a slice step of 0, a bad permutation, an impossible reshape... The error
// wraps arrow.ErrInvalid and uses NumPy's wording where NumPy has one.
func Check(e Expr) error { return e.node().err }

// Input returns the expression of input tensors of type t: the leaf `x`
// of every chain. It does not retain t beyond its element type and
// metadata.
func Input(t *fixedshape.Type) Expr {
	return InputOf(t.ElemType(), t.Metadata())
}

// InputOf is Input for an element type and metadata that need not make a
// fixedshape.Type, such as shapes with a size-0 dimension (which can be
// planned but not evaluated). An element type that fixedshape refuses
// makes an expression that fails Check.
func InputOf(elem arrow.DataType, m metadata.Metadata) Expr {
	n := &node{op: opInput, elem: elem, in: m}
	// The result of `x` alone is x's elements in dense logical order.
	n.meta, n.err = metadata.New(m.Shape(), m.DimNames(), nil)
	if n.err == nil && !fixedshape.ElemTypeOK(elem) && !fixedshape.BitElem(elem) {
		n.err = errorf("element type %v is not a tensor element type", elem)
		n.meta = metadata.Metadata{}
	}
	return n
}

// derive starts a node on operand x, inheriting x's error. A view
// operation after a computing one fails.
func derive(x Expr, o op) (*node, *node) {
	xn := x.node()
	n := &node{op: o, x: xn, elem: xn.elem, in: xn.in, err: xn.err, computes: xn.computes, reduced: xn.reduced}
	if n.err == nil && o <= opReshape && xn.computes {
		n.err = errorf("view operations come before computing ones (index, transpose or reshape x first)")
	}
	return n, xn
}

// inputElem returns the element type of the input of n's chain.
func (n *node) inputElem() arrow.DataType {
	for n.x != nil {
		n = n.x
	}
	return n.elem
}

// finish sets n's result from shape and names, or records err.
func (n *node) finish(shape []int, names []string, err error) Expr {
	if n.err != nil {
		return n
	}
	if err != nil {
		n.err = err
		return n
	}
	if !slices.ContainsFunc(names, func(s string) bool { return s != "" }) {
		names = nil // no axis named (none left): no names, as the engine's results
	}
	m, err := metadata.New(shape, names, nil)
	if err != nil {
		n.err = errorf("result %s: %v", metadata.FormatShape(shape), err)
		return n
	}
	n.meta = m
	return n
}

// Subscript returns x[items...]: NumPy basic indexing with slices,
// integers, new axes and at most one ellipsis (missing trailing items are
// full slices). The result is a view; dimension names follow their axes,
// new axes are named "".
func Subscript(x Expr, items ...Item) Expr {
	if isGraph(x) {
		return graphSuffix(x, gIndex, func(g *gnode) {
			g.items = slices.Clone(items)
			if g.items == nil {
				g.items = []Item{}
			}
		})
	}
	n, xn := derive(x, opIndex)
	n.items = slices.Clone(items)
	if n.items == nil {
		n.items = []Item{}
	}
	if n.err != nil {
		return n
	}
	sels, err := resolve(n.items, xn.meta.Shape())
	if err != nil {
		return n.finish(nil, nil, err)
	}
	var shape []int
	var names []string
	hasNames := xn.meta.HasDimNames()
	for _, s := range sels {
		if s.count < 0 {
			continue
		}
		shape = append(shape, s.count)
		if hasNames {
			name := ""
			if s.axis >= 0 {
				name = xn.meta.DimName(s.axis)
			}
			names = append(names, name)
		}
	}
	if hasNames && names == nil {
		names = []string{}
	}
	return n.finish(shape, names, nil)
}

// Slice returns x with axis sliced by start:stop:step (Span's semantics;
// Omit for an empty place), printed as `x[:, start:stop:step]`. A negative
// axis counts from the end.
func Slice(x Expr, axis, start, stop, step int) Expr {
	return axisItem(x, axis, Span(start, stop, step))
}

// Index returns x with axis replaced by its position i (negative i counts
// from the end); the axis is dropped. It prints as `x[:, i]`.
func Index(x Expr, axis, i int) Expr {
	return axisItem(x, axis, At(i))
}

func axisItem(x Expr, axis int, it Item) Expr {
	xn := x.node()
	if xn.err != nil {
		return Subscript(x, it)
	}
	nd := xn.meta.NDim()
	if axis < -nd || axis >= nd {
		n, _ := derive(x, opIndex)
		n.items = []Item{it}
		return n.finish(nil, nil, errorf("axis %d is out of bounds for array of dimension %d", axis, nd))
	}
	if axis < 0 {
		axis += nd
	}
	items := make([]Item, axis+1)
	items[axis] = it
	return Subscript(x, items...)
}

// Transpose returns x with its axes permuted: axis i of the result is axis
// perm[i] of x, as numpy.transpose(x, perm). Negative axes count from the
// end. Without perm it reverses the axes (`x.T`). The result is a view;
// names follow their axes.
func Transpose(x Expr, perm ...int) Expr {
	if isGraph(x) {
		return graphSuffix(x, gTranspose, func(g *gnode) {
			if len(perm) > 0 {
				g.ints = slices.Clone(perm)
			}
		})
	}
	n, xn := derive(x, opTranspose)
	if len(perm) > 0 {
		n.ints = slices.Clone(perm)
	}
	if n.err != nil {
		return n
	}
	p, err := resolvePerm(n.ints, xn.meta.NDim())
	if err != nil {
		return n.finish(nil, nil, err)
	}
	var names []string
	if xn.meta.HasDimNames() {
		names = stride.Gather(nil, xn.meta.DimNames(), p)
	}
	return n.finish(stride.Gather(nil, xn.meta.Shape(), p), names, nil)
}

// resolvePerm returns the permutation of nd axes that axes (as given to
// Transpose, nil for reversed) stands for.
func resolvePerm(axes []int, nd int) ([]int, error) {
	p := make([]int, nd)
	if axes == nil {
		for i := range p {
			p[i] = nd - 1 - i
		}
		return p, nil
	}
	if len(axes) != nd {
		return nil, errorf("axes don't match array")
	}
	seen := make([]bool, nd)
	for i, a := range axes {
		if a < -nd || a >= nd {
			return nil, errorf("axis %d is out of bounds for array of dimension %d", a, nd)
		}
		if a < 0 {
			a += nd
		}
		if seen[a] {
			return nil, errorf("repeated axis in transpose")
		}
		seen[a] = true
		p[i] = a
	}
	return p, nil
}

// Reshape returns x with the same elements in row-major (C) order under a
// new shape, as numpy.reshape(x, shape). One entry may be -1, inferred
// from the others; any other negative entry is an error. Names are kept
// when the reshape only adds or removes axes of size 1 (new ones named
// ""), and cleared otherwise. It is a view when NumPy's no-copy rule
// allows one and a materialization boundary otherwise (see CompilePlan).
func Reshape(x Expr, shape ...int) Expr {
	if isGraph(x) {
		return graphSuffix(x, gReshape, func(g *gnode) {
			g.ints = slices.Clone(shape)
			if g.ints == nil {
				g.ints = []int{}
			}
		})
	}
	n, xn := derive(x, opReshape)
	n.ints = slices.Clone(shape)
	if n.ints == nil {
		n.ints = []int{}
	}
	if n.err != nil {
		return n
	}
	old := xn.meta.Shape()
	newShape, err := resolveShape(n.ints, xn.meta.Size())
	if err != nil {
		return n.finish(nil, nil, err)
	}
	var names []string
	if xn.meta.HasDimNames() {
		names = reshapeNames(old, xn.meta.DimNames(), newShape)
	}
	return n.finish(newShape, names, nil)
}

// resolveShape infers the -1 of shape for size elements.
func resolveShape(shape []int, size int) ([]int, error) {
	out := slices.Clone(shape)
	unknown := -1
	known := 1
	for i, d := range shape {
		switch {
		case d == -1:
			if unknown >= 0 {
				return nil, errorf("can only specify one unknown dimension")
			}
			unknown = i
			continue
		case d < 0:
			return nil, errorf("negative dimensions are not allowed: %d in shape %s", d, formatReshape(shape))
		}
		k, ok := stride.MulCheck(known, d)
		if !ok {
			return nil, errorf("cannot reshape array of size %d into shape %s", size, formatReshape(shape))
		}
		known = k
	}
	if unknown >= 0 {
		if known == 0 || size%known != 0 {
			return nil, errorf("cannot reshape array of size %d into shape %s", size, formatReshape(shape))
		}
		out[unknown] = size / known
	} else if known != size {
		return nil, errorf("cannot reshape array of size %d into shape %s", size, formatReshape(shape))
	}
	return out, nil
}

// formatReshape prints a requested shape as NumPy does in its errors:
// `(4,)`, `(4,newaxis)` for a -1.
func formatReshape(shape []int) string {
	b := []byte{'('}
	for i, d := range shape {
		if i > 0 {
			b = append(b, ',')
		}
		if d == -1 {
			b = append(b, "newaxis"...)
		} else {
			b = strconv.AppendInt(b, int64(d), 10)
		}
	}
	if len(shape) == 1 {
		b = append(b, ',')
	}
	return string(append(b, ')'))
}

// reshapeNames carries names across a reshape that only adds or removes
// axes of size 1, and returns nil otherwise.
func reshapeNames(old []int, names []string, shape []int) []string {
	if slices.Equal(old, shape) {
		return names
	}
	var oi []int // old axes of size != 1
	for i, d := range old {
		if d != 1 {
			oi = append(oi, i)
		}
	}
	out := make([]string, len(shape))
	k := 0
	for i, d := range shape {
		if d == 1 {
			continue
		}
		if k >= len(oi) || old[oi[k]] != d {
			return nil
		}
		out[i] = names[oi[k]]
		k++
	}
	if k != len(oi) {
		return nil
	}
	return out
}

// Equal reports whether a and b are the same expression: the same input
// (element type and metadata; for graphs, the same columns) and the same
// operations with the same arguments as written. Expressions that only compute the same result,
// such as `x.T` and `x.transpose(1, 0)`, are not equal.
func Equal(a, b Expr) bool {
	x, y := a.node(), b.node()
	if x.g != nil || y.g != nil {
		return x.g != nil && y.g != nil && equalGraph(x.g, y.g)
	}
	for x != nil && y != nil {
		if x.op != y.op || !slices.Equal(x.items, y.items) || !slices.Equal(x.ints, y.ints) || (x.ints == nil) != (y.ints == nil) {
			return false
		}
		if x.op > opReshape && (x.dt != y.dt || x.bop != y.bop || x.left != y.left || !x.c.equal(y.c) || !x.c2.equal(y.c2) ||
			x.hasLo != y.hasLo || x.hasHi != y.hasHi || x.red != y.red || x.metric != y.metric || x.keep != y.keep || x.ddof != y.ddof ||
			!slices.Equal(x.axes, y.axes) || (x.axes == nil) != (y.axes == nil)) {
			return false
		}
		if x.op == opInput {
			return arrow.TypeEqual(x.elem, y.elem) && x.in.Equal(y.in)
		}
		x, y = x.x, y.x
	}
	return x == nil && y == nil
}
