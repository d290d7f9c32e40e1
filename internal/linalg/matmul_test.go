package linalg_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

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

// kernel is a setting of the kernels the tests cover.
type kernel struct {
	name        string
	asm, avx512 bool
}

// kernels returns the Go kernel, AVX2 and FMA, and AVX-512, each where
// the CPU has it.
func kernels() []kernel {
	ks := []kernel{{"go", false, false}}
	if linalg.HasAsm() {
		ks = append(ks, kernel{"avx2", true, false})
	}
	if linalg.HasAVX512() {
		ks = append(ks, kernel{"avx512", true, true})
	}
	return ks
}

// paths runs f with each kernel of kernels.
func paths(t *testing.T, f func(t *testing.T)) {
	for _, k := range kernels() {
		t.Run("kernel="+k.name, func(t *testing.T) {
			defer linalg.SetKernels(k.asm, k.avx512)()
			f(t)
		})
	}
}

// TestMatMul checks MatMulF32, MatMulF64 and the packed forms against a
// float64 reference on every shape, with both kernels.
func TestMatMul(t *testing.T) {
	paths(t, testMatMul)
}

func testMatMul(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 1))
	for _, s := range shapes(r) {
		m, k, n := s[0], s[1], s[2]
		t.Run(fmt.Sprintf("m=%d/k=%d/n=%d", m, k, n), func(t *testing.T) {
			a, b := toF64(toF32(randF64(r, m*k))), toF64(toF32(randF64(r, k*n)))
			want, abs := ref(a, b, m, k, n)
			a32, b32 := toF32(a), toF32(b)
			got32 := matmulF32(t, a32, b32, m, k, n)
			within(t, toF64(got32), want, abs, k, 0x1p-24)
			packed := make([]float32, m*n)
			linalg.PackF32(b32, k, n).MulF32(packed, a32, m)
			if diff := cmp.Diff(got32, packed, cmpopts.EquateNaNs()); diff != "" {
				t.Errorf("PackedF32.MulF32 differs from MatMulF32 (-want +got):\n%s", diff)
			}
			c64 := randF64(r, m*n)
			linalg.MatMulF64(c64, a, b, m, k, n)
			within(t, c64, want, abs, k, 0x1p-52)
			packed64 := make([]float64, m*n)
			linalg.PackF64(b, k, n).MulF64(packed64, a, m)
			if diff := cmp.Diff(c64, packed64, cmpopts.EquateNaNs()); diff != "" {
				t.Errorf("PackedF64.MulF64 differs from MatMulF64 (-want +got):\n%s", diff)
			}
		})
	}
}

// matmulF32 returns MatMulF32 of a and b, run on a c that starts as NaN
// with a guard element past its end: every element of c must be written
// and nothing past it.
func matmulF32(t *testing.T, a, b []float32, m, k, n int) []float32 {
	t.Helper()
	c := make([]float32, m*n+1)
	for i := range c {
		c[i] = float32(math.NaN())
	}
	c[m*n] = 42
	linalg.MatMulF32(c[:m*n], a, b, m, k, n)
	if c[m*n] != 42 {
		t.Errorf("MatMulF32 wrote past c")
	}
	return c[:m*n]
}

// TestKernelsAgree checks that every kernel gives the bits of the Go
// kernel, each running one chain of fused multiply-adds per element, and
// that an operand packed for one kernel multiplies under any other.
func TestKernelsAgree(t *testing.T) {
	ks := kernels()
	if len(ks) == 1 {
		t.Skip("only the Go kernel runs here")
	}
	r := rand.New(rand.NewPCG(25, 2))
	for _, s := range [][3]int{{1, 1, 1}, {7, 300, 33}, {13, 768, 128}, {100, 17, 31}} {
		m, k, n := s[0], s[1], s[2]
		t.Run(fmt.Sprintf("m=%d/k=%d/n=%d", m, k, n), func(t *testing.T) {
			a, b := randF64(r, m*k), randF64(r, k*n)
			a32, b32 := toF32(a), toF32(b)
			type result struct {
				MatMulF32, PackedF32, Cross32 []float32
				MatMulF64, PackedF64, Cross64 []float64
			}
			var want result
			var packed32 *linalg.PackedF32
			var packed64 *linalg.PackedF64
			for i, kn := range ks {
				restore := linalg.SetKernels(kn.asm, kn.avx512)
				got := result{
					MatMulF32: matmulF32(t, a32, b32, m, k, n),
					PackedF32: make([]float32, m*n),
					Cross32:   make([]float32, m*n),
					MatMulF64: make([]float64, m*n),
					PackedF64: make([]float64, m*n),
					Cross64:   make([]float64, m*n),
				}
				linalg.PackF32(b32, k, n).MulF32(got.PackedF32, a32, m)
				linalg.MatMulF64(got.MatMulF64, a, b, m, k, n)
				linalg.PackF64(b, k, n).MulF64(got.PackedF64, a, m)
				// Cross: packed under the previous kernel, multiplied
				// under this one.
				if i == 0 {
					packed32, packed64 = linalg.PackF32(b32, k, n), linalg.PackF64(b, k, n)
				}
				packed32.MulF32(got.Cross32, a32, m)
				packed64.MulF64(got.Cross64, a, m)
				packed32, packed64 = linalg.PackF32(b32, k, n), linalg.PackF64(b, k, n)
				restore()
				if i == 0 {
					want = got
					continue
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("kernel=%s differs from kernel=%s (-want +got):\n%s", kn.name, ks[0].name, diff)
				}
			}
		})
	}
}

// TestNonFinite checks that NaN and Inf propagate as in the float64
// chain of the same products: NaN where a NaN, Inf * 0 or Inf - Inf
// meets an element, ±Inf where only infinities of one sign do.
func TestNonFinite(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	type put struct {
		a    bool // in a, else in b
		i, j int
		v    float64
	}
	tests := []struct {
		name    string
		m, k, n int
		puts    []put
	}{
		{"nan in a", 7, 33, 17, []put{{true, 3, 5, nan}}},
		{"nan in b", 7, 33, 17, []put{{false, 32, 16, nan}}},
		{"inf in a", 13, 300, 33, []put{{true, 12, 299, inf}}},
		{"-inf in b", 13, 300, 33, []put{{false, 0, 0, -inf}}},
		{"inf times zero", 6, 20, 16, []put{{true, 2, 4, inf}, {false, 4, 7, 0}}},
		{"inf minus inf", 6, 300, 16, []put{{true, 1, 2, inf}, {true, 1, 280, -inf}}},
	}
	paths(t, func(t *testing.T) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				r := rand.New(rand.NewPCG(25, 3))
				a, b := toF64(toF32(randF64(r, tt.m*tt.k))), toF64(toF32(randF64(r, tt.k*tt.n)))
				for _, p := range tt.puts {
					if p.a {
						a[p.i*tt.k+p.j] = p.v
					} else {
						b[p.i*tt.n+p.j] = p.v
					}
				}
				want, _ := ref(a, b, tt.m, tt.k, tt.n)
				got := toF64(matmulF32(t, toF32(a), toF32(b), tt.m, tt.k, tt.n))
				got64 := make([]float64, tt.m*tt.n)
				linalg.MatMulF64(got64, a, b, tt.m, tt.k, tt.n)
				special := 0
				for i, w := range want {
					if math.IsNaN(w) || math.IsInf(w, 0) {
						special++
						for _, g := range []float64{got[i], got64[i]} {
							if !(math.IsNaN(w) && math.IsNaN(g) || g == w) {
								t.Errorf("element %d = %v, want %v", i, g, w)
							}
						}
					}
				}
				if special == 0 {
					t.Fatal("the row's values give no NaN or Inf")
				}
			})
		}
	})
}

// TestPanics checks the documented panics on caller errors: a negative
// size, or a slice shorter than its matrix (an overflowing product of
// sizes included).
func TestPanics(t *testing.T) {
	big := math.MaxInt/2 + 1
	tests := []struct {
		name       string
		lc, la, lb int
		m, k, n    int
	}{
		{"negative m", 0, 0, 0, -1, 0, 0},
		{"negative k", 0, 0, 0, 0, -1, 0},
		{"negative n", 0, 0, 0, 0, 0, -1},
		{"short c", 3, 6, 6, 2, 3, 2},
		{"short a", 4, 5, 6, 2, 3, 2},
		{"short b", 4, 6, 5, 2, 3, 2},
		{"overflowing m*k", 0, 0, 0, big, 2, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := map[string]func(){
				"MatMulF32": func() {
					linalg.MatMulF32(make([]float32, tt.lc), make([]float32, tt.la), make([]float32, tt.lb), tt.m, tt.k, tt.n)
				},
				"MatMulF64": func() {
					linalg.MatMulF64(make([]float64, tt.lc), make([]float64, tt.la), make([]float64, tt.lb), tt.m, tt.k, tt.n)
				},
			}
			if tt.k >= 0 && tt.n >= 0 && tt.k*tt.n <= tt.lb {
				p := linalg.PackF32(make([]float32, tt.lb), tt.k, tt.n)
				calls["PackedF32.MulF32"] = func() { p.MulF32(make([]float32, tt.lc), make([]float32, tt.la), tt.m) }
			} else {
				calls["PackF32"] = func() { linalg.PackF32(make([]float32, tt.lb), tt.k, tt.n) }
			}
			for name, call := range calls {
				if !panics(call) {
					t.Errorf("%s did not panic", name)
				}
			}
		})
	}
	if panics(func() { linalg.MatMulF32(make([]float32, 4), make([]float32, 6), make([]float32, 6), 2, 3, 2) }) {
		t.Error("MatMulF32 panicked on slices of the exact lengths")
	}
}

func panics(f func()) (panicked bool) {
	defer func() { panicked = recover() != nil }()
	f()
	return false
}
