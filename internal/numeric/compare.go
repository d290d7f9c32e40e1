package numeric

// Number is an element type of Compare and Select.
type Number interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~float32 | ~float64
}

// Cmp is a comparison of Compare.
type Cmp uint8

// The comparisons of Compare, with Go's and NumPy's NaN rule: a
// comparison with NaN is false, but for CmpNE, which is true.
const (
	CmpLT Cmp = iota // a < b
	CmpLE            // a <= b
	CmpGT            // a > b
	CmpGE            // a >= b
	CmpEQ            // a == b
	CmpNE            // a != b
)

// Compare sets d[j] to 1 where a[j] c b[j] holds and to 0 elsewhere, for
// every j < len(d). a and b must be at least as long as d. For float32
// and uint8 (unsigned) elements AVX2 compares 32 at a time; the rest, the
// other types and other machines run Go loops, with the same results.
func Compare[T Number](c Cmp, d []uint8, a, b []T) {
	a, b = a[:len(d)], b[:len(d)]
	n := 0
	switch x := any(a).(type) {
	case []float32:
		n = compareF32(c, d, x, any(b).([]float32))
	case []uint8:
		n = compareU8(c, d, x, any(b).([]uint8))
	}
	d, a, b = d[n:], a[n:], b[n:]
	switch c {
	case CmpLT:
		for j := range d {
			d[j] = b2u(a[j] < b[j])
		}
	case CmpLE:
		for j := range d {
			d[j] = b2u(a[j] <= b[j])
		}
	case CmpGT:
		for j := range d {
			d[j] = b2u(a[j] > b[j])
		}
	case CmpGE:
		for j := range d {
			d[j] = b2u(a[j] >= b[j])
		}
	case CmpEQ:
		for j := range d {
			d[j] = b2u(a[j] == b[j])
		}
	case CmpNE:
		for j := range d {
			d[j] = b2u(a[j] != b[j])
		}
	}
}

// Select sets d[j] to a[j] where c[j] is not 0 and to b[j] elsewhere, for
// every j < len(d): NumPy's where. c, a and b must be at least as long as
// d; d may be a or b. The elements are moved as bits (a NaN keeps its
// payload). AVX2 selects 32 bytes of elements at a time, for every
// element size.
func Select[T Number](d []T, c []uint8, a, b []T) {
	c, a, b = c[:len(d)], a[:len(d)], b[:len(d)]
	n := selectN(d, c, a, b)
	d, c, a, b = d[n:], c[n:], a[n:], b[n:]
	for j := range d {
		if c[j] != 0 {
			d[j] = a[j]
		} else {
			d[j] = b[j]
		}
	}
}

// b2u returns 1 for true and 0 for false.
func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}
