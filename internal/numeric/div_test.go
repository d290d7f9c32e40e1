package numeric_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fstensor/fstensor/internal/numeric"
)

// TestDivToF32 checks DivToF32 bit for bit against Go's own division and
// conversion, over quotients that round, overflow float32, fall into its
// subnormals, and NaN (payloads included) and infinities.
func TestDivToF32(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), math.Float64frombits(0x7ff4000000000001),
		math.MaxFloat32 * 3, 1e-46, 1e-40, 3.4028235677973366e38, 1.0000000596046448}
	paths(t, func(t *testing.T) {
		for _, n := range []int{0, 1, 3, 4, 5, 8, 63, 64, 1000} {
			for _, c := range []float64{1, 3, 7, 4096, 1e-300, -2.5, math.Inf(1), 0, math.NaN()} {
				v := make([]float64, n)
				for i := range v {
					if i < len(special) && r.IntN(2) == 0 {
						v[i] = special[i]
					} else {
						v[i] = r.NormFloat64() * math.Exp2(float64(r.IntN(300)-150))
					}
				}
				d := make([]float32, n)
				numeric.DivToF32(d, v, c)
				for i := range d {
					want := float32(v[i] / c)
					if math.Float32bits(d[i]) != math.Float32bits(want) {
						t.Fatalf("n=%d c=%v: float32(%v / c) = %v (%#x), want %v (%#x)", n, c, v[i], d[i], math.Float32bits(d[i]), want, math.Float32bits(want))
					}
				}
			}
		}
	})
}
