//go:build !purego

package numeric

// dotF32x32 returns the dot product of n float32 at a and b; n is a
// multiple of 32. Implemented in similarity_amd64.s.
//
//go:noescape
func dotF32x32(a, b *float32, n int) float32

// sqL2F32x32 returns the squared distance of n float32 at a and b; n is a
// multiple of 32. Implemented in similarity_amd64.s.
//
//go:noescape
func sqL2F32x32(a, b *float32, n int) float32

// dot3F32x16 stores a.b, a.a and b.b of n float32 at a and b in r; n is a
// multiple of 16. Implemented in similarity_amd64.s.
//
//go:noescape
func dot3F32x16(a, b *float32, n int, r *[3]float32)

// dot2F32x32 stores a.b and a.a of n float32 at a and b in r; n is a
// multiple of 32. Implemented in similarity_amd64.s.
//
//go:noescape
func dot2F32x32(a, b *float32, n int, r *[2]float32)
