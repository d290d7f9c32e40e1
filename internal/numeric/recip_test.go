package numeric_test

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/fstensor/fstensor/internal/numeric"
)

// TestDivScalar checks that DivScalarF32 gives the bits of float32
// division on random bit patterns (subnormals, infinities and NaN
// included), on quotients of integers and on quotients near the smallest
// normal value, on both paths and in place, and DivScalarStreamPrefetchF32
// the same with any prefetched bytes and destination alignment, on
// every path (AVX-512, AVX2, Go).
func TestDivScalar(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	special := []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)),
		float32(math.NaN()), math.SmallestNonzeroFloat32, math.MaxFloat32, 1, -1, 3, 0.1, 7e-39}
	pf := make([]byte, 1000) // prefetched lines: shorter or longer than d's
	paths(t, func(t *testing.T) { checkDivScalar(t, r, special, pf) })
}

func checkDivScalar(t *testing.T, r *rand.Rand, special []float32, pf []byte) {
	for trial := range 3000 {
		c := math.Float32frombits(r.Uint32())
		switch {
		case trial < len(special):
			c = special[trial]
		case trial%3 == 0:
			c = float32(r.IntN(1<<20) + 1)
		}
		n := 1 + r.IntN(100)
		a := make([]float32, n)
		for i := range a {
			switch r.IntN(5) {
			case 0:
				a[i] = special[r.IntN(len(special))]
			case 1:
				a[i] = float32(r.IntN(1 << 24))
			case 2:
				a[i] = float32(0x1p-126) * c * float32(0.5+r.Float64()) // near the smallest normal quotient
			default:
				a[i] = math.Float32frombits(r.Uint32())
			}
		}
		for _, mode := range []string{"to", "stream", "stream prefetch", "stream prefetch 64", "stream prefetch misaligned", "in place"} {
			d := aligned32(n)
			switch mode {
			case "to":
				numeric.DivScalarF32(d, a, c)
			case "stream":
				numeric.DivScalarStreamF32(d, a, c)
			case "stream prefetch":
				numeric.DivScalarStreamPrefetchF32(d, a, c, pf[:r.IntN(len(pf))])
			case "stream prefetch 64": // the AVX-512 kernel's alignment
				d = aligned64(n)
				numeric.DivScalarStreamPrefetchF32(d, a, c, pf[:r.IntN(len(pf))])
			case "stream prefetch misaligned":
				d = aligned32(n + 1)[1:]
				numeric.DivScalarStreamPrefetchF32(d, a, c, pf[r.IntN(64):])
			default:
				copy(d, a)
				numeric.DivScalarF32(d, d, c)
			}
			for i, v := range a {
				w := v / c
				if math.Float32bits(d[i]) != math.Float32bits(w) && !(w != w && d[i] != d[i]) {
					t.Fatalf("%s: %v / %v = %v, want %v", mode, v, c, d[i], w)
				}
			}
		}
	}
}

// aligned64 returns n float32 starting on a 64-byte boundary.
func aligned64(n int) []float32 {
	s := make([]float32, n+16)
	for i := range 16 {
		if uintptr(unsafe.Pointer(&s[i]))&63 == 0 {
			return s[i : i+n]
		}
	}
	panic("no aligned start")
}
