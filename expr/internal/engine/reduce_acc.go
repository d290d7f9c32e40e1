package engine

import (
	"math"
	"slices"

	"github.com/fstensor/fstensor/internal/numeric"
)

// A reduction that keeps the operand's innermost axis (x.sum(axis=0) of
// a matrix, x.mean(axis=(0, 1)) of an image) reads the operand once in
// memory order, adding each run into the accumulators of the results it
// feeds, instead of gathering each result's elements through strides.

// accumulates reports whether a Reduce node of plan pl runs by
// accumulation: its function allows it and the innermost axis, of size
// 2 or more, is kept (so that every run of the walk feeds as many
// consecutive results).
func accumulates(n *Node, pl *rplan) bool {
	a := n.Args[0]
	if len(pl.redDims) == 0 || len(a.Shape) == 0 || pl.count == 0 || a.Shape[len(a.Shape)-1] < 2 {
		return false // (an innermost axis of size 1 is no run)
	}
	for _, ax := range n.Axes {
		if ax == len(a.Shape)-1 {
			return false
		}
	}
	switch n.Fn {
	case Sum, Mean, Norm, Min, Max, Any, All:
		return true
	}
	return false
}

// periodOf returns the period of an accumulating Reduce node of plan
// pl whose reduced axes all come before its kept ones (axes of size 1
// aside), and 0 for any other.
func periodOf(n *Node, pl *rplan) int {
	if !axesInOrder(n, true) {
		return 0
	}
	period := 1
	for _, d := range pl.keptDims {
		period *= d
	}
	return period
}

// axesInOrder reports whether the reduced axes of Reduce node n all come
// before its kept ones (reducedFirst) or all after them, axes of size 1
// aside.
func axesInOrder(n *Node, reducedFirst bool) bool {
	seen := false // an axis of the kind that must come second
	for i, d := range n.Args[0].Shape {
		if d == 1 {
			continue
		}
		second := slices.Contains(n.Axes, i) != reducedFirst
		if seen && !second {
			return false
		}
		seen = seen || second
	}
	return true
}

// accStrides returns, per axis of the operand, the stride of the result
// element it feeds: the result's dense stride on a kept axis, 0 on a
// reduced one.
func accStrides(n *Node, pl *rplan) []int {
	st := make([]int, 0, len(n.Args[0].Shape))
	k := 0
	for i := range n.Args[0].Shape {
		reduced := false
		for _, ax := range n.Axes {
			reduced = reduced || ax == i
		}
		if reduced {
			st = append(st, 0)
		} else {
			st = append(st, pl.outSt[k])
			k++
		}
	}
	return st
}

// reduceAcc is reduceRows by accumulation.
func reduceAcc[T number](ws *workspace, c *cnode, d []byte, dt DType, a []T, rs, rows int) {
	pl := c.rplan
	shape := c.Args[0].Shape
	out := c.size
	fa := scratchOf[float64](ws, 4, out) // sums, squares, or min/max as float64
	ia := scratchOf[int64](ws, 5, out)   // integer sums, min/max
	isF := isFloatT[T]()
	for r := range rows {
		accInit[T](c.Fn, fa, ia)
		if pl.period > 0 {
			accPeriodic(ws, c.Fn, isF, fa, ia, a[r*rs:][:pl.count*pl.period], pl.period)
		} else {
			ws.sts = append(ws.sts[:0], pl.inSt, pl.accSt)
			ws.w.init(shape, ws.sts)
			w := &ws.w
			for w.next() {
				x := a[r*rs+w.off[0]:][:w.inner]
				o := w.off[1]
				accRun(c.Fn, isF, fa[o:o+w.inner], ia[o:o+w.inner], x)
			}
		}
		for j := range out {
			var res result
			switch {
			case c.Fn == Mean:
				res.f = fa[j] / float64(pl.count)
			case c.Fn == Norm:
				res.f = math.Sqrt(fa[j])
			case isF || c.Fn == Any || c.Fn == All:
				res.f = fa[j]
			default:
				res = result{i: ia[j], isInt: true}
			}
			res.store(d, dt, r*out+j)
		}
	}
}

// maxU8Runs bounds the runs of bytes numeric.AccU8 adds into 32-bit
// sums before they are folded: 2^24 runs of 255 stay below 2^32.
const maxU8Runs = 1 << 24

// maxU8Period bounds the periods numeric.SumU8Periodic takes (the
// channels of an HWC image).
const maxU8Period = 32

// accPeriodic accumulates x, runs of period elements feeding results 0
// to period-1, into fa and ia as accRun would run by run: the sums of
// bytes and of float32 take whole rows of runs at a time.
func accPeriodic[T number](ws *workspace, fn Fn, isF bool, fa []float64, ia []int64, x []T, period int) {
	switch v := any(x).(type) {
	case []float32:
		switch fn {
		case Sum, Mean:
			numeric.AccRowsF32(fa[:period], v, len(v)/period, period)
			return
		case Max, Min:
			numeric.AccExtremeRowsF32(fa[:period], v, len(v)/period, period, fn == Max)
			return
		}
	case []uint8:
		if fn == Sum || fn == Mean {
			accU8Periodic(ws, fa, ia, v, period)
			return
		}
	}
	for o := 0; o < len(x); o += period {
		accRun(fn, isF, fa[:period], ia[:period], x[o:o+period])
	}
}

// accU8Periodic is accPeriodic of the sum or mean of bytes: exact
// 64-bit sums (numeric.SumU8Periodic for a period of at most 32 bytes,
// 32-bit numeric.AccU8 sums of at most maxU8Runs runs otherwise), added
// to both ia (read by Sum) and fa (read by Mean).
func accU8Periodic(ws *workspace, fa []float64, ia []int64, x []uint8, period int) {
	if period <= maxU8Period {
		var s [maxU8Period]uint64
		tot := s[:period]
		numeric.SumU8Periodic(tot, x)
		for j, v := range tot {
			ia[j] += int64(v)
			fa[j] += float64(v)
		}
		return
	}
	u := scratchOf[uint32](ws, 10, period)
	for o := 0; o < len(x); {
		clear(u)
		end := min(len(x), o+maxU8Runs*period)
		for ; o < end; o += period {
			numeric.AccU8(u, x[o:o+period])
		}
		for j, v := range u {
			ia[j] += int64(v)
			fa[j] += float64(v)
		}
	}
}

// accInit sets the accumulators to the identity of fn: 0 for sums, 1
// for All, -Inf or +Inf (floats; accExtreme keeps a NaN) and T's
// extreme values (integers) for a maximum or minimum.
func accInit[T number](fn Fn, fa []float64, ia []int64) {
	switch fn {
	case All:
		for j := range fa {
			fa[j] = 1
		}
	case Min, Max:
		inf := math.Inf(1)
		if fn == Max {
			inf = -inf
		}
		for j := range fa {
			fa[j] = inf
		}
		lo, hi := intRange[T]()
		for j := range ia {
			if fn == Min {
				ia[j] = hi
			} else {
				ia[j] = lo
			}
		}
	default:
		clear(fa)
		clear(ia)
	}
}

// intRange returns T's smallest and largest values as int64 bits
// (uint64's largest as -1, compared unsigned by accRun).
func intRange[T number]() (lo, hi int64) {
	switch any(T(0)).(type) {
	case int8:
		return math.MinInt8, math.MaxInt8
	case int16:
		return math.MinInt16, math.MaxInt16
	case int32:
		return math.MinInt32, math.MaxInt32
	case int64:
		return math.MinInt64, math.MaxInt64
	case uint8:
		return 0, math.MaxUint8
	case uint16:
		return 0, math.MaxUint16
	case uint32:
		return 0, math.MaxUint32
	}
	return 0, -1
}

// accRun adds run x into the accumulators of the results it feeds.
func accRun[T number](fn Fn, isF bool, fa []float64, ia []int64, x []T) {
	switch fn {
	case Sum, Mean:
		if s, ok := any(x).([]float32); ok {
			numeric.AccF32(fa, s)
			return
		}
		if isF || fn == Mean {
			for j, v := range x {
				fa[j] += float64(v)
			}
			return
		}
		for j, v := range x {
			ia[j] += int64(v)
		}
	case Norm:
		for j, v := range x {
			fa[j] += float64(v) * float64(v)
		}
	case Any:
		for j, v := range x {
			if v != 0 {
				fa[j] = 1
			}
		}
	case All:
		for j, v := range x {
			if v == 0 {
				fa[j] = 0
			}
		}
	default:
		accExtreme(fn == Max, isF, fa, ia, x)
	}
}

// accExtreme keeps the maximum (or minimum) in fa (floats: NaN once
// seen) or ia (integers, unsigned compared as T).
func accExtreme[T number](isMax, isF bool, fa []float64, ia []int64, x []T) {
	if isF {
		for j, v := range x {
			f, m := float64(v), fa[j]
			if f != f || isMax && f > m || !isMax && f < m {
				fa[j] = f
			}
		}
		return
	}
	for j, v := range x {
		m := T(ia[j])
		if isMax && v > m || !isMax && v < m {
			ia[j] = int64(v)
		}
	}
}
