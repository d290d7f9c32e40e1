package linalg_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fstensor/fstensor/internal/linalg"
)

// sizes are the dimensions the shape tests combine: empty, the edges of
// the register tiles, primes and the embedding width.
var sizes = []int{0, 1, 2, 3, 7, 8, 15, 16, 17, 31, 33, 100, 768}

// shapes returns (m, k, n) triples: every combination of the small sizes,
// and random picks among all of them with at most ~4M multiply-adds.
func shapes(r *rand.Rand) [][3]int {
	var out [][3]int
	for _, m := range sizes[:9] {
		for _, k := range sizes[:9] {
			for _, n := range sizes[:9] {
				if (m+k+n)%3 == 0 || m*k*n == 0 {
					out = append(out, [3]int{m, k, n})
				}
			}
		}
	}
	for len(out) < 400 {
		s := [3]int{sizes[r.IntN(len(sizes))], sizes[r.IntN(len(sizes))], sizes[r.IntN(len(sizes))]}
		if s[0]*s[1]*s[2] <= 4<<20 {
			out = append(out, s)
		}
	}
	return append(out, [3]int{768, 768, 7}, [3]int{5, 1031, 129}, [3]int{257, 300, 33})
}

// ref returns a @ b and |a| @ |b| in float64, from float64 inputs.
func ref(a, b []float64, m, k, n int) (c, abs []float64) {
	c, abs = make([]float64, m*n), make([]float64, m*n)
	for i := range m {
		for p := range k {
			for j := range n {
				x := a[i*k+p] * b[p*n+j]
				c[i*n+j] += x
				abs[i*n+j] += math.Abs(x)
			}
		}
	}
	return c, abs
}

func randF64(r *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = r.NormFloat64()
	}
	return v
}

func toF32(v []float64) []float32 {
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(x)
	}
	return out
}

func toF64(v []float32) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

// within checks got against want: each element within (k+4) * eps * the
// sum of the magnitudes of its products, the error bound of a chain of
// k fused multiply-adds.
func within(t *testing.T, got, want, abs []float64, k int, eps float64) {
	t.Helper()
	bad := 0
	for i := range want {
		tol := float64(k+4) * eps * abs[i]
		if !(math.Abs(got[i]-want[i]) <= tol) {
			if bad++; bad <= 5 {
				t.Errorf("element %d = %v, want %v (tolerance %g)", i, got[i], want[i], tol)
			}
		}
	}
}

func TestMatMul(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 1))
	for _, s := range shapes(r) {
		m, k, n := s[0], s[1], s[2]
		t.Run(fmt.Sprintf("m=%d/k=%d/n=%d", m, k, n), func(t *testing.T) {
			a, b := toF64(toF32(randF64(r, m*k))), toF64(toF32(randF64(r, k*n)))
			want, abs := ref(a, b, m, k, n)
			// c starts as garbage with a guard tail: every element of
			// c is written and nothing past it.
			c32 := make([]float32, m*n+1)
			for i := range c32 {
				c32[i] = float32(math.NaN())
			}
			c32[m*n] = 42
			linalg.MatMulF32(c32[:m*n], toF32(a), toF32(b), m, k, n)
			if c32[m*n] != 42 {
				t.Errorf("MatMulF32 wrote past c")
			}
			within(t, toF64(c32[:m*n]), want, abs, k, 0x1p-24)
			c64 := randF64(r, m*n)
			linalg.MatMulF64(c64, a, b, m, k, n)
			within(t, c64, want, abs, k, 0x1p-52)
		})
	}
}
