package engine

import (
	"math"

	"github.com/fstensor/fstensor/internal/half"
	"github.com/fstensor/fstensor/internal/numeric"
)

// rplan is a Reduce node's iteration: the kept axes of the operand with
// their element strides and the result's, and the reduced axes with the
// operand's strides.
type rplan struct {
	keptDims, keptSt, outSt []int
	redDims, redSt          []int
	count                   int // elements reduced into one result
	// acc tells that the reduction runs by accumulation (reduce_acc.go),
	// over the operand's dense strides inSt, each element into the
	// result at its accSt offset.
	acc         bool
	inSt, accSt []int
	// trailing tells that the reduced axes come after the kept ones
	// (axes of size 1 aside): each result reduces count consecutive
	// elements, the next result's follow.
	trailing bool
	// period, when above 0, tells that the reduced axes of an
	// accumulation come before the kept ones: a row of the operand is
	// count runs of period elements, each feeding results 0 to
	// period-1 in order.
	period int
}

func newRplan(n *Node) *rplan {
	a := n.Args[0]
	st := denseStrides(a.Shape)
	pl := &rplan{count: 1}
	for i, d := range a.Shape {
		reduced := false
		for _, ax := range n.Axes {
			reduced = reduced || ax == i
		}
		if reduced {
			pl.redDims = append(pl.redDims, d)
			pl.redSt = append(pl.redSt, st[i])
			pl.count *= d
		} else {
			pl.keptDims = append(pl.keptDims, d)
			pl.keptSt = append(pl.keptSt, st[i])
		}
	}
	pl.outSt = denseStrides(pl.keptDims)
	pl.trailing = axesInOrder(n, false)
	if accumulates(n, pl) {
		pl.acc, pl.inSt, pl.accSt = true, st, accStrides(n, pl)
		pl.period = periodOf(n, pl)
	}
	return pl
}

// zero is 0, kept in a variable so that EmptyNaN divides at run time.
var zero float64

// EmptyNaN returns 0.0 / 0.0 as this machine divides it: NumPy's mean,
// var and std of no element (a NaN with the sign bit set on amd64, as
// its division instruction makes it).
func EmptyNaN() float64 { return zero / zero }

// result is one reduced value: a float, or an integer (its bits; uint64
// values too) when isInt.
type result struct {
	f     float64
	i     int64
	isInt bool
}

// store writes r as element j of d, of type dt.
func (r result) store(d []byte, dt DType, j int) {
	if r.isInt {
		switch dt {
		case Float16, Float32, Float64:
			f := float64(r.i)
			if dt == Float16 {
				as[uint16](d)[j] = half.FromFloat64(f)
			} else if dt == Float32 {
				as[float32](d)[j] = float32(f)
			} else {
				as[float64](d)[j] = f
			}
			return
		}
		storeInt(d, dt, j, r.i)
		return
	}
	switch dt {
	case Float16:
		as[uint16](d)[j] = half.FromFloat64(r.f)
	case Float32:
		as[float32](d)[j] = float32(r.f)
	case Float64:
		as[float64](d)[j] = r.f
	case Bool:
		d[j] = b2u(r.f != 0)
	case Uint64:
		as[uint64](d)[j] = satOf[uint64]().conv(r.f)
	default:
		storeInt(d, dt, j, satOf[int64]().conv(r.f))
	}
}

func storeInt(d []byte, dt DType, j int, v int64) {
	switch dt {
	case Bool:
		d[j] = b2u(v != 0)
	case Int8, Uint8:
		d[j] = uint8(v)
	case Int16, Uint16:
		as[uint16](d)[j] = uint16(v)
	case Int32, Uint32:
		as[uint32](d)[j] = uint32(v)
	case Int64, Uint64:
		as[uint64](d)[j] = uint64(v)
	}
}

// reduceVec reduces the values v by fn.
func reduceVec[T number](fn Fn, ddof int, v []T) result {
	isF := isFloatT[T]()
	switch fn {
	case Sum:
		if isF {
			return result{f: sumF(v)}
		}
		var s int64
		for _, x := range v {
			s += int64(x)
		}
		return result{i: s, isInt: true}
	case Mean:
		return result{f: sumF(v) / float64(len(v))}
	case Min, Max:
		return extreme(fn == Max, v)
	case ArgMax, ArgMin:
		return result{i: int64(argExtreme(fn == ArgMax, v)), isInt: true}
	case Norm:
		return result{f: math.Sqrt(sumSq(v))}
	case Var, Std:
		r := variance(v, ddof)
		if fn == Std {
			r = math.Sqrt(r)
		}
		return result{f: r}
	case Any:
		for _, x := range v {
			if x != 0 {
				return result{f: 1}
			}
		}
		return result{}
	case All:
		for _, x := range v {
			if x == 0 {
				return result{}
			}
		}
		return result{f: 1}
	}
	return result{}
}

// sumF adds v in float64, pairwise for floats as numeric does.
func sumF[T number](v []T) float64 {
	switch s := any(v).(type) {
	case []float32:
		return numeric.SumF32(s)
	case []float64:
		return numeric.SumF64(s)
	}
	var f float64
	for _, x := range v {
		f += float64(x)
	}
	return f
}

func sumSq[T number](v []T) float64 {
	switch s := any(v).(type) {
	case []float32:
		return numeric.SumSqF32(s)
	case []float64:
		return numeric.SumSqDevF64(s, 0)
	}
	var f float64
	for _, x := range v {
		f += float64(x) * float64(x)
	}
	return f
}

// variance is sum(|x - mean|^2) / (N - ddof), NaN when empty, N - ddof
// <= 0 giving NaN or +Inf as NumPy's division does.
func variance[T number](v []T, ddof int) float64 {
	n := len(v)
	if n == 0 {
		return EmptyNaN()
	}
	m := sumF(v) / float64(n)
	var ss float64
	switch s := any(v).(type) {
	case []float32:
		ss = numeric.SumSqDevF32(s, m)
	case []float64:
		ss = numeric.SumSqDevF64(s, m)
	default:
		for _, x := range v {
			d := float64(x) - m
			ss += d * d
		}
	}
	return ss / float64(max(n-ddof, 0))
}

// extreme returns the maximum (or minimum) of v, NaN when v holds one.
func extreme[T number](isMax bool, v []T) result {
	switch s := any(v).(type) {
	case []float32:
		if isMax {
			return result{f: float64(numeric.MaxF32(s))}
		}
		return result{f: float64(numeric.MinF32(s))}
	case []float64:
		if isMax {
			return result{f: numeric.MaxF64(s)}
		}
		return result{f: numeric.MinF64(s)}
	}
	m := v[0]
	for _, x := range v[1:] {
		if isMax && x > m || !isMax && x < m {
			m = x
		}
	}
	return result{i: int64(m), isInt: true}
}

// argExtreme returns the index of the first maximum (or minimum) of v,
// or of its first NaN.
func argExtreme[T number](isMax bool, v []T) int {
	best := 0
	for j, x := range v {
		if x != x {
			return j
		}
		if isMax && x > v[best] || !isMax && x < v[best] {
			best = j
		}
	}
	return best
}

// rowOps are the reductions numeric.RowsF32 runs over float32 rows.
var rowOps = map[Fn]numeric.RowOp{Sum: numeric.RowSum, Mean: numeric.RowSum, Norm: numeric.RowSumSq}

// reduceRowsF32 is reduceRows of a trailing reduction of dense float32
// rows by op: every result of the block in one numeric.RowsF32 call,
// each with the bits reduceVec gives it.
func reduceRowsF32(ws *workspace, c *cnode, d []byte, dt DType, op numeric.RowOp, a []float32, rows int) {
	count := c.rplan.count
	out := scratchOf[float64](ws, 4, rows*c.size)
	numeric.RowsF32(op, out, a, count, count)
	for j, v := range out {
		switch c.Fn {
		case Mean:
			v /= float64(count)
		case Norm:
			v = math.Sqrt(v)
		}
		result{f: v}.store(d, dt, j)
	}
}

// reduceRows evaluates a Reduce node over rows rows of operand a (type
// T, rs elements a row) into d (type dt).
func reduceRows[T number](ws *workspace, c *cnode, d []byte, dt DType, a []T, rs, rows int) {
	pl := c.rplan
	if pl.acc {
		reduceAcc(ws, c, d, dt, a, rs, rows)
		return
	}
	if op, ok := rowOps[c.Fn]; ok && pl.trailing && pl.count > 0 && rs == c.size*pl.count {
		if x, ok := any(a).([]float32); ok {
			reduceRowsF32(ws, c, d, dt, op, x, rows)
			return
		}
	}
	kw, rw := &ws.w, &ws.w2
	ws.dims = append(append(ws.dims[:0], rows), pl.keptDims...)
	ws.stbuf = growSt(ws.stbuf, 2)
	ws.stbuf[0] = append(append(ws.stbuf[0][:0], rs), pl.keptSt...)
	ws.stbuf[1] = append(append(ws.stbuf[1][:0], c.size), pl.outSt...)
	ws.sts = append(ws.sts[:0], ws.stbuf[0], ws.stbuf[1])
	kw.init(ws.dims, ws.sts)
	ws.sts2 = append(ws.sts2[:0], pl.redSt)
	rw.init(pl.redDims, ws.sts2)
	contiguous := rw.left <= 2 && rw.step[0] == 1 || pl.count <= 1
	gather := scratchOf[T](ws, 4, pl.count)
	for kw.next() {
		for e := range kw.inner {
			base := kw.off[0] + e*kw.step[0]
			var v []T
			switch {
			case pl.count == 0:
				v = a[:0] // (base may lie past an empty operand)
			case contiguous:
				v = a[base : base+pl.count]
			default:
				v = gather[:0]
				rw.init(pl.redDims, ws.sts2)
				for rw.next() {
					o := base + rw.off[0]
					if rw.step[0] == 1 {
						v = append(v, a[o:o+rw.inner]...)
						continue
					}
					for k := range rw.inner {
						v = append(v, a[o+k*rw.step[0]])
					}
				}
			}
			reduceVec(c.Fn, c.Ddof, v).store(d, dt, kw.off[1]+e*kw.step[1])
		}
	}
}

func growSt(s [][]int, n int) [][]int {
	for len(s) < n {
		s = append(s, nil)
	}
	return s
}
