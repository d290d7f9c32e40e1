package linalg_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/fstensor/fstensor/internal/linalg"
)

// FuzzMatMul multiplies random matrices of fuzzed shapes (up to 40 x 600
// times 600 x 70, across the blocks of k and rows and the edges of every
// tile), with a fuzzed special value (NaN, ±Inf, 0, a huge or a tiny
// number) at a fuzzed place, and checks that every kernel gives the Go
// kernel's result, which must stay within the error bound of a float64
// reference where that is finite.
func FuzzMatMul(f *testing.F) {
	f.Add(uint16(7), uint16(300), uint16(33), uint64(1), uint8(0), uint32(5))
	f.Add(uint16(6), uint16(256), uint16(32), uint64(2), uint8(1), uint32(0))
	f.Add(uint16(13), uint16(1), uint16(17), uint64(3), uint8(3), uint32(100))
	f.Fuzz(func(t *testing.T, m16, k16, n16 uint16, seed uint64, special uint8, at uint32) {
		m, k, n := int(m16%41), int(k16%601), int(n16%71)
		r := rand.New(rand.NewPCG(seed, 25))
		a, b := toF64(toF32(randF64(r, m*k))), toF64(toF32(randF64(r, k*n)))
		specials := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, 1e30, 1e-30}
		if v := specials[int(special)%len(specials)]; len(a)+len(b) > 0 {
			if i := int(at) % (len(a) + len(b)); i < len(a) {
				a[i] = v
			} else {
				b[i-len(a)] = v
			}
		}
		a32, b32 := toF32(a), toF32(b)
		var want32 []float32
		var want64 []float64
		for i, kn := range kernels() {
			restore := linalg.SetKernels(kn.asm, kn.avx512)
			got32 := matmulF32(t, a32, b32, m, k, n)
			got64 := make([]float64, m*n)
			linalg.MatMulF64(got64, a, b, m, k, n)
			restore()
			if i == 0 {
				want32, want64 = got32, got64
				continue
			}
			if diff := cmp.Diff(want32, got32, cmpopts.EquateNaNs()); diff != "" {
				t.Errorf("MatMulF32 kernel=%s (-go +got):\n%s", kn.name, diff)
			}
			if diff := cmp.Diff(want64, got64, cmpopts.EquateNaNs()); diff != "" {
				t.Errorf("MatMulF64 kernel=%s (-go +got):\n%s", kn.name, diff)
			}
		}
		ref, abs := ref(a, b, m, k, n)
		for i := range ref {
			if math.IsInf(abs[i], 0) || math.IsNaN(abs[i]) || abs[i] > math.MaxFloat32/2 {
				continue
			}
			if d := math.Abs(float64(want32[i]) - ref[i]); !(d <= float64(k+4)*0x1p-24*abs[i]+0x1p-126) {
				t.Errorf("MatMulF32 element %d = %v, want %v", i, want32[i], ref[i])
			}
		}
	})
}
