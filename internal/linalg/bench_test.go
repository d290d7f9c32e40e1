package linalg_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/fstensor/fstensor/internal/linalg"
)

// benchShapes are the products of x @ W the engine runs: blocks of m rows
// times the projection matrices of issue 25.
var benchShapes = [][3]int{
	{256, 768, 128}, {256, 768, 768}, {256, 1024, 256}, {4096, 768, 128},
}

func randF32(r *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return v
}

// BenchmarkMatMul runs each shape through MatMulF32 (impl=matmul), a
// prepacked right operand (impl=packed), MatMulF64 (dtype=float64) and,
// as the baseline of the same bytes, copy() of a, b and c (impl=copy).
// Bytes are those of a, b and c; GFLOP/s counts 2*m*k*n per product.
func BenchmarkMatMul(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, s := range benchShapes {
		m, k, n := s[0], s[1], s[2]
		a, w, c := randF32(r, m*k), randF32(r, k*n), make([]float32, m*n)
		a64, w64, c64 := toF64(a), toF64(w), make([]float64, m*n)
		pw := linalg.PackF32(w, k, n)
		flop := 2 * float64(m) * float64(k) * float64(n)
		name := fmt.Sprintf("m=%d/k=%d/n=%d", m, k, n)
		run := func(b *testing.B, size int, f func()) {
			b.SetBytes(int64(size * (m*k + k*n + m*n)))
			b.ReportAllocs()
			for b.Loop() {
				f()
			}
			b.ReportMetric(flop*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		}
		b.Run(name+"/dtype=float32/impl=matmul", func(b *testing.B) {
			run(b, 4, func() { linalg.MatMulF32(c, a, w, m, k, n) })
		})
		b.Run(name+"/dtype=float32/impl=packed", func(b *testing.B) {
			run(b, 4, func() { pw.MulF32(c, a, m) })
		})
		b.Run(name+"/dtype=float64/impl=matmul", func(b *testing.B) {
			run(b, 8, func() { linalg.MatMulF64(c64, a64, w64, m, k, n) })
		})
		src := randF32(r, m*k+k*n+m*n)
		dst := make([]float32, len(src))
		b.Run(name+"/dtype=float32/impl=copy", func(b *testing.B) {
			b.SetBytes(int64(4 * len(src)))
			b.ReportAllocs()
			for b.Loop() {
				copy(dst, src)
			}
		})
	}
}
