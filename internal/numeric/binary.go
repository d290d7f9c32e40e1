package numeric

// BinaryF32 sets d[j] = a[j] op b[j] for every j < len(d) (b[j] op a[j]
// for RSub and RDiv), each result rounded to float32: ApplyF32 with a
// separate destination. a and b must be at least as long as d; d may be
// a or b, and must not overlap them otherwise.
func BinaryF32(op Op, d, a, b []float32) {
	a, b = a[:len(d)], b[:len(d)]
	if n := binaryF32(op, d, a, b); n > 0 {
		d, a, b = d[n:], a[n:], b[n:]
	}
	if len(d) == 0 {
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
func BinaryScalarF32(op Op, d, a []float32, c float32) {
	a = a[:len(d)]
	if n := binaryScalarF32(op, d, a, c); n > 0 {
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
