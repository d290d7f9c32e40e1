package expr

import (
	"math"

	"github.com/fstensor/fstensor/internal/numeric"
)

// accum holds one tensor's reduction state, one slot per result element.
type accum struct {
	f        []float64 // float sums, min/max values
	i        []int64   // integer sums, min/max values
	idx      []int64   // ArgMax, ArgMin: the position of the best value so far
	nan      []bool    // min/max of floats: a NaN was seen
	n, shift []float64 // Var, Std: count and shift per slot (moments.go)
	m2       []float64 // Var, Std: sum of squared deviations per slot
	sim      simRow    // a similarity's values and constant (similarity.go)
}

func newAccum(r *reducer, size int) *accum {
	a := &accum{}
	if r.float {
		a.f = make([]float64, size)
	} else {
		a.i = make([]int64, size)
	}
	if !r.sim && (r.kind == ArgMax || r.kind == ArgMin) {
		a.idx = make([]int64, size)
	}
	if !r.sim && (r.kind == Var || r.kind == Std) {
		a.n, a.shift, a.m2 = make([]float64, size), make([]float64, size), make([]float64, size)
	}
	return a
}

// reset starts a tensor.
func (a *accum) reset(r *reducer, val dtype) {
	init := 0.0
	var iinit int64
	if !r.sim {
		switch r.kind {
		case Min, ArgMin:
			init = math.Inf(1)
			iinit = math.MaxInt64
			if val == dtU64 {
				iinit = -1
			} else if val.unsigned() {
				iinit = math.MaxInt64
			}
		case Max, ArgMax:
			init = math.Inf(-1)
			iinit = math.MinInt64
			if val.unsigned() {
				iinit = 0
			}
		}
	}
	if init == 0 {
		clear(a.f)
	} else {
		for k := range a.f {
			a.f[k] = init
		}
	}
	if iinit == 0 {
		clear(a.i)
	} else {
		for k := range a.i {
			a.i[k] = iinit
		}
	}
	a.sim.reset()
	clear(a.n)
	clear(a.m2)
	for k := range a.idx {
		a.idx[k] = math.MaxInt64
	}
}

// add reduces a run of values (f or i, of dtype val) into the slots from
// slot ao, as apart (0: the whole run into one slot); positions of
// ArgMax and ArgMin are po + j*ps; the similarity's constant is at ko, ks
// apart in r.c.
func (a *accum) add(r *reducer, val dtype, f []float64, i []int64, ao, as, po, ps, ko, ks int) {
	if r.float && !val.float() {
		// Mean and norm of integers: as float64.
		for j, v := range i {
			f[j] = intToFloat(v, val, dtF64)
		}
	}
	if r.sim {
		a.sim.add(r, f, ko, ks)
		return
	}
	switch r.kind {
	case Var, Std:
		a.addMoments(f, ao, as)
	case Sum, Mean, Norm:
		if r.kind == Norm {
			for j, v := range f {
				f[j] = v * v
			}
		}
		if !r.float {
			if as == 0 {
				var s int64
				for _, v := range i {
					s += v
				}
				a.i[ao] += s
				return
			}
			for j, v := range i {
				a.i[ao+j*as] += v
			}
			return
		}
		if as == 0 {
			a.f[ao] += numeric.SumF64(f)
			return
		}
		for j, v := range f {
			a.f[ao+j*as] += v
		}
	case Min, Max:
		mx := r.kind == Max
		if !r.float {
			for j, v := range i {
				o := ao + j*as
				if mx && less(a.i[o], v, val) || !mx && less(v, a.i[o], val) {
					a.i[o] = v
				}
			}
			return
		}
		for j, v := range f {
			o := ao + j*as
			if mx && v > a.f[o] || !mx && v < a.f[o] || v != v {
				a.f[o] = v
			}
		}
		// A NaN once stored stays: v > NaN and v < NaN are false, and a
		// later NaN replaces it with a NaN.
	case ArgMax, ArgMin:
		mx := r.kind == ArgMax
		if !r.float {
			for j, v := range i {
				o, p := ao+j*as, int64(po+j*ps)
				m := a.i[o]
				if mx && less(m, v, val) || !mx && less(v, m, val) || v == m && p < a.idx[o] {
					a.i[o], a.idx[o] = v, p
				}
			}
			return
		}
		for j, v := range f {
			o, p := ao+j*as, int64(po+j*ps)
			m := a.f[o]
			var take bool
			switch {
			case m != m && a.idx[o] != math.MaxInt64:
				take = v != v && p < a.idx[o]
			case v != v:
				take = true
			default:
				take = mx && v > m || !mx && v < m || v == m && p < a.idx[o]
			}
			if take {
				a.f[o], a.idx[o] = v, p
			}
		}
	}
}

// finish writes the result of every slot to out (dtype r.out) from
// element 0, and their values as float64 or int64 to f and i.
func (a *accum) finish(r *reducer, out view) {
	n := len(a.f) + len(a.i)
	if a.idx != nil {
		out.store(nil, a.idx, 0, 1)
		return
	}
	if !r.float {
		out.store(nil, a.i, 0, 1)
		return
	}
	res := a.f
	if !r.sim && (r.kind == Sum || r.kind == Mean) && out.dt == dtF32 && r.out == dtF32 {
		// The float32 sums and means of float32 (the common case) in one
		// plain loop.
		d := cast[float32](out.b)[:n]
		if r.kind == Mean {
			numeric.DivToF32(d, res, float64(r.count))
			return
		}
		for k, v := range res[:n] {
			d[k] = float32(v)
		}
		return
	}
	for k := range n {
		v := res[k]
		switch {
		case r.sim:
			v = a.sim.score(r)
		case r.kind == Norm:
			v = math.Sqrt(v)
		case !r.sim && r.kind == Mean:
			v /= float64(r.count)
		case !r.sim && (r.kind == Var || r.kind == Std):
			v = a.momentsResult(r, k)
		}
		res[k] = roundTo(v, r.out)
	}
	out.store(res, nil, 0, 1)
}

// addPeriodic reduces whole runs of period values (f or i, of dtype val):
// element j goes to slot ao + (j%period)*as. Sums and norms accumulate
// run after run, in the order of the elements.
func (a *accum) addPeriodic(r *reducer, val dtype, f []float64, i []int64, ao, as, period int) {
	switch r.kind {
	case Sum, Mean, Norm:
	default:
		for q := 0; q < len(f)+len(i) && q+period <= max(len(f), len(i)); q += period {
			a.add(r, val, sub(f, q, period), sub(i, q, period), ao, as, 0, 0, 0, 0)
		}
		return
	}
	if r.float && !val.float() {
		for j, v := range i {
			f[j] = intToFloat(v, val, dtF64)
		}
	}
	if r.float {
		if r.kind == Norm {
			for j, v := range f {
				f[j] = v * v
			}
		}
		for q := 0; q+period <= len(f); q += period {
			run := f[q : q+period]
			for j, v := range run {
				a.f[ao+j*as] += v
			}
		}
		return
	}
	for q := 0; q+period <= len(i); q += period {
		run := i[q : q+period]
		for j, v := range run {
			a.i[ao+j*as] += v
		}
	}
}

func sub[T any](s []T, q, n int) []T {
	if len(s) < q+n {
		return s[:0]
	}
	return s[q : q+n]
}

// addWide adds a chunk of a blocked Sum, Mean or Norm element by element
// to the chunk-long accumulators wf (float) or wi (integer).
func (a *accum) addWide(r *reducer, val dtype, f []float64, i []int64, wf []float64, wi []int64) {
	if !r.float || !val.float() && r.kind != Norm {
		// Integers add exactly (wrapping in 64 bits, as NumPy's integer
		// sums do); a float result converts the sums once at the end.
		wi = wi[:len(i)]
		for j, v := range i {
			wi[j] += v
		}
		return
	}
	wf = wf[:len(f)]
	if !val.float() {
		if val == dtU64 {
			for j, v := range i {
				f[j] = float64(uint64(v))
			}
		} else {
			for j, v := range i {
				f[j] = float64(v)
			}
		}
	}

	if r.kind == Norm {
		for j, v := range f {
			wf[j] += v * v
		}
		return
	}
	for j, v := range f {
		wf[j] += v
	}
}

// foldWide adds the first m chunk accumulators to the slots: element j
// to slot ao + (j%period)*as.
func (a *accum) foldWide(r *reducer, val dtype, wf []float64, wi []int64, m, ao, as, period int) {
	ints := !r.float || !val.float() && r.kind != Norm
	for q := 0; q < m; q += period {
		switch {
		case !r.float:
			for j, v := range wi[q : q+period] {
				a.i[ao+j*as] += v
			}
		case ints && val == dtU64:
			for j, v := range wi[q : q+period] {
				a.f[ao+j*as] += float64(uint64(v))
			}
		case ints:
			for j, v := range wi[q : q+period] {
				a.f[ao+j*as] += float64(v)
			}
		default:
			for j, v := range wf[q : q+period] {
				a.f[ao+j*as] += v
			}
		}
	}
}
