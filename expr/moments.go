package expr

import (
	"math"

	"github.com/fstensor/fstensor/internal/numeric"
)

// Var and Std accumulate per slot the count a.n, the mean a.f and the sum
// of squared deviations a.m2 of the slot's elements shifted by the first
// one (a.shift), in float64. Shifting keeps the values small when the
// data sit far from 0 (1e8 + noise), so that neither the mean's rounding
// nor the merges lose the deviations.

// addMoments reduces the float64 values f of a Var or Std into the slots
// from ao, as apart (0: the whole run into slot ao).
func (a *accum) addMoments(f []float64, ao, as int) {
	if len(f) == 0 {
		return
	}
	if as != 0 {
		// One value per slot: Welford's update.
		for j, v := range f {
			o := ao + j*as
			if a.n[o] == 0 {
				a.shift[o] = v
			}
			y := v - a.shift[o]
			n := a.n[o] + 1
			d := y - a.f[o]
			a.f[o] += d / n
			a.m2[o] += d * (y - a.f[o])
			a.n[o] = n
		}
		return
	}
	// A run into one slot: its mean, then its squared deviations (two
	// passes, pairwise sums), merged into the slot.
	if a.n[ao] == 0 {
		a.shift[ao] = f[0]
	}
	nb := float64(len(f))
	mb := numeric.SumDevF64(f, a.shift[ao]) / nb
	a.merge(ao, nb, mb, numeric.SumSqDevF64(f, a.shift[ao]+mb))
}

// foldMoments reduces a contiguous run of n float32 or float64 source
// elements from element off into slot o of a Var or Std, as addMoments
// does without converting them first.
func (a *accum) foldMoments(o int, src view, off, n int) {
	if n == 0 {
		return
	}
	nb := float64(n)
	if src.dt == dtF32 {
		x := cast[float32](src.b)[off : off+n]
		if a.n[o] == 0 {
			a.shift[o] = float64(x[0])
		}
		// Both passes in the AVX2 kernels. The float64 sum of float32
		// values is close enough that the shift comes off after it: an
		// error e in the mean adds only n*e^2 to the deviations.
		mb := (numeric.SumF32(x) - nb*a.shift[o]) / nb
		a.merge(o, nb, mb, numeric.SumSqDevF32(x, a.shift[o]+mb))
		return
	}
	a.addMoments(cast[float64](src.b)[off:off+n], o, 0)
}

// merge adds to slot o a run of nb elements whose shifted mean is mb and
// whose squared deviations sum to m2b (Chan's formula).
func (a *accum) merge(o int, nb, mb, m2b float64) {
	na := a.n[o]
	if na == 0 {
		a.f[o], a.m2[o], a.n[o] = mb, m2b, nb
		return
	}
	n := na + nb
	d := mb - a.f[o]
	a.f[o] += d * (nb / n)
	a.m2[o] += m2b + d*d*(na*nb/n)
	a.n[o] = n
}

// momentsResult returns the Var or Std of slot k: m2 / (count - ddof),
// with NumPy's values when count - ddof <= 0 (NaN for 0/0, +Inf for a
// positive m2) and for an empty slot (NaN).
func (a *accum) momentsResult(r *reducer, k int) float64 {
	den := float64(max(r.count-r.ddof, 0))
	v := a.m2[k] / den
	if r.kind == Std {
		v = math.Sqrt(v)
	}
	return v
}
