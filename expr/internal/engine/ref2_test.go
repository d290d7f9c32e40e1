package engine_test

import (
	"math"
	"slices"

	"github.com/fstensor/fstensor/expr/internal/engine"
)

func refUnary(n *engine.Node, a rval) rval {
	d := n.Args[0].DType
	var v rval
	if isF(d) {
		for _, x := range a.f {
			var r float64
			switch n.Fn {
			case engine.Neg:
				r = -x
			case engine.Abs:
				r = math.Abs(x)
			case engine.Sqrt:
				r = math.Sqrt(x)
			case engine.Square:
				r = x * x
			case engine.Exp:
				r = math.Exp(x)
			case engine.Log:
				r = math.Log(x)
			case engine.Log1p:
				r = math.Log1p(x)
			case engine.Expm1:
				r = math.Expm1(x)
			case engine.Tanh:
				r = math.Tanh(x)
			case engine.Floor:
				r = math.Floor(x)
			case engine.Ceil:
				r = math.Ceil(x)
			case engine.Round:
				r = math.RoundToEven(x)
			case engine.Sign:
				r = x
				if x > 0 {
					r = 1
				} else if x < 0 {
					r = -1
				}
			case engine.IsNaN:
				v.i = append(v.i, b2i(math.IsNaN(x)))
				continue
			case engine.IsFinite:
				v.i = append(v.i, b2i(!math.IsNaN(x) && !math.IsInf(x, 0)))
				continue
			}
			v.f = append(v.f, roundF(d, r))
		}
		return v
	}
	for _, x := range a.i {
		r := x
		switch n.Fn {
		case engine.Neg:
			r = -x
		case engine.Abs:
			if x < 0 && !isU(d) {
				r = -x
			}
		case engine.Square:
			r = x * x
		case engine.Sign:
			switch {
			case isU(d) && d == engine.Uint64 && x != 0, x > 0:
				r = 1
			case x < 0:
				r = -1
			}
		case engine.IsNaN:
			r = 0
		case engine.IsFinite:
			r = 1
		case engine.Not:
			if d == engine.Bool {
				r = 1 - x
			} else {
				r = ^x
			}
		}
		v.i = append(v.i, wrapI(n.DType, r))
	}
	return v
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func refBroadcast(n *engine.Node, args []rval) (rval, error) {
	var v rval
	d := n.Args[len(n.Args)-1].DType
	for _, idx := range indexes(n.Shape) {
		var ks []int
		for _, a := range n.Args {
			ks = append(ks, bindex(a.Shape, idx))
		}
		if n.Op == engine.OpWhere {
			src := args[2]
			if args[0].i[ks[0]] != 0 {
				src = args[1]
			}
			if isF(d) {
				v.f = append(v.f, src.f[ks[1+b2int(args[0].i[ks[0]] == 0)]])
			} else {
				v.i = append(v.i, src.i[ks[1+b2int(args[0].i[ks[0]] == 0)]])
			}
			continue
		}
		if isF(d) {
			x, y := args[0].f[ks[0]], args[1].f[ks[1]]
			if c, ok := refCompare(n.Fn, x, y, x < y, x == y); ok {
				v.i = append(v.i, c)
				continue
			}
			v.f = append(v.f, roundF(d, refBinF(n.Fn, x, y)))
			continue
		}
		x, y := args[0].i[ks[0]], args[1].i[ks[1]]
		lt := x < y
		if d == engine.Uint64 {
			lt = uint64(x) < uint64(y)
		}
		if c, ok := refCompare(n.Fn, 0, 0, lt, x == y); ok {
			v.i = append(v.i, c)
			continue
		}
		r, err := refBinI(n.Fn, d, x, y)
		if err != nil {
			return v, err
		}
		v.i = append(v.i, wrapI(d, r))
	}
	return v, nil
}

func b2int(b bool) int {
	if b {
		return 1
	}
	return 0
}

// refCompare compares by lt and eq (NaN: both false, and x, y NaN).
func refCompare(fn engine.Fn, x, y float64, lt, eq bool) (int64, bool) {
	nan := math.IsNaN(x) || math.IsNaN(y)
	gt := !lt && !eq && !nan
	switch fn {
	case engine.Less:
		return b2i(lt), true
	case engine.LessEqual:
		return b2i(lt || eq), true
	case engine.Greater:
		return b2i(gt), true
	case engine.GreaterEqual:
		return b2i(gt || eq), true
	case engine.Equal:
		return b2i(eq), true
	case engine.NotEqual:
		return b2i(!eq), true
	}
	return 0, false
}

func refBinF(fn engine.Fn, x, y float64) float64 {
	switch fn {
	case engine.Add:
		return x + y
	case engine.Sub:
		return x - y
	case engine.Mul:
		return x * y
	case engine.Div:
		return x / y
	case engine.Pow:
		return math.Pow(x, y)
	case engine.Minimum, engine.Maximum:
		if math.IsNaN(x) || math.IsNaN(y) {
			return math.NaN()
		}
		if fn == engine.Minimum {
			return math.Min(x, y)
		}
		return math.Max(x, y)
	case engine.FloorDiv:
		switch {
		case y == 0:
			return x / y
		case math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0):
			return math.NaN()
		case math.IsInf(y, 0):
			if x == 0 || (x < 0) == (y < 0) {
				return math.Copysign(0, x/y)
			}
			return -1
		}
		if q := math.Floor(x / y); q != 0 {
			return q
		}
		return math.Copysign(0, x/y)
	case engine.Mod:
		switch {
		case y == 0 || math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0):
			return math.NaN()
		case math.IsInf(y, 0):
			if x == 0 {
				return math.Copysign(0, y)
			}
			if (x < 0) == (y < 0) {
				return x
			}
			return y
		}
		if r := x - y*math.Floor(x/y); r != 0 {
			return r
		}
		return math.Copysign(0, y)
	}
	panic("reference: binary float function")
}

// refBinI computes an integer function of x and y of type d (uint64 as
// bits), before wrapping.
func refBinI(fn engine.Fn, d engine.DType, x, y int64) (int64, error) {
	u := d == engine.Uint64
	switch fn {
	case engine.Add:
		return x + y, nil
	case engine.Sub:
		return x - y, nil
	case engine.Mul:
		return x * y, nil
	case engine.And:
		return x & y, nil
	case engine.Or:
		return x | y, nil
	case engine.Xor:
		return x ^ y, nil
	case engine.Minimum, engine.Maximum:
		lt := x < y
		if u {
			lt = uint64(x) < uint64(y)
		}
		if lt == (fn == engine.Minimum) {
			return x, nil
		}
		return y, nil
	case engine.FloorDiv, engine.Mod:
		if y == 0 {
			return 0, nil
		}
		if u {
			if fn == engine.FloorDiv {
				return int64(uint64(x) / uint64(y)), nil
			}
			return int64(uint64(x) % uint64(y)), nil
		}
		q := int64(math.Floor(float64(x) / float64(y)))
		if x == math.MinInt64 || y == math.MinInt64 || x > 1<<52 || x < -(1<<52) {
			q = x / y
			if (x%y != 0) && ((x < 0) != (y < 0)) {
				q--
			}
		}
		if fn == engine.FloorDiv {
			return q, nil
		}
		return x - q*y, nil
	case engine.Pow:
		if y < 0 && !u {
			return 0, errNegPow
		}
		r := int64(1)
		for range uint64(y) % 4096 {
			r = wrapI(d, r*x)
		}
		if uint64(y) >= 4096 {
			return refPowBig(d, x, uint64(y)), nil
		}
		return r, nil
	}
	panic("reference: binary integer function")
}

// refPowBig raises x to a large power by squaring (still independent of
// the engine's loop order).
func refPowBig(d engine.DType, x int64, y uint64) int64 {
	bits := []uint64{}
	for ; y > 0; y /= 2 {
		bits = append(bits, y%2)
	}
	r := int64(1)
	for _, b := range slices.Backward(bits) {
		r = wrapI(d, r*r)
		if b == 1 {
			r = wrapI(d, r*x)
		}
	}
	return r
}

func refReduce(n *engine.Node, a rval) rval {
	in := n.Args[0]
	d := in.DType
	var keptShape []int
	for i, s := range in.Shape {
		if !slices.Contains(n.Axes, i) {
			keptShape = append(keptShape, s)
		}
	}
	groups := make([][]int, numel(keptShape))
	for k, idx := range indexes(in.Shape) {
		var kept []int
		for i, x := range idx {
			if !slices.Contains(n.Axes, i) {
				kept = append(kept, x)
			}
		}
		g := 0
		for i, x := range kept {
			g = g*keptShape[i] + x
		}
		groups[g] = append(groups[g], k)
	}
	var v rval
	for _, g := range groups {
		r := refGroup(n, d, a, g)
		v.f = append(v.f, r.f...)
		v.i = append(v.i, r.i...)
	}
	return v
}

func refGroup(n *engine.Node, d engine.DType, a rval, g []int) rval {
	val := func(k int) float64 {
		if isF(d) {
			return a.f[k]
		}
		if d == engine.Uint64 {
			return float64(uint64(a.i[k]))
		}
		return float64(a.i[k])
	}
	switch n.Fn {
	case engine.Sum:
		if !isF(d) {
			var s int64
			for _, k := range g {
				s += a.i[k]
			}
			return rval{i: []int64{s}}
		}
		var s float64
		for _, k := range g {
			s += val(k)
		}
		return refStore(n.DType, s)
	case engine.Mean, engine.Norm, engine.Var, engine.Std:
		var s, ss float64
		for _, k := range g {
			s += val(k)
		}
		m := s / float64(len(g))
		for _, k := range g {
			ss += (val(k) - m) * (val(k) - m)
		}
		switch n.Fn {
		case engine.Mean:
			return refStore(n.DType, m)
		case engine.Norm:
			var sq float64
			for _, k := range g {
				sq += val(k) * val(k)
			}
			return refStore(n.DType, math.Sqrt(sq))
		case engine.Var:
			return refStore(n.DType, ss/float64(max(len(g)-n.Ddof, 0)))
		}
		return refStore(n.DType, math.Sqrt(ss/float64(max(len(g)-n.Ddof, 0))))
	case engine.Any, engine.All:
		any, all := false, true
		for _, k := range g {
			nz := val(k) != 0
			any, all = any || nz, all && nz
		}
		if n.Fn == engine.Any {
			return rval{i: []int64{b2i(any)}}
		}
		return rval{i: []int64{b2i(all)}}
	}
	best := 0
	isMax := n.Fn == engine.Max || n.Fn == engine.ArgMax
	for j, k := range g {
		var gt, lt bool
		switch {
		case isF(d):
			x, b := a.f[k], a.f[g[best]]
			if math.IsNaN(b) {
				break
			}
			if math.IsNaN(x) {
				best = j
				continue
			}
			gt, lt = x > b, x < b
		case d == engine.Uint64:
			gt, lt = uint64(a.i[k]) > uint64(a.i[g[best]]), uint64(a.i[k]) < uint64(a.i[g[best]])
		default:
			gt, lt = a.i[k] > a.i[g[best]], a.i[k] < a.i[g[best]]
		}
		if isMax && gt || !isMax && lt {
			best = j
		}
	}
	if n.Fn == engine.ArgMax || n.Fn == engine.ArgMin {
		return rval{i: []int64{int64(best)}}
	}
	if isF(d) {
		return rval{f: []float64{a.f[g[best]]}}
	}
	return rval{i: []int64{a.i[g[best]]}}
}
