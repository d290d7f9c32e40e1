package expr

import (
	"math"

	"github.com/fstensor/fstensor/internal/ufunc"
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
	mb := dev(f, a.shift[ao]) / nb
	a.merge(ao, nb, mb, sqDev(f, a.shift[ao]+mb))
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
		mb := (ufunc.SumF32(x) - nb*a.shift[o]) / nb
		a.merge(o, nb, mb, ufunc.SumSqDevF32(x, a.shift[o]+mb))
		return
	}
	x := cast[float64](src.b)[off : off+n]
	if a.n[o] == 0 {
		a.shift[o] = x[0]
	}
	mb := dev(x, a.shift[o]) / nb
	a.merge(o, nb, mb, sqDev(x, a.shift[o]+mb))
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

// momBlock is the length under which dev and sqDev add straight (in
// eight accumulators); longer runs split in halves.
const momBlock = 256

// dev returns the sum of float64(v) - k over s, pairwise.
func dev[F float32 | float64](s []F, k float64) float64 {
	if len(s) > momBlock {
		h := len(s) / 2 &^ 7
		return dev(s[:h], k) + dev(s[h:], k)
	}
	var a0, a1, a2, a3, a4, a5, a6, a7 float64
	i := 0
	for ; i+8 <= len(s); i += 8 {
		v := s[i : i+8 : i+8]
		a0 += float64(v[0]) - k
		a1 += float64(v[1]) - k
		a2 += float64(v[2]) - k
		a3 += float64(v[3]) - k
		a4 += float64(v[4]) - k
		a5 += float64(v[5]) - k
		a6 += float64(v[6]) - k
		a7 += float64(v[7]) - k
	}
	r := ((a0 + a1) + (a2 + a3)) + ((a4 + a5) + (a6 + a7))
	for ; i < len(s); i++ {
		r += float64(s[i]) - k
	}
	return r
}

// sqDev returns the sum of (float64(v) - m)^2 over s, pairwise.
func sqDev[F float32 | float64](s []F, m float64) float64 {
	if len(s) > momBlock {
		h := len(s) / 2 &^ 7
		return sqDev(s[:h], m) + sqDev(s[h:], m)
	}
	var a0, a1, a2, a3, a4, a5, a6, a7 float64
	i := 0
	for ; i+8 <= len(s); i += 8 {
		v := s[i : i+8 : i+8]
		d0, d1, d2, d3 := float64(v[0])-m, float64(v[1])-m, float64(v[2])-m, float64(v[3])-m
		d4, d5, d6, d7 := float64(v[4])-m, float64(v[5])-m, float64(v[6])-m, float64(v[7])-m
		a0 += d0 * d0
		a1 += d1 * d1
		a2 += d2 * d2
		a3 += d3 * d3
		a4 += d4 * d4
		a5 += d5 * d5
		a6 += d6 * d6
		a7 += d7 * d7
	}
	r := ((a0 + a1) + (a2 + a3)) + ((a4 + a5) + (a6 + a7))
	for ; i < len(s); i++ {
		d := float64(s[i]) - m
		r += d * d
	}
	return r
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
