package expr

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/expr/internal/engine"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/search"
	"github.com/fstensor/fstensor/stride"
)

// unaryFns are the engine functions of the Funcs.
var unaryFns = [...]engine.Fn{Negative: engine.Neg, Invert: engine.Not, Exp: engine.Exp, Log: engine.Log,
	Log1p: engine.Log1p, Expm1: engine.Expm1, Tanh: engine.Tanh, Floor: engine.Floor, Ceil: engine.Ceil,
	Round: engine.Round, Sign: engine.Sign, Square: engine.Square, IsNaN: engine.IsNaN, IsFinite: engine.IsFinite,
	fnAbs: engine.Abs, fnSqrt: engine.Sqrt}

// unaryNode returns the node of engine function fn of x, of type t.
func unaryNode(fn engine.Fn, x *engine.Node, t engine.DType) *engine.Node {
	return &engine.Node{Op: engine.OpUnary, Fn: fn, Args: []*engine.Node{x}, DType: t, Shape: x.Shape}
}

// unary lowers a Func: NumPy's loops decide the type (the float
// functions of integers compute in the smallest float that holds them;
// floor, ceil and round of integers are the integers).
func (l *lowerer) unary(g *gnode) (val, error) {
	v, err := l.lower(g.args[0])
	if err != nil {
		return val{}, err
	}
	if g.fn < Negative || g.fn > fnSqrt {
		return val{}, l.errorf(g, "unknown function %d", g.fn)
	}
	if v.n == nil && g.fn == Negative {
		c := v.w
		if c.weak == weakInt {
			c.i = []int64{-c.i[0]}
		} else {
			c.f = []float64{-c.f[0]}
		}
		return val{w: c}, nil
	}
	x := l.materialize(v)
	t := x.DType
	fn := unaryFns[g.fn]
	switch g.fn {
	case Negative:
		if t == engine.Bool {
			return val{}, l.errorf(g, "The numpy boolean negative, the `-` operator, is not supported, use the `~` operator or the logical_not function instead.")
		}
	case Invert:
		if isFloat(t) {
			return val{}, l.errorf(g, "ufunc 'invert' not supported for the input types, and the inputs could not be safely coerced to any supported types according to the casting rule ''safe''")
		}
	case Exp, Log, Log1p, Expm1, Tanh, fnSqrt:
		if t == engine.Bool {
			x = castTo(x, engine.Float16)
		} else {
			x = castTo(x, etype(sqrtType(dtOf(t))))
		}
	case Floor, Ceil:
		if !isFloat(t) {
			return val{n: x}, nil
		}
	case Round:
		if t == engine.Bool {
			return val{n: castTo(x, engine.Float16)}, nil
		}
		if !isFloat(t) {
			return val{n: x}, nil
		}
	case Sign:
		if t == engine.Bool {
			return val{}, l.errorf(g, "ufunc 'sign' did not contain a loop with signature matching types <class 'numpy.dtypes.BoolDType'> -> None")
		}
	case Square:
		if t == engine.Bool {
			x = castTo(x, engine.Int8)
		}
	case fnAbs:
		if t == engine.Bool || dtOf(t).unsigned() {
			return val{n: x}, nil
		}
	case IsNaN, IsFinite:
		if !isFloat(t) {
			x = castTo(x, engine.Float64)
		}
		return val{n: unaryNode(fn, x, engine.Bool)}, nil
	}
	return val{n: unaryNode(fn, x, x.DType)}, nil
}

// binaryFns are the engine functions of the BinaryOps.
var binaryFns = [...]engine.Fn{Add: engine.Add, Sub: engine.Sub, Mul: engine.Mul, Div: engine.Div,
	FloorDiv: engine.FloorDiv, Mod: engine.Mod, Pow: engine.Pow, Lt: engine.Less, Le: engine.LessEqual,
	Gt: engine.Greater, Ge: engine.GreaterEqual, Eq: engine.Equal, Ne: engine.NotEqual, And: engine.And,
	Or: engine.Or, Xor: engine.Xor, Minimum: engine.Minimum, Maximum: engine.Maximum}

var bitwiseNames = [...]string{And: "bitwise_and", Or: "bitwise_or", Xor: "bitwise_xor"}

func isCompare(op BinaryOp) bool { return op >= Lt && op <= Ne }

// operandType returns the type a Python scalar w takes next to an array
// of type t under op (NEP 50), or an error in NumPy's words.
func (l *lowerer) operandType(g *gnode, op BinaryOp, t engine.DType, w Const) (engine.DType, error) {
	switch {
	case t == engine.Bool && w.weak == weakInt:
		return engine.Int64, nil
	case t == engine.Bool || w.weak == weakFloat && !isFloat(t):
		return engine.Float64, nil
	case w.weak == weakInt && !isFloat(t) && !dtOf(t).fits(w.i[0]):
		if !isCompare(op) {
			return 0, l.errorf(g, "Python integer %d out of bounds for %s", w.i[0], typeName(t))
		}
		// NumPy 2 compares out-of-range integers exactly.
		if t == engine.Uint64 {
			return engine.Float64, nil
		}
		return engine.Int64, nil
	}
	return t, nil
}

// binary lowers a BinaryOp: NumPy's promotion, then its loop's rules.
func (l *lowerer) binary(g *gnode) (val, error) {
	op := g.bop
	if op > Maximum {
		return val{}, l.errorf(g, "unknown operator %d", op)
	}
	a, err := l.lower(g.args[0])
	if err != nil {
		return val{}, err
	}
	b, err := l.lower(g.args[1])
	if err != nil {
		return val{}, err
	}
	var t engine.DType
	switch {
	case a.n == nil && b.n == nil:
		return val{}, l.errAt(g, arrow.ErrNotImplemented, "operations between constants are not supported")
	case a.n == nil:
		t, err = l.operandType(g, op, b.n.DType, a.w)
	case b.n == nil:
		t, err = l.operandType(g, op, a.n.DType, b.w)
	default:
		t = promoteTypes(a.n.DType, b.n.DType)
	}
	if err != nil {
		return val{}, err
	}
	fn := binaryFns[op]
	switch op {
	case Div:
		if !isFloat(t) {
			t = engine.Float64
		}
	case Sub:
		if t == engine.Bool {
			return val{}, l.errorf(g, "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` operator, or the logical_xor function instead.")
		}
	case Add, Maximum:
		if t == engine.Bool {
			fn = engine.Or
		}
	case Mul, Minimum:
		if t == engine.Bool {
			fn = engine.And
		}
	case FloorDiv, Mod, Pow:
		if t == engine.Bool {
			t = engine.Int8
		}
	case And, Or, Xor:
		if isFloat(t) {
			return val{}, l.errorf(g, "ufunc '%s' not supported for the input types, and the inputs could not be safely coerced to any supported types according to the casting rule ''safe''", bitwiseNames[op])
		}
	}
	x, y := l.typed(a, t), l.typed(b, t)
	shape, ok := broadcast(x.Shape, y.Shape)
	if !ok {
		return val{}, l.errorf(g, "operands could not be broadcast together with shapes %s %s ", metadata.FormatShape(x.Shape), metadata.FormatShape(y.Shape))
	}
	rt := t
	if isCompare(op) {
		rt = engine.Bool
	}
	return val{n: &engine.Node{Op: engine.OpBinary, Fn: fn, Args: []*engine.Node{x, y}, DType: rt, Shape: shape}}, nil
}

// typed returns v in type t.
func (l *lowerer) typed(v val, t engine.DType) *engine.Node {
	if v.n == nil {
		return constNode(v.w, t)
	}
	return castTo(v.n, t)
}

// where lowers where(cond, a, b).
func (l *lowerer) where(g *gnode) (*engine.Node, error) {
	var vs [3]val
	for i := range vs {
		v, err := l.lower(g.args[i])
		if err != nil {
			return nil, err
		}
		vs[i] = v
	}
	cond := castTo(l.materialize(vs[0]), engine.Bool)
	a, b := vs[1], vs[2]
	var t engine.DType
	var err error
	switch {
	case a.n == nil && b.n == nil:
		t = l.materialize(a).DType
		if b.w.weak == weakFloat {
			t = engine.Float64
		}
	case a.n == nil:
		t, err = l.operandType(g, Add, b.n.DType, a.w)
	case b.n == nil:
		t, err = l.operandType(g, Add, a.n.DType, b.w)
	default:
		t = promoteTypes(a.n.DType, b.n.DType)
	}
	if err != nil {
		return nil, err
	}
	x, y := l.typed(a, t), l.typed(b, t)
	s1, ok1 := broadcast(cond.Shape, x.Shape)
	shape, ok2 := broadcast(s1, y.Shape)
	if !ok1 || !ok2 {
		return nil, l.errorf(g, "operands could not be broadcast together with shapes %s %s %s ", metadata.FormatShape(cond.Shape), metadata.FormatShape(x.Shape), metadata.FormatShape(y.Shape))
	}
	return &engine.Node{Op: engine.OpWhere, Args: []*engine.Node{cond, x, y}, DType: t, Shape: shape}, nil
}

// clip lowers x.clip(lo, hi): minimum(maximum(x, lo), hi), an integer
// bound beyond an integer tensor's range leaving that side unbounded.
func (l *lowerer) clip(g *gnode) (*engine.Node, error) {
	x, err := l.node(g.args[0])
	if err != nil {
		return nil, err
	}
	t := x.DType
	bounds := []Const{}
	for _, b := range []struct {
		c   Const
		has bool
	}{{g.c, g.hasLo}, {g.c2, g.hasHi}} {
		if b.has && !b.c.scalar() {
			return nil, l.errorf(g, "clip bounds must be numbers or None")
		}
		if b.has && b.c.weak == weakInt && !isFloat(t) && t != engine.Bool && !dtOf(t).fits(b.c.i[0]) {
			b.has = false
		}
		if b.has {
			if bt, err := l.operandType(g, Add, x.DType, b.c); err == nil {
				t = promoteTypes(t, bt)
			}
		}
		bounds = append(bounds, b.c)
		if !b.has {
			bounds[len(bounds)-1].weak = weakNone
		}
	}
	x = castTo(x, t)
	for i, fn := range []engine.Fn{engine.Maximum, engine.Minimum} {
		if bounds[i].weak == weakNone {
			continue
		}
		c := constNode(bounds[i], t)
		x = &engine.Node{Op: engine.OpBinary, Fn: fn, Args: []*engine.Node{x, c}, DType: t, Shape: x.Shape}
	}
	return x, nil
}

// reduceFns are the engine functions of the Reductions.
var reduceFns = [...]engine.Fn{Sum: engine.Sum, Mean: engine.Mean, Min: engine.Min, Max: engine.Max,
	ArgMax: engine.ArgMax, ArgMin: engine.ArgMin, Norm: engine.Norm, Var: engine.Var, Std: engine.Std,
	AnyTrue: engine.Any, AllTrue: engine.All}

// reduce lowers a reduction, with NumPy's errors and result types.
func (l *lowerer) reduce(g *gnode) (*engine.Node, error) {
	x, err := l.node(g.args[0])
	if err != nil {
		return nil, err
	}
	r := g.red
	switch {
	case r > AllTrue:
		return nil, l.errorf(g, "unknown reduction %d", r)
	case g.ddof != 0 && r != Var && r != Std:
		return nil, l.errorf(g, "%s() got an unexpected keyword argument 'ddof'", r)
	case g.ddof < 0:
		return nil, l.errorf(g, "ddof must be a non-negative integer, not %d", g.ddof)
	case r == Norm && g.axes != nil && (len(g.axes) == 0 || len(g.axes) > 2):
		return nil, l.errorf(g, "Improper number of dimensions to norm.")
	case (r == ArgMax || r == ArgMin) && len(g.axes) > 1:
		return nil, l.errorf(g, "'tuple' object cannot be interpreted as an integer")
	}
	nd := len(x.Shape)
	if r == Norm && len(g.axes) == 2 {
		a, b := g.axes[0], g.axes[1]
		if a >= -nd && a < nd && b >= -nd && b < nd && (a+nd)%nd == (b+nd)%nd {
			return nil, l.errorf(g, "Duplicate axes given.")
		}
	}
	red, err := reducedAxes(g.axes, nd)
	if err != nil {
		return nil, l.errorf(g, "%s", errMsg(err))
	}
	var axes, shape []int
	count := 1
	for a, on := range red {
		switch {
		case on:
			axes = append(axes, a)
			count *= x.Shape[a]
			if g.keep {
				shape = append(shape, 1)
			}
		default:
			shape = append(shape, x.Shape[a])
		}
	}
	if count == 0 {
		switch r {
		case Min, Max:
			return nil, l.errorf(g, "zero-size array to reduction operation %s which has no identity", numpyNames[r])
		case ArgMax, ArgMin:
			return nil, l.errorf(g, "attempt to get %s of an empty sequence", numpyNames[r])
		}
	}
	if shape == nil {
		shape = []int{}
	}
	if axes == nil {
		axes = []int{}
	}
	fn, t := reduceFns[r], x.DType
	switch {
	case r == AnyTrue || r == AllTrue:
		x, t = castTo(x, engine.Bool), engine.Bool
	case t == engine.Bool && (r == Min || r == Max):
		fn = map[Reduction]engine.Fn{Min: engine.All, Max: engine.Any}[r]
	case t == engine.Bool:
		x, t = castTo(x, engine.Int8), engine.Int8
	}
	switch r {
	case Sum:
		if !isFloat(t) {
			t = etype(sumType(dtOf(t)))
		}
	case Mean, Norm, Var, Std:
		if !isFloat(t) {
			t = engine.Float64
		}
	case ArgMax, ArgMin:
		t = engine.Int64
	}
	if count == 0 {
		return emptyReduction(x, r, t, shape), nil
	}
	return &engine.Node{Op: engine.OpReduce, Fn: fn, Args: []*engine.Node{x}, DType: t, Shape: shape, Axes: axes, Keep: g.keep, Ddof: g.ddof}, nil
}

// emptyReduction is the result of reducing no element of x: NumPy's 0
// of a sum and a norm, NaN of a mean, a var and a std, False of any,
// True of all. It is a constant selected by a condition that is always
// true but reads an element of each input x reads, so that a row where
// one is null stays null.
func emptyReduction(x *engine.Node, r Reduction, t engine.DType, shape []int) *engine.Node {
	v := 0.0
	switch r {
	case Mean, Var, Std:
		v = engine.EmptyNaN()
	case AllTrue:
		v = 1
	}
	n := 1
	for _, d := range shape {
		n *= d
	}
	vals := make([]float64, n)
	for i := range vals {
		vals[i] = v
	}
	c := constNode(Floats(shape, vals...), t)
	for _, in := range inputsOf(x, nil, map[*engine.Node]bool{}) {
		if n, _ := stride.NumElements(in.Shape); n == 0 {
			continue
		}
		e := castTo(newView(in, 0, []int{}, []int{}), engine.Bool)
		not := unaryNode(engine.Not, e, engine.Bool)
		always := &engine.Node{Op: engine.OpBinary, Fn: engine.Or, Args: []*engine.Node{e, not}, DType: engine.Bool, Shape: []int{}}
		c = &engine.Node{Op: engine.OpWhere, Args: []*engine.Node{always, c, c}, DType: t, Shape: slices.Clone(shape)}
	}
	return c
}

// inputsOf appends the input nodes x reads to dst.
func inputsOf(x *engine.Node, dst []*engine.Node, seen map[*engine.Node]bool) []*engine.Node {
	if seen[x] {
		return dst
	}
	seen[x] = true
	if x.Op == engine.OpInput {
		return append(dst, x)
	}
	for _, a := range x.Args {
		dst = inputsOf(a, dst, seen)
	}
	return dst
}

// similarity lowers dot, cosine, l2, sqeuclidean of two tensors (or a
// tensor and a constant) of shapes that broadcast, over all their axes:
// in their promoted float type, float64 for integers, except dot of
// integers, NumPy's (a * b).sum().
func (l *lowerer) similarity(g *gnode) (*engine.Node, error) {
	if g.metric < search.MetricDot || g.metric > search.MetricSquaredL2 {
		return nil, l.errorf(g, "unknown metric %d", g.metric)
	}
	a, err := l.lower(g.args[0])
	if err != nil {
		return nil, err
	}
	b, err := l.lower(g.args[1])
	if err != nil {
		return nil, err
	}
	var t engine.DType
	switch {
	case a.n == nil && b.n == nil:
		return nil, l.errAt(g, arrow.ErrNotImplemented, "operations between constants are not supported")
	case a.n == nil:
		t, err = l.operandType(g, Mul, b.n.DType, a.w)
	case b.n == nil:
		t, err = l.operandType(g, Mul, a.n.DType, b.w)
	default:
		t = promoteTypes(a.n.DType, b.n.DType)
	}
	if err != nil {
		return nil, err
	}
	if t == engine.Bool {
		t = engine.Int8
	}
	x, y := l.typed(a, t), l.typed(b, t)
	shape, ok := broadcast(x.Shape, y.Shape)
	if !ok {
		return nil, l.errorf(g, "operands could not be broadcast together with shapes %s %s ", metadata.FormatShape(x.Shape), metadata.FormatShape(y.Shape))
	}
	if !isFloat(t) && g.metric == search.MetricDot {
		p := &engine.Node{Op: engine.OpBinary, Fn: engine.Mul, Args: []*engine.Node{x, y}, DType: t, Shape: shape}
		axes := make([]int, len(shape))
		for i := range axes {
			axes[i] = i
		}
		return &engine.Node{Op: engine.OpReduce, Fn: engine.Sum, Args: []*engine.Node{p}, DType: etype(sumType(dtOf(t))), Shape: []int{}, Axes: axes}, nil
	}
	if !isFloat(t) {
		t = engine.Float64
		x, y = castTo(x, t), castTo(y, t)
	}
	x, y = broadcastTo(x, shape), broadcastTo(y, slices.Clone(shape))
	return &engine.Node{Op: engine.OpSimilarity, Metric: g.metric, Args: []*engine.Node{x, y}, DType: t, Shape: []int{}}, nil
}
