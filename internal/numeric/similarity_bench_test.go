package numeric_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/fstensor/fstensor/internal/numeric"
)

func BenchmarkDot(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{768} {
		x, y := randVec(r, n), randVec(r, n)
		b.Run(fmt.Sprintf("op=dot/dtype=float32/n=%d/impl=numeric", n), func(b *testing.B) {
			b.SetBytes(int64(8 * n))
			b.ReportAllocs()
			var s float32
			for b.Loop() {
				s += numeric.Dot(x, y)
			}
			_ = s
		})
		b.Run(fmt.Sprintf("op=dot/dtype=float32/n=%d/impl=copy", n), func(b *testing.B) {
			dst := make([]float32, 2*n)
			b.SetBytes(int64(8 * n))
			b.ReportAllocs()
			for b.Loop() {
				copy(dst[:n], x)
				copy(dst[n:], y)
			}
		})
	}
}

// BenchmarkScores reports GFLOP/s as "flop/s" through SetBytes of 2*n*nq*d
// (one "byte" per floating-point operation).
func BenchmarkScores(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	const n, d = 120, 768
	for _, nq := range []int{16, 64} {
		x, q := randVec(r, n*d), randVec(r, nq*d)
		p := numeric.Pack(q, nq, d)
		out := make([]float32, n*p.Stride())
		b.Run(fmt.Sprintf("op=scores/dtype=float32/shape=%dx%d/queries=%d/impl=numeric", n, d, nq), func(b *testing.B) {
			b.SetBytes(int64(2 * n * nq * d))
			b.ReportAllocs()
			for b.Loop() {
				p.Scores(x, n, out)
			}
		})
	}
}
