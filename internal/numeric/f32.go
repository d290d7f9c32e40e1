package numeric

// Op is an element-wise arithmetic operation of ApplyF32: v[j] = v[j] op
// k, or k op v[j] for RSub and RDiv. Max and Min keep a NaN of v (and
// give v where k is NaN), as NumPy's clip does.
type Op uint8

// The operations of ApplyF32 and ApplyScalarF32.
const (
	Add Op = iota
	Sub
	Mul
	Div
	RSub
	RDiv
	Max
	Min
)

// ApplyF32 sets v[j] = v[j] op k[j] for every j < len(v), each result
// rounded to float32. k must be at least as long as v.
func ApplyF32(op Op, v, k []float32) {
	k = k[:len(v)]
	if n := applyF32(op, v, k); n > 0 {
		v, k = v[n:], k[n:]
	}
	switch op {
	case Add:
		for j := range v {
			v[j] += k[j]
		}
	case Sub:
		for j := range v {
			v[j] -= k[j]
		}
	case Mul:
		for j := range v {
			v[j] *= k[j]
		}
	case Div:
		for j := range v {
			v[j] /= k[j]
		}
	case RSub:
		for j := range v {
			v[j] = k[j] - v[j]
		}
	case RDiv:
		for j := range v {
			v[j] = k[j] / v[j]
		}
	case Max:
		for j := range v {
			if v[j] < k[j] {
				v[j] = k[j]
			}
		}
	case Min:
		for j := range v {
			if v[j] > k[j] {
				v[j] = k[j]
			}
		}
	}
}

// ApplyScalarF32 sets v[j] = v[j] op c for every j.
func ApplyScalarF32(op Op, v []float32, c float32) {
	if n := applyScalarF32(op, v, c); n > 0 {
		v = v[n:]
	}
	switch op {
	case Add:
		for j := range v {
			v[j] += c
		}
	case Sub:
		for j := range v {
			v[j] -= c
		}
	case Mul:
		for j := range v {
			v[j] *= c
		}
	case Div:
		for j := range v {
			v[j] /= c
		}
	case RSub:
		for j := range v {
			v[j] = c - v[j]
		}
	case RDiv:
		for j := range v {
			v[j] = c / v[j]
		}
	case Max:
		for j := range v {
			if v[j] < c {
				v[j] = c
			}
		}
	case Min:
		for j := range v {
			if v[j] > c {
				v[j] = c
			}
		}
	}
}

// U8ToF32 sets dst[j] = float32(src[j]) for every j < len(dst).
func U8ToF32(dst []float32, src []uint8) {
	src = src[:len(dst)]
	if n := u8ToF32(dst, src); n > 0 {
		dst, src = dst[n:], src[n:]
	}
	for j, v := range src {
		dst[j] = float32(v)
	}
}

// StreamF32 copies src to dst (of the same length), with non-temporal
// stores that bypass the caches when the kernels allow (AVX2, dst 32-byte
// aligned, a length that is a multiple of 8), and with copy otherwise.
// It is for results written once and read much later.
func StreamF32(dst, src []float32) {
	src = src[:len(dst)]
	if !storeNT(dst, src) {
		copy(dst, src)
	}
}

// maxSteps bounds the steps of one ChainF32 call.
const maxSteps = 16

// Step is one operation of a chain: v = v Op K[j] with the vector K when
// it is not nil, else v = v Op C.
type Step struct {
	Op Op
	K  []float32
	C  float32
}

// ChainU8F32 sets dst[j] to float32(src[j]) run through steps in order,
// for the leading elements it handles in one pass with the AVX2 kernel
// (whole blocks of 64, steps among Add..RDiv, at most 16 of them, each
// vector at least as long as dst), and returns their number (0 without
// AVX2). With stream and dst 32-byte aligned it writes with non-temporal
// stores. The caller runs the steps over the rest.
func ChainU8F32(dst []float32, src []uint8, steps []Step, stream bool) int {
	return chain(dst, src[:len(dst)], nil, steps, stream)
}

// ChainF32 is ChainU8F32 for float32 sources.
func ChainF32(dst, src []float32, steps []Step, stream bool) int {
	return chain(dst, nil, src[:len(dst)], steps, stream)
}

// AccF32 adds x to acc element by element in float64: acc[j] +=
// float64(x[j]) for j < len(x) (acc at least as long).
func AccF32(acc []float64, x []float32) {
	acc = acc[:len(x)]
	n := accF32(acc, x)
	for j := n; j < len(x); j++ {
		acc[j] += float64(x[j])
	}
}

// AccRowsF32 adds rows rows of len(acc) float32, stride elements apart
// in x, to acc column by column in float64: acc[j] += float64(x[r*stride+j])
// for r < rows, in the order of r. Each column's sum keeps its registers
// across the rows, so x is read once and acc loaded and stored once.
func AccRowsF32(acc []float64, x []float32, rows, stride int) {
	width := len(acc)
	if rows <= 0 || width == 0 {
		return
	}
	_ = x[(rows-1)*stride+width-1]
	n := accRowsF32(acc, x, rows, stride)
	if n == width {
		return
	}
	for r := range rows {
		row := x[r*stride+n : r*stride+width]
		for j, v := range row {
			acc[n+j] += float64(v)
		}
	}
}

// AccExtremeRowsF32 keeps in acc the maximum (max) or minimum of rows
// rows of len(acc) float32, stride elements apart in x, column by
// column in float64: acc[j] = float64(x[r*stride+j]) for r < rows, in the
// order of r, when that value is a NaN or larger (smaller) than acc[j].
// A NaN, once in acc[j], stays (a later NaN replaces it): the maximum
// of a column with a NaN is NaN, as NumPy's.
func AccExtremeRowsF32(acc []float64, x []float32, rows, stride int, max bool) {
	width := len(acc)
	if rows <= 0 || width == 0 {
		return
	}
	_ = x[(rows-1)*stride+width-1]
	n := accExtremeRowsF32(acc, x, rows, stride, max)
	if n == width {
		return
	}
	acc = acc[n:]
	for r := range rows {
		row := x[r*stride+n:][:width-n]
		if max {
			for j, v := range row {
				if f := float64(v); f != f || f > acc[j] {
					acc[j] = f
				}
			}
		} else {
			for j, v := range row {
				if f := float64(v); f != f || f < acc[j] {
					acc[j] = f
				}
			}
		}
	}
}

// AccU8 adds x to acc element by element: acc[j] += uint32(x[j]) for
// j < len(x) (acc at least as long), wrapping around in 32 bits.
func AccU8(acc []uint32, x []uint8) {
	acc = acc[:len(x)]
	n := accU8(acc, x)
	for j := n; j < len(x); j++ {
		acc[j] += uint32(x[j])
	}
}
