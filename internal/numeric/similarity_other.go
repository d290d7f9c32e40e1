//go:build !amd64 || purego

package numeric

// The pure-Go build never calls these: useAVX2 is false.

func dotF32x32(a, b *float32, n int) float32         { panic("numeric: no assembly") }
func sqL2F32x32(a, b *float32, n int) float32        { panic("numeric: no assembly") }
func dot3F32x16(a, b *float32, n int, r *[3]float32) { panic("numeric: no assembly") }
func dot2F32x32(a, b *float32, n int, r *[2]float32) { panic("numeric: no assembly") }
