package numeric

// BinaryF32 sets d[j] = a[j] op b[j] for every j < len(d) (b[j] op a[j]
// for RSub and RDiv), each result rounded to float32: ApplyF32 with a
// separate destination. a and b must be at least as long as d; d may be
// a or b, and must not overlap them otherwise.
func BinaryF32(op Op, d, a, b []float32) { binaryTo(op, d, a, b, false) }

// BinaryStreamF32 is BinaryF32 writing d with non-temporal stores that
// bypass the caches where the kernels allow (AVX2, d 32-byte aligned, op
// among Add..RDiv), for results written once and read much later. d must
// not overlap a or b.
func BinaryStreamF32(op Op, d, a, b []float32) { binaryTo(op, d, a, b, true) }

func binaryTo(op Op, d, a, b []float32, stream bool) {
	a, b = a[:len(d)], b[:len(d)]
	if n := binaryF32(op, d, a, b, stream); n > 0 {
		d, a, b = d[n:], a[n:], b[n:]
	}
	if len(d) == 0 {
		return
	}
	if &d[0] == &b[0] && &d[0] != &a[0] {
		// d is b: copying a into d first would lose b.
		for j := range d {
			d[j] = apply1(op, a[j], b[j])
		}
		return
	}
	if &d[0] != &a[0] {
		copy(d, a)
	}
	ApplyF32(op, d, b)
}

// BinaryScalarF32 sets d[j] = a[j] op c for every j < len(d) (c op a[j]
// for RSub and RDiv): ApplyScalarF32 with a separate destination. a must
// be at least as long as d; d may be a, and must not overlap it
// otherwise.
func BinaryScalarF32(op Op, d, a []float32, c float32) { binaryScalarTo(op, d, a, c, false) }

// BinaryScalarStreamF32 is BinaryScalarF32 writing d with non-temporal
// stores, as BinaryStreamF32 does. d must not overlap a.
func BinaryScalarStreamF32(op Op, d, a []float32, c float32) { binaryScalarTo(op, d, a, c, true) }

func binaryScalarTo(op Op, d, a []float32, c float32, stream bool) {
	a = a[:len(d)]
	if n := binaryScalarF32(op, d, a, c, stream); n > 0 {
		d, a = d[n:], a[n:]
	}
	if len(d) == 0 {
		return
	}
	if &d[0] != &a[0] {
		copy(d, a)
	}
	ApplyScalarF32(op, d, c)
}

// apply1 returns v op k as ApplyF32 computes it.
func apply1(op Op, v, k float32) float32 {
	switch op {
	case Add:
		return v + k
	case Sub:
		return v - k
	case Mul:
		return v * k
	case Div:
		return v / k
	case RSub:
		return k - v
	case RDiv:
		return k / v
	case Max:
		if v < k {
			return k
		}
	case Min:
		if v > k {
			return k
		}
	}
	return v
}
