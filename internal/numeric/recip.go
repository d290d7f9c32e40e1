package numeric

// DivScalarF32 sets d[j] = a[j] / c for every j < len(d) with the bits
// of float32 division, faster than BinaryScalarF32(Div, ...): the AVX2
// kernel multiplies by the reciprocal in float64, float32(float64(a[j])
// * (1 / float64(c))), and divides where that may differ. The two
// float64 roundings leave the product within 2^-52 of the exact quotient
// (relative), while the quotient of two float32 values whose result is
// normal is either a float32 value or at least 2^-49 from the midpoint of
// two of them (infinite and NaN operands give the quotient's infinities
// and NaN): rounded to float32, the product is the correctly rounded
// quotient. A result below 2^-125 of a nonzero element (subnormal, or
// rounding to zero, where quotients can fall on midpoints) makes the
// call divide instead. a must be at least as long as d; d may be a (then
// divided: a fallback needs a), and must not overlap it otherwise.
func DivScalarF32(d, a []float32, c float32) { divScalar(d, a, c, false) }

// DivScalarStreamF32 is DivScalarF32 writing d with non-temporal stores
// that bypass the caches where the kernel allows (AVX2, d 32-byte
// aligned). d must not overlap a.
func DivScalarStreamF32(d, a []float32, c float32) { divScalar(d, a, c, true) }

// DivScalarStreamPrefetchF32 is DivScalarStreamF32 that also prefetches
// pf's whole 64-byte lines (as Prefetch does), one each 64 bytes written
// where the kernel allows, the rest after: the next block's input read
// while this one is written, without the bursts of prefetches that stall
// the stores. d must not overlap a; pf is only read by the caches.
func DivScalarStreamPrefetchF32(d, a []float32, c float32, pf []byte) {
	a = a[:len(d)]
	n := 0
	if len(d) > 0 && &d[0] != &a[0] {
		n = divScalarPF(d, a, c, pf)
	}
	if n == 0 {
		divScalar(d, a, c, true)
		Prefetch(pf)
		return
	}
	for j := n; j < len(d); j++ {
		d[j] = a[j] / c
	}
}

func divScalar(d, a []float32, c float32, stream bool) {
	a = a[:len(d)]
	n := 0
	if len(d) > 0 && &d[0] != &a[0] {
		n = divScalarF32(d, a, c, stream)
	}
	if n == 0 {
		binaryScalarTo(Div, d, a, c, stream)
		return
	}
	for j := n; j < len(d); j++ {
		d[j] = a[j] / c
	}
}
