package numeric

import "math"

// ExpF32 sets d[j] = e^a[j] for every j < len(d) (a at least as long; d
// may be a exactly, and must not overlap it otherwise): the float64
// exponential rounded once to float32, as float32(math.Exp(float64(a[j])))
// gives it. The AVX2 kernel (with FMA) computes e^x in float64 as
// 2^k · p(r), x = k·ln 2 + r with |r| <= ln 2 / 2 and p the degree-12
// Taylor polynomial, within 2^-50 of e^x (relative): its float32 rounding
// is math.Exp's wherever e^x is not within about 2^-50 of the midpoint of
// two float32 values, and one ULP from it there. NaN gives the same NaN,
// +Inf and arguments above about 88.72 give +Inf, -Inf and arguments
// below about -103.97 give 0, subnormal results are rounded once. Where
// the CPU has AVX-512F, a kernel of eight float64 lanes does the same
// operations, with the same bits.
func ExpF32(d, a []float32) {
	a = a[:len(d)]
	n := expF32(d, a)
	for j := n; j < len(d); j++ {
		d[j] = float32(math.Exp(float64(a[j])))
	}
}
