//go:build !purego

package linalg

// kern6x16F32 sets the 6 x 16 tile at c (row stride ldc bytes) to the
// product of the 6 rows at a (row stride lda bytes) and the kc rows of 16
// float32 at b (row stride ldb bytes), plus the tile's own values when acc
// is set; each element is one chain of fused multiply-adds over the kc
// steps. kc >= 1. Implemented in kernel_amd64.s.
//
//go:noescape
func kern6x16F32(a *float32, lda int, b *float32, ldb int, kc int, c *float32, ldc int, acc bool)

// kern6x8F64 is kern6x16F32 for a 6 x 8 tile of float64. Implemented in
// kernel_amd64.s.
//
//go:noescape
func kern6x8F64(a *float64, lda int, b *float64, ldb int, kc int, c *float64, ldc int, acc bool)

// kern6x32F32Z is kern6x16F32 for a 6 x 32 tile with AVX-512F.
// Implemented in kernel_amd64.s.
//
//go:noescape
func kern6x32F32Z(a *float32, lda int, b *float32, ldb int, kc int, c *float32, ldc int, acc bool)

// kern6x16F64Z is kern6x8F64 for a 6 x 16 tile with AVX-512F.
// Implemented in kernel_amd64.s.
//
//go:noescape
func kern6x16F64Z(a *float64, lda int, b *float64, ldb int, kc int, c *float64, ldc int, acc bool)
