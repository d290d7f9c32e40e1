package numeric

import "math"

// F32Op is an operation of UnaryF32.
type F32Op uint8

// The operations of UnaryF32. Each gives the bits of Go's computation
// through float64 (float32(math.Sqrt(float64(x))) and so on): the result
// rounded correctly to float32, -0 kept where IEEE 754 keeps it, a NaN
// operand's payload and sign kept, a signaling NaN quieted (by F32Abs
// too, which clears its sign), the negative sqrt's NaN the machine's
// default one. F32Neg flips the sign bit of every value, NaN included,
// as Go's -x does.
const (
	F32Sqrt   F32Op = iota // √x
	F32Abs                 // |x|
	F32Neg                 // -x
	F32Square              // x * x
	F32Floor               // ⌊x⌋
	F32Ceil                // ⌈x⌉
	F32Round               // x rounded to the nearest integer, halves to even
)

// UnaryF32 sets d[j] = op(a[j]) for every j < len(d). a must be at least
// as long as d; d may be a but must not otherwise overlap it. AVX2
// handles 8 elements at a time, the Go loop the rest and other machines,
// with the same bits.
func UnaryF32(op F32Op, d, a []float32) { Unary(op, d, a) }

// Unary is UnaryF32 for float32 or float64 elements: float64 ones go
// through the Go loops, which compute each operation in float64 as for
// float32 (without the rounding to float32).
func Unary[F ~float32 | ~float64](op F32Op, d, a []F) {
	a = a[:len(d)]
	if x, ok := any(d).([]float32); ok {
		if n := unaryF32(op, x, any(a).([]float32)); n > 0 {
			d, a = d[n:], a[n:]
		}
	}
	switch op {
	case F32Sqrt:
		for j, v := range a {
			d[j] = F(math.Sqrt(float64(v)))
		}
	case F32Abs:
		for j, v := range a {
			d[j] = F(math.Abs(float64(v)))
		}
	case F32Neg:
		for j, v := range a {
			d[j] = -v
		}
	case F32Square:
		for j, v := range a {
			d[j] = v * v
		}
	case F32Floor:
		for j, v := range a {
			d[j] = F(math.Floor(float64(v)))
		}
	case F32Ceil:
		for j, v := range a {
			d[j] = F(math.Ceil(float64(v)))
		}
	case F32Round:
		for j, v := range a {
			d[j] = F(math.RoundToEven(float64(v)))
		}
	}
}
