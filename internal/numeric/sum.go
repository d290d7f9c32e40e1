package numeric

import "math"

// block is the length below which a pairwise sum adds sequentially
// (into 8 accumulators).
const block = 128

// Leaves of the pairwise sums with the AVX2 kernels (16 float64
// accumulators): float64 leaves as long as NumPy's (16 terms per
// accumulator), float32 leaves longer (each term is exact in float64).
const (
	leafF64 = 256
	leafF32 = 2048
)

// maxLeaves is the number of leaves SumF64 sums in one kernel call
// before adding their sums pairwise.
const maxLeaves = 64

// SumF64 returns the sum of s, pairwise: leaves of leafF64 elements
// summed by the kernel a run of them at a time, their sums added
// pairwise.
func SumF64(s []float64) float64 {
	if !useAVX2 {
		return sumF64Go(s)
	}
	return sumF64Tree(s, 0)
}

// sumF64Tree is SumF64 with the kernels, whose loads ahead may read the
// after elements that follow s, as sumF32Tree.
func sumF64Tree(s []float64, after int) float64 {
	if len(s) > leafF64*maxLeaves {
		h := len(s) / 2 / leafF64 * leafF64
		return sumF64Tree(s[:h], len(s)-h+after) + sumF64Tree(s[h:], after)
	}
	m := len(s) / leafF64
	var leaves [maxLeaves]float64
	var r float64
	if m > 1 && sumLeavesF64(s, leaves[:m], after) {
		r = pairwise(leaves[:m])
		s = s[m*leafF64:]
	}
	t, n := sumF64(s)
	return r + (t + sumF64Go(s[n:]))
}

// pairwise returns the sum of a few values, halving.
func pairwise(v []float64) float64 {
	if len(v) == 1 {
		return v[0]
	}
	h := len(v) / 2
	return pairwise(v[:h]) + pairwise(v[h:])
}

func sumF64Go(s []float64) float64 {
	if len(s) <= block {
		var a [8]float64
		i := 0
		for ; i+8 <= len(s); i += 8 {
			a[0] += s[i]
			a[1] += s[i+1]
			a[2] += s[i+2]
			a[3] += s[i+3]
			a[4] += s[i+4]
			a[5] += s[i+5]
			a[6] += s[i+6]
			a[7] += s[i+7]
		}
		r := ((a[0] + a[1]) + (a[2] + a[3])) + ((a[4] + a[5]) + (a[6] + a[7]))
		for ; i < len(s); i++ {
			r += s[i]
		}
		return r
	}
	h := len(s) / 2 &^ 7
	return sumF64Go(s[:h]) + sumF64Go(s[h:])
}

// SumF32 returns the sum of s in float64, pairwise.
func SumF32(s []float32) float64 {
	if useAVX2 {
		return sumF32Tree(s, 0)
	}
	return sumF32Go(s)
}

// sumF32Tree is SumF32 with the kernels, whose loads ahead may read the
// after elements that follow s (in its capacity): the rest of the data
// of the sum that s is a part of.
func sumF32Tree(s []float32, after int) float64 {
	if len(s) > leafF32 {
		h := len(s) / 2 &^ 15
		return sumF32Tree(s[:h], len(s)-h+after) + sumF32Tree(s[h:], after)
	}
	r, n := sumF32(s, after)
	return r + sumF32Go(s[n:])
}

func sumF32Go(s []float32) float64 {
	if len(s) <= block {
		var a [8]float64
		i := 0
		for ; i+8 <= len(s); i += 8 {
			a[0] += float64(s[i])
			a[1] += float64(s[i+1])
			a[2] += float64(s[i+2])
			a[3] += float64(s[i+3])
			a[4] += float64(s[i+4])
			a[5] += float64(s[i+5])
			a[6] += float64(s[i+6])
			a[7] += float64(s[i+7])
		}
		r := ((a[0] + a[1]) + (a[2] + a[3])) + ((a[4] + a[5]) + (a[6] + a[7]))
		for ; i < len(s); i++ {
			r += float64(s[i])
		}
		return r
	}
	h := len(s) / 2 &^ 7
	return sumF32Go(s[:h]) + sumF32Go(s[h:])
}

// SumU8 returns the exact sum of s.
func SumU8(s []uint8) uint64 {
	var acc [1]uint64
	SumU8Periodic(acc[:], s)
	return acc[0]
}

// MaxF32 returns the largest element of s, NaN if s holds a NaN, -Inf
// for an empty s.
func MaxF32(s []float32) float32 { return extremeF32Of(s, true) }

// MinF32 returns the smallest element of s, NaN if s holds a NaN, +Inf
// for an empty s.
func MinF32(s []float32) float32 { return extremeF32Of(s, false) }

func extremeF32Of(s []float32, max bool) float32 {
	m, nan, n := extremeF32(s, max)
	if n == 0 {
		return extreme(s, max)
	}
	if nan {
		return float32(math.NaN())
	}
	r := extreme(s[n:], max)
	if r != r || max && r > m || !max && r < m {
		return r
	}
	return m
}

// sumSqTail is SumSqF32's loop over the elements its kernel leaves.
func sumSqTail(x []float32) float64 {
	var a [4]float64
	j := 0
	for ; j+4 <= len(x); j += 4 {
		a[0] += float64(x[j]) * float64(x[j])
		a[1] += float64(x[j+1]) * float64(x[j+1])
		a[2] += float64(x[j+2]) * float64(x[j+2])
		a[3] += float64(x[j+3]) * float64(x[j+3])
	}
	for ; j < len(x); j++ {
		a[0] += float64(x[j]) * float64(x[j])
	}
	return (a[0] + a[1]) + (a[2] + a[3])
}

// SumSqF32 returns the sum of x[j]*x[j] in float64, pairwise over blocks.
func SumSqF32(x []float32) float64 { return sumSqF32Tree(x, 0) }

// sumSqF32Tree is SumSqF32 with after elements of the data following x,
// as sumF32Tree.
func sumSqF32Tree(x []float32, after int) float64 {
	if len(x) > leafF32 {
		h := len(x) / 2 &^ 15
		return sumSqF32Tree(x[:h], len(x)-h+after) + sumSqF32Tree(x[h:], after)
	}
	r, n := sumSqF32(x, after)
	return r + sumSqTail(x[n:])
}

// SumSqDevF32 returns the sum of (float64(x[j]) - m)^2 in float64,
// pairwise over blocks as SumSqF32: the second pass of a variance.
func SumSqDevF32(x []float32, m float64) float64 { return sumSqDevF32Tree(x, m, 0) }

// sumSqDevF32Tree is SumSqDevF32 with after elements of the data
// following x, as sumF32Tree.
func sumSqDevF32Tree(x []float32, m float64, after int) float64 {
	if len(x) > leafF32 {
		h := len(x) / 2 &^ 15
		return sumSqDevF32Tree(x[:h], m, len(x)-h+after) + sumSqDevF32Tree(x[h:], m, after)
	}
	r, n := sumSqDevF32(x, m, after)
	var a [4]float64
	j := n
	for ; j+4 <= len(x); j += 4 {
		d0, d1, d2, d3 := float64(x[j])-m, float64(x[j+1])-m, float64(x[j+2])-m, float64(x[j+3])-m
		a[0] += d0 * d0
		a[1] += d1 * d1
		a[2] += d2 * d2
		a[3] += d3 * d3
	}
	for ; j < len(x); j++ {
		d := float64(x[j]) - m
		a[0] += d * d
	}
	return r + ((a[0] + a[1]) + (a[2] + a[3]))
}

// SumDevF64 returns the sum of x[j] - k, pairwise over leaves of 256
// elements: the first pass of a variance, k a shift near the data.
func SumDevF64(x []float64, k float64) float64 { return devSumF64(x, k, false) }

// SumSqDevF64 returns the sum of (x[j] - m)^2, pairwise over leaves of
// 256 elements: the second pass of a variance.
func SumSqDevF64(x []float64, m float64) float64 { return devSumF64(x, m, true) }

func devSumF64(x []float64, k float64, sq bool) float64 {
	if len(x) > leafF64 {
		h := len(x) / 2 &^ 15
		return devSumF64(x[:h], k, sq) + devSumF64(x[h:], k, sq)
	}
	r, n := devF64(x, k, sq)
	var a [4]float64
	j := n
	for ; j+4 <= len(x); j += 4 {
		d := [4]float64{x[j] - k, x[j+1] - k, x[j+2] - k, x[j+3] - k}
		if sq {
			d[0], d[1], d[2], d[3] = d[0]*d[0], d[1]*d[1], d[2]*d[2], d[3]*d[3]
		}
		a[0] += d[0]
		a[1] += d[1]
		a[2] += d[2]
		a[3] += d[3]
	}
	for ; j < len(x); j++ {
		d := x[j] - k
		if sq {
			d *= d
		}
		a[0] += d
	}
	return r + ((a[0] + a[1]) + (a[2] + a[3]))
}

// MaxF64 is MaxF32 for float64.
func MaxF64(s []float64) float64 { return extreme(s, true) }

// MinF64 is MinF32 for float64.
func MinF64(s []float64) float64 { return extreme(s, false) }

func extreme[T float32 | float64](s []T, max bool) T {
	var a [4]T
	inf := T(math.Inf(1))
	if max {
		inf = -inf
	}
	a = [4]T{inf, inf, inf, inf}
	nan := false
	i := 0
	for ; i+4 <= len(s); i += 4 {
		for k := range 4 {
			v := s[i+k]
			nan = nan || v != v
			if max && v > a[k] || !max && v < a[k] {
				a[k] = v
			}
		}
	}
	for ; i < len(s); i++ {
		v := s[i]
		nan = nan || v != v
		if max && v > a[0] || !max && v < a[0] {
			a[0] = v
		}
	}
	if nan {
		return T(math.NaN())
	}
	r := a[0]
	for _, v := range a[1:] {
		if max && v > r || !max && v < r {
			r = v
		}
	}
	return r
}
