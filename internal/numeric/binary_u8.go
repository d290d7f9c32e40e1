package numeric

// U8Op is an operation of BinaryU8.
type U8Op uint8

// The operations of BinaryU8, on bytes as unsigned integers: sums,
// differences and products wrap around (modulo 256, as NumPy's uint8
// arithmetic).
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

// BinaryU8 sets d[j] = a[j] op b[j] for every j < len(d). a and b must be
// at least as long as d; d may be a or b. AVX2 handles 32 bytes at a
// time, the Go loop the rest and other machines, with the same results.
func BinaryU8(op U8Op, d, a, b []uint8) {
	a, b = a[:len(d)], b[:len(d)]
	if n := binaryU8(op, d, a, b); n > 0 {
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
