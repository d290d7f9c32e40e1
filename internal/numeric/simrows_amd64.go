//go:build !purego

package numeric

// dotRowsF32x32 sets out[r] to dotF32x32 of the n float32 at x + r*stride
// bytes and q, with its bits, for r < rows; n is a positive multiple of
// 32, rows > 0. Implemented in simrows_amd64.s.
//
//go:noescape
func dotRowsF32x32(x *float32, stride int, q *float32, n, rows int, out *float32)

// sqL2RowsF32x32 is dotRowsF32x32 for sqL2F32x32. Implemented in
// simrows_amd64.s.
//
//go:noescape
func sqL2RowsF32x32(x *float32, stride int, q *float32, n, rows int, out *float32)

// dotRowsF32x32Z is dotRowsF32x32 with AVX-512F, with the same bits.
// Implemented in simrows_amd64.s.
//
//go:noescape
func dotRowsF32x32Z(x *float32, stride int, q *float32, n, rows int, out *float32)

// sqL2RowsF32x32Z is sqL2RowsF32x32 with AVX-512F, with the same bits.
// Implemented in simrows_amd64.s.
//
//go:noescape
func sqL2RowsF32x32Z(x *float32, stride int, q *float32, n, rows int, out *float32)
