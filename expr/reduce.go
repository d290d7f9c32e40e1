package expr

import (
	"slices"

	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/search"
)

// Reduction is a reduction of Reduce.
type Reduction uint8

// The reductions, with NumPy's result types: Sum gives int64 for signed
// and uint64 for unsigned integers and keeps floats; Mean and Norm give
// float64 for integers and keep floats; Min and Max keep the type; ArgMax
// and ArgMin give int64 positions. Norm is the L2 norm,
// sqrt(sum(x*x)), as numpy.linalg.norm. Var is the variance
// sum(|x - mean|^2) / (N - ddof) of the N elements reduced into each
// result (ddof 0 unless given, see ReduceDdof) and Std its square root,
// as numpy.var and numpy.std; both give float64 for integers and keep
// floats.
const (
	Sum Reduction = iota
	Mean
	Min
	Max
	ArgMax
	ArgMin
	Norm
	Var
	Std
	// AnyTrue and AllTrue (bool results) are NumPy's any and all: whether an
	// element, or every element, is non-zero. They make graph
	// expressions (see Compile).
	AnyTrue
	AllTrue
)

var reductionNames = [...]string{Sum: "sum", Mean: "mean", Min: "min", Max: "max", ArgMax: "argmax", ArgMin: "argmin", Norm: "norm", Var: "var", Std: "std", AnyTrue: "any", AllTrue: "all"}

// numpyNames are the names NumPy's errors give the reductions.
var numpyNames = [...]string{Min: "minimum", Max: "maximum", ArgMax: "argmax", ArgMin: "argmin"}

// String returns the reduction's NumPy name.
func (r Reduction) String() string {
	if int(r) < len(reductionNames) {
		return reductionNames[r]
	}
	return "?"
}

// Reduce returns the reduction r of x over the given axes of each tensor
// (logical axes of one tensor; negative ones count from the end): all
// axes when axes is nil (NumPy's axis=None), none for an empty non-nil
// slice (axis=()). With keepdims the reduced axes stay, with size 1.
// ArgMax and ArgMin take one axis or all (they return the position in
// row-major order over all axes); Norm takes one axis, two (the
// Frobenius norm of those matrices, equal to the L2 norm of their
// elements) or all (the L2 norm of the flattened tensor), as
// numpy.linalg.norm with its default ord. A result with no axes left is one value
// per tensor (see ResultType).
//
// Sums accumulate floats in float64 (float16 and float32 too) with
// pairwise summation along the innermost axis, so they are at least as
// accurate as NumPy's; integer sums wrap around in 64 bits. Min and Max
// propagate NaN; ArgMax and ArgMin return the first NaN's position, and
// the first position of the extreme on ties. An empty sum is 0, an empty
// mean NaN; an empty Min, Max, ArgMax or ArgMin fails Check with NumPy's
// words. Bad axes fail Check too.
//
// Var and Std (with ddof 0 here) are two-pass accurate: each slot keeps
// its count, the mean and the sum of squared deviations of its elements
// shifted by the first one, in float64, updated run by run (the mean of
// a contiguous run first, then its squared deviations, merged with Chan's
// formula) or element by element (Welford's update). They are at least as
// accurate as NumPy's two passes, also for data far from 0 such as
// 1e8 + small noise. NaN propagates; an empty reduction is NaN, and so is
// N - ddof <= 0 when the squared deviations sum to 0 (+Inf when they do
// not), as NumPy's values.
func Reduce(x Expr, r Reduction, keepdims bool, axes ...int) Expr {
	return ReduceDdof(x, r, 0, keepdims, axes...)
}

// ReduceDdof is Reduce with the delta degrees of freedom of Var and Std
// (NumPy's ddof=): their divisor is N - ddof for N elements reduced into
// each result. A ddof other than 0 for another reduction, or a negative
// one, fails Check.
func ReduceDdof(x Expr, r Reduction, ddof int, keepdims bool, axes ...int) Expr {
	if isGraph(x) || r == AnyTrue || r == AllTrue {
		return graphSuffix(x, gReduce, func(g *gnode) {
			g.red, g.ddof, g.keep = r, ddof, keepdims
			if axes != nil {
				g.axes = slices.Clone(axes)
			}
		})
	}
	n, xn := deriveCompute(x, opReduce)
	n.red, n.keep, n.ddof = r, keepdims, ddof
	if axes != nil {
		n.axes = slices.Clone(axes)
	}
	if n.err != nil {
		return n
	}
	if r > AllTrue {
		return n.fail(errorf("unknown reduction %d", r))
	}
	if ddof != 0 && r != Var && r != Std {
		return n.fail(errorf("%s() got an unexpected keyword argument 'ddof'", r))
	}
	if ddof < 0 {
		return n.fail(errorf("ddof must be a non-negative integer, not %d", ddof))
	}
	if xn.reduced {
		return n.fail(errorf("an expression reduces once: %s follows a reduction", r))
	}
	n.reduced = true
	shape := xn.meta.Shape()
	if r == Norm && n.axes != nil && (len(n.axes) == 0 || len(n.axes) > 2) {
		return n.fail(errorf("Improper number of dimensions to norm."))
	}
	if nd := len(shape); r == Norm && len(n.axes) == 2 {
		a, b := n.axes[0], n.axes[1]
		if a >= -nd && a < nd && b >= -nd && b < nd && (a+nd)%nd == (b+nd)%nd {
			return n.fail(errorf("Duplicate axes given."))
		}
	}
	red, err := reducedAxes(n.axes, len(shape))
	if err != nil {
		return n.fail(err)
	}
	if (r == ArgMax || r == ArgMin) && len(n.axes) > 1 {
		return n.fail(errorf("'tuple' object cannot be interpreted as an integer"))
	}
	count := 1
	for a, on := range red {
		if on {
			count *= shape[a]
		}
	}
	if count == 0 {
		switch r {
		case Min, Max:
			return n.fail(errorf("zero-size array to reduction operation %s which has no identity", numpyNames[r]))
		case ArgMax, ArgMin:
			return n.fail(errorf("attempt to get %s of an empty sequence", numpyNames[r]))
		}
	}
	a := dtypeOf(xn.elem)
	switch r {
	case Sum:
		n.dt = sumType(a)
	case Mean, Norm, Var, Std:
		n.dt = meanType(a)
	case ArgMax, ArgMin:
		n.dt = dtI64
	default:
		n.dt = a
	}
	var out []int
	var names []string
	for ax, d := range shape {
		switch {
		case !red[ax]:
			out = append(out, d)
		case keepdims:
			out = append(out, 1)
		default:
			continue
		}
		if xn.meta.HasDimNames() {
			names = append(names, xn.meta.DimName(ax))
		}
	}
	if xn.meta.HasDimNames() && names == nil {
		names = []string{}
	}
	return n.computed(out, names)
}

// reducedAxes returns which of nd axes axes (nil: all) names, with
// NumPy's errors for an axis out of bounds or named twice.
func reducedAxes(axes []int, nd int) ([]bool, error) {
	red := make([]bool, nd)
	if axes == nil {
		for i := range red {
			red[i] = true
		}
		return red, nil
	}
	for _, a := range axes {
		if a < -nd || a >= nd {
			return nil, errorf("axis %d is out of bounds for array of dimension %d", a, nd)
		}
		if a < 0 {
			a += nd
		}
		if red[a] {
			return nil, errorf("duplicate value in 'axis'")
		}
		red[a] = true
	}
	return red, nil
}

// Similarity returns the metric m between each tensor of x and the
// constant c, one value per tensor. c broadcasts against x by NumPy's
// rules (a (768,) query against (768,) embeddings, a (3,) per-channel
// vector against (h, w, 3) images). The result is float64 unless x and c
// promote to a float type, which it keeps. The sums accumulate as package
// search's do, with its kernels and formulas, so that a similarity has
// the bits of search.Rowwise and of the command's search (rounded to the
// result type): in float32 (32 partial sums, an error of about
// (n/32 + 5) * 2^-24 * sum |x_i c_i|) when x holds float16 or float32
// values and c promotes with them to float16 or float32, in float64
// otherwise (integers included). For float64 accumulation of float32
// tensors, make one side float64: dot(x.astype(float64), c) or a list
// constant such as [0.5, 1.5], which is float64.
// Dot of an integer x with an integer c is NumPy's (x * c).sum(): the
// products wrap around in the type x and c promote to (a Python integer
// c is weak, so it must fit x's type) and the sum, int64 or uint64,
// wraps around in 64 bits.
func Similarity(x Expr, m search.Metric, c Const) Expr {
	if isGraph(x) {
		return SimilarityOf(x, m, Lit(c))
	}
	n, xn := deriveCompute(x, opSim)
	n.metric, n.c = m, c
	if n.err != nil {
		return n
	}
	if m < search.MetricDot || m > search.MetricSquaredL2 {
		return n.fail(errorf("unknown metric %d", m))
	}
	if c.err != nil {
		return n.fail(c.err)
	}
	if xn.reduced {
		return n.fail(errorf("an expression reduces once: %s follows a reduction", m))
	}
	n.reduced = true
	a := dtypeOf(xn.elem)
	p := promoteWeak(a, c.weak)
	if !c.scalar() {
		p = promote(a, c.dt)
		if _, ok := broadcast(xn.meta.Shape(), c.shape); !ok {
			return n.fail(errorf("operands could not be broadcast together with shapes %s %s ", metadata.FormatShape(xn.meta.Shape()), metadata.FormatShape(c.shape)))
		}
	}
	n.dt = meanType(p)
	if m == search.MetricDot && !p.float() {
		// NumPy's (x * c).sum(): the products wrap around in the promoted
		// integer type, the sum in 64 bits.
		if c.weak == weakInt && !p.fits(c.i[0]) {
			return n.fail(errorf("Python integer %d out of bounds for %s", c.i[0], p))
		}
		n.dt = sumType(p)
	}
	return n.computed([]int{}, nil)
}
