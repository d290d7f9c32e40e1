package numeric

// Cmp is a comparison of CompareF32.
type Cmp uint8

// The comparisons of CompareF32, with Go's and NumPy's NaN rule: a
// comparison with NaN is false, but for CmpNE, which is true.
const (
	CmpLT Cmp = iota // a < b
	CmpLE            // a <= b
	CmpGT            // a > b
	CmpGE            // a >= b
	CmpEQ            // a == b
	CmpNE            // a != b
)

// CompareF32 sets d[j] to 1 where a[j] c b[j] holds and to 0 elsewhere,
// for every j < len(d). a and b must be at least as long as d. AVX2
// compares 32 elements at a time; the rest, and other machines, run the
// Go loop, with the same results.
func CompareF32(c Cmp, d []uint8, a, b []float32) {
	a, b = a[:len(d)], b[:len(d)]
	if n := compareF32(c, d, a, b); n > 0 {
		d, a, b = d[n:], a[n:], b[n:]
	}
	compareGo(c, d, a, b)
}

// CompareU8 is CompareF32 for bytes (unsigned): d[j] is 1 where a[j] c
// b[j] holds and 0 elsewhere. AVX2 compares 32 bytes at a time.
func CompareU8(c Cmp, d, a, b []uint8) {
	a, b = a[:len(d)], b[:len(d)]
	if n := compareU8(c, d, a, b); n > 0 {
		d, a, b = d[n:], a[n:], b[n:]
	}
	compareGo(c, d, a, b)
}

// compareGo is the Go loop of CompareF32 and CompareU8.
func compareGo[T float32 | uint8](c Cmp, d []uint8, a, b []T) {
	a, b = a[:len(d)], b[:len(d)]
	for j := range d {
		var v bool
		switch c {
		case CmpLT:
			v = a[j] < b[j]
		case CmpLE:
			v = a[j] <= b[j]
		case CmpGT:
			v = a[j] > b[j]
		case CmpGE:
			v = a[j] >= b[j]
		case CmpEQ:
			v = a[j] == b[j]
		case CmpNE:
			v = a[j] != b[j]
		}
		d[j] = 0
		if v {
			d[j] = 1
		}
	}
}

// SelectU8 sets d[j] to a[j] where c[j] is not 0 and to b[j] elsewhere,
// for every j < len(d): NumPy's where over bytes. c, a and b must be at
// least as long as d. AVX2 selects 32 bytes at a time.
func SelectU8(d, c, a, b []uint8) {
	c, a, b = c[:len(d)], a[:len(d)], b[:len(d)]
	if n := selectU8(d, c, a, b); n > 0 {
		d, c, a, b = d[n:], c[n:], a[n:], b[n:]
	}
	for j := range d {
		if c[j] != 0 {
			d[j] = a[j]
		} else {
			d[j] = b[j]
		}
	}
}
