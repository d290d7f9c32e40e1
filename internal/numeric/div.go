package numeric

// DivToF32 sets d[k] = float32(v[k] / c) for every k < len(d) (v at least
// as long): the float64 quotient rounded once to float32, as Go's
// conversion rounds it. Means of float32 sums end here.
func DivToF32(d []float32, v []float64, c float64) {
	v = v[:len(d)]
	n := divToF32(d, v, c)
	for k := n; k < len(d); k++ {
		d[k] = float32(v[k] / c)
	}
}
