package numeric

import "math"

// Float is the element type of the kernels.
type Float interface{ float32 | float64 }

// Dot returns the dot product of a and b[:len(a)]. It panics if b is
// shorter than a.
func Dot[F Float](a, b []F) F {
	b = b[:len(a)]
	if a32, ok := any(a).([]float32); ok && useAVX2 && useFMA && len(a) >= 32 {
		b32 := any(b).([]float32)
		n := len(a32) &^ 31
		s := dotF32x32(&a32[0], &b32[0], n)
		return F(s) + dotGo(a[n:], b[n:])
	}
	return dotGo(a, b)
}

// SquaredL2 returns the squared Euclidean distance sum (a_i - b_i)^2 of a
// and b[:len(a)]. It panics if b is shorter than a.
func SquaredL2[F Float](a, b []F) F {
	b = b[:len(a)]
	if a32, ok := any(a).([]float32); ok && useAVX2 && useFMA && len(a) >= 32 {
		b32 := any(b).([]float32)
		n := len(a32) &^ 31
		s := sqL2F32x32(&a32[0], &b32[0], n)
		return F(s) + sqL2Go(a[n:], b[n:])
	}
	return sqL2Go(a, b)
}

// DotNorms returns the dot product of a and b[:len(a)] and the squared
// norms of a and b[:len(a)], in one pass. It panics if b is shorter than
// a.
func DotNorms[F Float](a, b []F) (ab, aa, bb F) {
	b = b[:len(a)]
	if a32, ok := any(a).([]float32); ok && useAVX2 && useFMA && len(a) >= 16 {
		b32 := any(b).([]float32)
		n := len(a32) &^ 15
		var r [3]float32
		dot3F32x16(&a32[0], &b32[0], n, &r)
		ab, aa, bb = dot3Go(a[n:], b[n:])
		return F(r[0]) + ab, F(r[1]) + aa, F(r[2]) + bb
	}
	return dot3Go(a, b)
}

// DotNorm returns the dot product of a and b[:len(a)] and the squared
// norm of a, in one pass. It panics if b is shorter than a.
func DotNorm[F Float](a, b []F) (ab, aa F) {
	b = b[:len(a)]
	if a32, ok := any(a).([]float32); ok && useAVX2 && useFMA && len(a) >= 32 {
		b32 := any(b).([]float32)
		n := len(a32) &^ 31
		var r [2]float32
		dot2F32x32(&a32[0], &b32[0], n, &r)
		ab, aa, _ = dot3Go(a[n:], b[n:])
		return F(r[0]) + ab, F(r[1]) + aa
	}
	ab, aa, _ = dot3Go(a, b)
	return ab, aa
}

// Norm returns the Euclidean norm sqrt(Dot(a, a)) of a, rounded to F.
func Norm[F Float](a []F) F { return F(math.Sqrt(float64(Dot(a, a)))) }

// Cosine returns the cosine similarity a.b / (|a| bnorm) of a and
// b[:len(a)], in one pass over a, given bnorm = Norm(b[:len(a)]): NaN when
// a norm is 0, as NumPy's dot/(norm*norm). It panics if b is shorter than
// a.
func Cosine[F Float](a, b []F, bnorm F) F {
	ab, aa := DotNorm(a, b)
	return ab / (F(math.Sqrt(float64(aa))) * bnorm)
}

func dotGo[F Float](a, b []F) F {
	b = b[:len(a)]
	var s0, s1, s2, s3 F
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

func sqL2Go[F Float](a, b []F) F {
	b = b[:len(a)]
	var s0, s1, s2, s3 F
	i := 0
	for ; i+4 <= len(a); i += 4 {
		d0 := a[i] - b[i]
		d1 := a[i+1] - b[i+1]
		d2 := a[i+2] - b[i+2]
		d3 := a[i+3] - b[i+3]
		s0 += d0 * d0
		s1 += d1 * d1
		s2 += d2 * d2
		s3 += d3 * d3
	}
	for ; i < len(a); i++ {
		d := a[i] - b[i]
		s0 += d * d
	}
	return (s0 + s1) + (s2 + s3)
}

func dot3Go[F Float](a, b []F) (ab, aa, bb F) {
	b = b[:len(a)]
	var ab1, aa1, bb1 F
	i := 0
	for ; i+2 <= len(a); i += 2 {
		x0, y0, x1, y1 := a[i], b[i], a[i+1], b[i+1]
		ab += x0 * y0
		aa += x0 * x0
		bb += y0 * y0
		ab1 += x1 * y1
		aa1 += x1 * x1
		bb1 += y1 * y1
	}
	if i < len(a) {
		x, y := a[i], b[i]
		ab += x * y
		aa += x * x
		bb += y * y
	}
	return ab + ab1, aa + aa1, bb + bb1
}
