package numeric

import "unsafe"

// U8Op is an operation of BinaryInt (named for the bytes it first ran on).
type U8Op uint8

// The operations of BinaryInt: sums, differences and products wrap
// around (modulo 256 for bytes, as NumPy's integer arithmetic).
const (
	U8Add U8Op = iota // a + b
	U8Sub             // a - b
	U8Min             // min(a, b)
	U8Max             // max(a, b)
	U8And             // a & b
	U8Or              // a | b
	U8Xor             // a ^ b
	U8Mul             // a * b
)

// Int is the set of integer element types BinaryInt computes on.
type Int interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// BinaryInt sets d[j] = a[j] op b[j] for every j < len(d), op one of
// the U8Op operations on integers of T: sums, differences and products
// wrap around (as NumPy's integer arithmetic), minimum and maximum
// compare as T (signed or unsigned). a and b must be at least as long as
// d; d may be a or b. AVX2 handles 32 bytes at a time for the 8-, 16-
// and 32-bit types (no 64-bit product, minimum or maximum there), the Go
// loop the rest and other machines, with the same results.
func BinaryInt[T Int](op U8Op, d, a, b []T) {
	a, b = a[:len(d)], b[:len(d)]
	if n := binaryInt(op, unsafe.Sizeof(T(0)), T(0)-1 < 0, d, a, b); n > 0 {
		d, a, b = d[n:], a[n:], b[n:]
	}
	for j := range d {
		x, y := a[j], b[j]
		switch op {
		case U8Add:
			d[j] = x + y
		case U8Sub:
			d[j] = x - y
		case U8Min:
			d[j] = min(x, y)
		case U8Max:
			d[j] = max(x, y)
		case U8And:
			d[j] = x & y
		case U8Or:
			d[j] = x | y
		case U8Xor:
			d[j] = x ^ y
		case U8Mul:
			d[j] = x * y
		}
	}
}
