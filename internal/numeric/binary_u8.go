package numeric

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
