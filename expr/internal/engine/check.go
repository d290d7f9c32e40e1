package engine

import (
	"math/bits"
	"slices"

	"github.com/fstensor/fstensor/search"
)

// maxElems bounds the elements of one row's tensor, and of a block: the
// byte size of any buffer then fits an int.
const maxElems = 1 << 40

// sizeOf returns the product of shape's sizes, or an error for a
// negative size or a product beyond maxElems.
func sizeOf(shape []int) (int, error) {
	n := uint64(1)
	for _, d := range shape {
		if d < 0 {
			return 0, errorf("shape %v has a negative size", shape)
		}
		hi, lo := bits.Mul64(n, uint64(d))
		if hi != 0 || lo > maxElems {
			return 0, errorf("shape %v overflows (more than 2^40 elements)", shape)
		}
		n = lo
	}
	return int(n), nil
}

// denseStrides returns the row-major element strides of shape.
func denseStrides(shape []int) []int {
	st := make([]int, len(shape))
	s := 1
	for i := len(shape) - 1; i >= 0; i-- {
		st[i] = s
		s *= shape[i]
	}
	return st
}

// broadcastShape returns NumPy's broadcast of shapes a and b.
func broadcastShape(a, b []int) ([]int, bool) {
	n := max(len(a), len(b))
	out := make([]int, n)
	for i := range n {
		x, y := dimFromEnd(a, n-1-i), dimFromEnd(b, n-1-i)
		switch {
		case x == y, y == 1:
			out[i] = x
		case x == 1:
			out[i] = y
		default:
			return nil, false
		}
	}
	return out, true
}

// dimFromEnd returns shape's size k axes from its last one, 1 beyond its
// first axis.
func dimFromEnd(shape []int, k int) int {
	if k < len(shape) {
		return shape[len(shape)-1-k]
	}
	return 1
}

var unaryNames = map[Fn]string{Neg: "negative", Abs: "abs", Sqrt: "sqrt", Square: "square", Exp: "exp",
	Log: "log", Log1p: "log1p", Expm1: "expm1", Tanh: "tanh", Floor: "floor", Ceil: "ceil",
	Round: "round", Sign: "sign", IsNaN: "isnan", IsFinite: "isfinite", Not: "invert"}

var binaryNames = map[Fn]string{Add: "add", Sub: "subtract", Mul: "multiply", Div: "true_divide",
	FloorDiv: "floor_divide", Mod: "remainder", Pow: "power", Minimum: "minimum", Maximum: "maximum",
	Less: "less", LessEqual: "less_equal", Greater: "greater", GreaterEqual: "greater_equal",
	Equal: "equal", NotEqual: "not_equal", And: "bitwise_and", Or: "bitwise_or", Xor: "bitwise_xor"}

var reduceNames = map[Fn]string{Sum: "sum", Mean: "mean", Min: "min", Max: "max", ArgMax: "argmax",
	ArgMin: "argmin", Norm: "norm", Var: "var", Std: "std", Any: "any", All: "all"}

func isCompare(f Fn) bool { return f >= Less && f <= NotEqual }

// checkUnary checks that fn applies to dtype d.
func checkUnary(f Fn, d DType) bool {
	switch f {
	case Not:
		return d == Bool || d.isInt()
	case Sqrt, Exp, Log, Log1p, Expm1, Tanh:
		return d.isFloat()
	case Neg, Abs, Square, Floor, Ceil, Round, Sign, IsNaN, IsFinite:
		return d != Bool
	}
	return false
}

// checkBinary checks that fn applies to operands of dtype d.
func checkBinary(f Fn, d DType) bool {
	switch f {
	case And, Or, Xor:
		return d == Bool || d.isInt()
	case Div:
		return d.isFloat()
	case Minimum, Maximum, Equal, NotEqual, Less, LessEqual, Greater, GreaterEqual:
		return true
	case Add, Sub, Mul, FloorDiv, Mod, Pow:
		return d != Bool
	}
	return false
}

// checkReduce checks fn's operand and result types.
func checkReduce(f Fn, in, out DType) bool {
	switch f {
	case Min, Max:
		return in == out
	case ArgMax, ArgMin:
		return out == Int64
	case Any, All:
		return out == Bool
	case Sum:
		return out != Bool
	case Mean, Norm, Var, Std:
		return out != Bool && (out.isFloat() || in == out)
	}
	return false
}

// checkNode checks one node whose arguments were checked.
func checkNode(n *Node, inputs []Input) error {
	if !n.DType.valid() {
		return errorf("node of op %v has invalid dtype %v", n.Op, n.DType)
	}
	size, err := sizeOf(n.Shape)
	if err != nil {
		return err
	}
	want := map[Op]int{OpInput: 0, OpConst: 0, OpView: 1, OpCast: 1, OpUnary: 1, OpBinary: 2,
		OpWhere: 3, OpReduce: 1, OpSimilarity: 2, OpMatMul: 2}
	if k, ok := want[n.Op]; ok && len(n.Args) != k {
		return errorf("op %v takes %d arguments, not %d", n.Op, k, len(n.Args))
	}
	for _, a := range n.Args {
		if a == nil {
			return errorf("op %v has a nil argument", n.Op)
		}
	}
	switch n.Op {
	case OpInput:
		if n.Input < 0 || n.Input >= len(inputs) {
			return errorf("input %d of %d inputs", n.Input, len(inputs))
		}
		in := inputs[n.Input]
		if in.DType != n.DType || !slices.Equal(in.Shape, n.Shape) {
			return errorf("input %d is %v %v, its node says %v %v", n.Input, in.DType, in.Shape, n.DType, n.Shape)
		}
	case OpConst:
		if len(n.Data) != size*n.DType.Width() {
			return errorf("constant %v %v holds %d bytes, not %d", n.DType, n.Shape, len(n.Data), size*n.DType.Width())
		}
		if n.DType == Bool {
			for _, b := range n.Data {
				if b > 1 {
					return errorf("bool constant holds byte %d", b)
				}
			}
		}
	case OpView:
		return checkView(n, size)
	case OpCast:
		return sameShape(n, n.Args[0])
	case OpUnary:
		return checkUnaryNode(n)
	case OpBinary, OpWhere:
		return checkBroadcast(n)
	case OpReduce:
		return checkReduceNode(n, size)
	case OpSimilarity:
		return checkSimilarity(n)
	case OpMatMul:
		return checkMatMul(n)
	case OpConcat:
		return checkConcat(n)
	default:
		return errorf("unknown op %v", n.Op)
	}
	return nil
}

func sameShape(n, a *Node) error {
	if !slices.Equal(n.Shape, a.Shape) {
		return errorf("op %v of shape %v has an operand of shape %v", n.Op, n.Shape, a.Shape)
	}
	return nil
}

func checkUnaryNode(n *Node) error {
	a := n.Args[0]
	want := a.DType
	if n.Fn == IsNaN || n.Fn == IsFinite {
		want = Bool
	}
	if _, ok := unaryNames[n.Fn]; !ok || !checkUnary(n.Fn, a.DType) || n.DType != want {
		return errorf("unary function %v of %v gives %v", n.Fn, a.DType, n.DType)
	}
	return sameShape(n, a)
}

func checkBroadcast(n *Node) error {
	args := n.Args
	if n.Op == OpWhere {
		if args[0].DType != Bool || args[1].DType != n.DType || args[2].DType != n.DType {
			return errorf("where of %v, %v, %v gives %v", args[0].DType, args[1].DType, args[2].DType, n.DType)
		}
	} else {
		d := args[0].DType
		want := d
		if isCompare(n.Fn) {
			want = Bool
		}
		if _, ok := binaryNames[n.Fn]; !ok || args[1].DType != d || !checkBinary(n.Fn, d) || n.DType != want {
			return errorf("binary function %v of %v and %v gives %v", n.Fn, d, args[1].DType, n.DType)
		}
	}
	shape := []int{}
	for _, a := range args {
		s, ok := broadcastShape(shape, a.Shape)
		if !ok {
			return errorf("shapes %v and %v do not broadcast", shape, a.Shape)
		}
		shape = s
	}
	if !slices.Equal(shape, n.Shape) {
		return errorf("operands broadcast to %v, the node says %v", shape, n.Shape)
	}
	return nil
}

func checkView(n *Node, size int) error {
	a := n.Args[0]
	if n.DType != a.DType || len(n.Strides) != len(n.Shape) {
		return errorf("view of %v with %d strides gives %v %v", a.DType, len(n.Strides), n.DType, n.Shape)
	}
	if size == 0 {
		return nil
	}
	asize, _ := sizeOf(a.Shape)
	lo, hi := int64(n.Offset), int64(n.Offset)
	for i, d := range n.Shape {
		s := int64(n.Strides[i])
		if s > maxElems || s < -maxElems {
			return errorf("view stride %d out of range", s)
		}
		span := s * int64(d-1)
		if span < 0 {
			lo += span
		} else {
			hi += span
		}
	}
	if lo < 0 || hi >= int64(asize) {
		return errorf("view offset %d strides %v shape %v reads elements %d..%d of %d", n.Offset, n.Strides, n.Shape, lo, hi, asize)
	}
	return nil
}

func checkReduceNode(n *Node, size int) error {
	a := n.Args[0]
	if _, ok := reduceNames[n.Fn]; !ok || !checkReduce(n.Fn, a.DType, n.DType) {
		return errorf("reduction %v of %v gives %v", n.Fn, a.DType, n.DType)
	}
	var shape []int
	reduced, prev := 1, -1
	for _, ax := range n.Axes {
		if ax <= prev || ax >= len(a.Shape) {
			return errorf("reduction axes %v of shape %v", n.Axes, a.Shape)
		}
		prev = ax
	}
	for i, d := range a.Shape {
		if slices.Contains(n.Axes, i) {
			reduced *= d
			if n.Keep {
				shape = append(shape, 1)
			}
			continue
		}
		shape = append(shape, d)
	}
	if !slices.Equal(shape, n.Shape) && !(len(shape) == 0 && len(n.Shape) == 0) {
		return errorf("reduction of %v over %v gives %v, the node says %v", a.Shape, n.Axes, shape, n.Shape)
	}
	if (n.Fn == ArgMax || n.Fn == ArgMin) && len(n.Axes) != 1 && len(n.Axes) != len(a.Shape) {
		return errorf("argmax or argmin over axes %v of %d", n.Axes, len(a.Shape))
	}
	if reduced == 0 && size > 0 && (n.Fn == Min || n.Fn == Max || n.Fn == ArgMax || n.Fn == ArgMin) {
		return errorf("reduction %s of an empty axis", reduceNames[n.Fn])
	}
	if n.Ddof < 0 {
		return errorf("ddof %d", n.Ddof)
	}
	return nil
}

func checkSimilarity(n *Node) error {
	a, b := n.Args[0], n.Args[1]
	if a.DType != b.DType || a.DType == Bool || n.DType == Bool || !slices.Equal(a.Shape, b.Shape) || len(n.Shape) != 0 {
		return errorf("similarity of %v %v and %v %v gives %v %v", a.DType, a.Shape, b.DType, b.Shape, n.DType, n.Shape)
	}
	switch n.Metric {
	case search.MetricDot, search.MetricCosine, search.MetricL2, search.MetricSquaredL2:
		return nil
	}
	return errorf("similarity metric %d", int(n.Metric))
}

func checkMatMul(n *Node) error {
	a, b := n.Args[0], n.Args[1]
	r := len(a.Shape)
	if a.DType != n.DType || b.DType != n.DType || n.DType == Bool || r < 2 || len(b.Shape) != r ||
		!slices.Equal(a.Shape[:r-2], b.Shape[:r-2]) || a.Shape[r-1] != b.Shape[r-2] {
		return errorf("matmul of %v %v and %v %v", a.DType, a.Shape, b.DType, b.Shape)
	}
	want := append(slices.Clone(a.Shape[:r-1]), b.Shape[r-1])
	if !slices.Equal(want, n.Shape) {
		return errorf("matmul of %v and %v gives %v, the node says %v", a.Shape, b.Shape, want, n.Shape)
	}
	return nil
}

func checkConcat(n *Node) error {
	if len(n.Args) == 0 || n.Axis < 0 || n.Axis >= len(n.Shape) {
		return errorf("concat of %d operands on axis %d of %v", len(n.Args), n.Axis, n.Shape)
	}
	total := 0
	for _, a := range n.Args {
		if a.DType != n.DType || len(a.Shape) != len(n.Shape) {
			return errorf("concat of %v %v into %v %v", a.DType, a.Shape, n.DType, n.Shape)
		}
		for i, d := range a.Shape {
			if i != n.Axis && d != n.Shape[i] {
				return errorf("concat of %v into %v on axis %d", a.Shape, n.Shape, n.Axis)
			}
		}
		total += a.Shape[n.Axis]
	}
	if total != n.Shape[n.Axis] {
		return errorf("concat on axis %d gives size %d, the node says %d", n.Axis, total, n.Shape[n.Axis])
	}
	return nil
}
