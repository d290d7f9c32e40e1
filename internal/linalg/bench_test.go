package linalg_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/fstensor/fstensor/internal/linalg"
)

// benchShapes are the products x @ W of issue 25, as m, k, n and the
// rows of one call: a block of 256 rows (what the engine passes per call)
// times each projection matrix, and 100,000 rows of 768 float32 (a 307 MB
// column) times 768 x 128, in one call and in calls of 256 rows.
// bench/peers/matmul_compare.sh runs NumPy on the same shapes.
var benchShapes = [][4]int{
	{256, 768, 128, 256}, {100000, 768, 128, 100000}, {100000, 768, 128, 256},
	{256, 768, 768, 256}, {256, 1024, 256, 256},
}

// blocks calls f on the rows [i, i+block) of m for each block.
func blocks(m, block int, f func(i, rows int)) {
	for i := 0; i < m; i += block {
		f(i, min(block, m-i))
	}
}

func randF32(r *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return v
}

// BenchmarkMatMul runs each shape through MatMulF32 (impl=matmul), a right
// operand packed beforehand (impl=packed), MatMulF64 (dtype=float64) and,
// as the baseline of the same bytes, copy() of a, b and c (impl=copy).
// Bytes are those of a, b and c; GFLOP/s counts 2*m*k*n per product.
// Float64 runs on the small shapes only. Each sub-benchmark allocates its
// matrices only when it runs.
func BenchmarkMatMul(b *testing.B) {
	for _, s := range benchShapes {
		m, k, n, block := s[0], s[1], s[2], s[3]
		name := fmt.Sprintf("m=%d/k=%d/n=%d/block=%d", m, k, n, block)
		flop := 2 * float64(m) * float64(k) * float64(n)
		elems := m*k + k*n + m*n
		run := func(b *testing.B, size int, f func()) {
			b.SetBytes(int64(size * elems))
			b.ReportAllocs()
			for b.Loop() {
				f()
			}
			b.ReportMetric(flop*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		}
		f32 := func() (a, w, c []float32) {
			r := rand.New(rand.NewPCG(1, 2))
			return randF32(r, m*k), randF32(r, k*n), make([]float32, m*n)
		}
		b.Run(name+"/dtype=float32/impl=matmul", func(b *testing.B) {
			a, w, c := f32()
			run(b, 4, func() {
				blocks(m, block, func(i, rows int) {
					linalg.MatMulF32(c[i*n:], a[i*k:], w, rows, k, n)
				})
			})
		})
		b.Run(name+"/dtype=float32/impl=packed", func(b *testing.B) {
			a, w, c := f32()
			pw := linalg.PackF32(w, k, n)
			run(b, 4, func() {
				blocks(m, block, func(i, rows int) { pw.MulF32(c[i*n:], a[i*k:], rows) })
			})
		})
		if m == block && m <= 4096 {
			b.Run(name+"/dtype=float64/impl=matmul", func(b *testing.B) {
				a, w, _ := f32()
				a64, w64, c64 := toF64(a), toF64(w), make([]float64, m*n)
				run(b, 8, func() { linalg.MatMulF64(c64, a64, w64, m, k, n) })
			})
		}
		b.Run(name+"/dtype=float32/impl=copy", func(b *testing.B) {
			src, dst := make([]float32, elems), make([]float32, elems)
			b.SetBytes(int64(4 * elems))
			b.ReportAllocs()
			for b.Loop() {
				copy(dst, src)
			}
		})
	}
}
