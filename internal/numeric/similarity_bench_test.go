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
