//go:build !amd64 || purego

package vecmath

// useAsm is false: the pure-Go build has no assembly kernels.
var useAsm = false

func dotF32(a, b *float32, n int) float32         { panic("vecmath: no assembly") }
func sqL2F32(a, b *float32, n int) float32        { panic("vecmath: no assembly") }
func dot3F32(a, b *float32, n int, r *[3]float32) { panic("vecmath: no assembly") }
func dot2F32(a, b *float32, n int, r *[2]float32) { panic("vecmath: no assembly") }
func gemm6x16F32(x *float32, ldx int, q *float32, d int, out *float32, ldo int) {
	panic("vecmath: no assembly")
}
