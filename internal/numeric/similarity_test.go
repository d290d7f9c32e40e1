package numeric_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fstensor/fstensor/internal/numeric"
)

func randVec(r *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return v
}

// ref returns a.b, |a-b|^2, a.a, b.b and sum |a_i b_i| in float64.
func ref(a, b []float32) (dot, sq, aa, bb, abs float64) {
	for i := range a {
		x, y := float64(a[i]), float64(b[i])
		dot += x * y
		sq += (x - y) * (x - y)
		aa += x * x
		bb += y * y
		abs += math.Abs(x * y)
	}
	return
}

func close32(got float32, want, scale float64, n int) bool {
	tol := (float64(n)/8 + 8) * 0x1p-23 * scale
	return math.Abs(float64(got)-want) <= tol
}

func TestKernels(t *testing.T) {
	paths(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(1, 2))
		for _, n := range []int{0, 1, 3, 15, 16, 17, 31, 32, 33, 64, 100, 768, 1031} {
			a, b := randVec(r, n), randVec(r, n+5)
			dot, sq, aa, bb, abs := ref(a, b[:n])
			if got := numeric.Dot(a, b); !close32(got, dot, abs, n) {
				t.Errorf("n=%d: Dot = %v, want %v", n, got, dot)
			}
			if got := numeric.SquaredL2(a, b); !close32(got, sq, sq, n) {
				t.Errorf("n=%d: SquaredL2 = %v, want %v", n, got, sq)
			}
			gab, gaa, gbb := numeric.DotNorms(a, b)
			if !close32(gab, dot, abs, n) || !close32(gaa, aa, aa, n) || !close32(gbb, bb, bb, n) {
				t.Errorf("n=%d: DotNorms = %v %v %v, want %v %v %v", n, gab, gaa, gbb, dot, aa, bb)
			}
			gab, gaa = numeric.DotNorm(a, b)
			if !close32(gab, dot, abs, n) || !close32(gaa, aa, aa, n) {
				t.Errorf("n=%d: DotNorm = %v %v, want %v %v", n, gab, gaa, dot, aa)
			}
			a64, b64 := make([]float64, n), make([]float64, n)
			for i := range a64 {
				a64[i], b64[i] = float64(a[i]), float64(b[i])
			}
			if got := numeric.Dot(a64, b64); math.Abs(got-dot) > 1e-12*(abs+1) {
				t.Errorf("n=%d: Dot float64 = %v, want %v", n, got, dot)
			}
			if got := numeric.SquaredL2(a64, b64); math.Abs(got-sq) > 1e-12*(sq+1) {
				t.Errorf("n=%d: SquaredL2 float64 = %v, want %v", n, got, sq)
			}
		}
	})
}
