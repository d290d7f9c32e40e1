package numeric_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fstensor/fstensor/internal/numeric"
)

// expWant reports whether got is ExpF32's result for x: the bits of
// float32(math.Exp(float64(x))), or, where e^x lies within 2^-46
// (relative) of the midpoint of two float32 values, either of them.
func expWant(x, got float32) bool {
	v := math.Exp(float64(x))
	want := float32(v)
	if math.Float32bits(got) == math.Float32bits(want) {
		return true
	}
	lo, hi := float32(v*(1-0x1p-46)), float32(v*(1+0x1p-46))
	return lo != hi && (got == lo || got == hi)
}

// TestExpF32 checks ExpF32 against math.Exp on the special values, the
// edges of overflow and underflow, arguments spread over the finite
// range and random bit patterns, on both paths, into another slice and
// in place.
func TestExpF32(t *testing.T) {
	special := []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)),
		float32(math.NaN()), math.Float32frombits(0x7fc12345), math.Float32frombits(0xff800001),
		math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32, math.MaxFloat32, -math.MaxFloat32,
		88.72283, 88.72284, 88.7, 89, -87.33654, -87.34, -103.97, -103.972, -103.98, -104, 1, -1, 0.5, 1e-30}
	r := rand.New(rand.NewPCG(3, 4))
	const n = 200003
	a := make([]float32, n)
	for i := range a {
		switch {
		case i < len(special):
			a[i] = special[i]
		case i%3 == 0:
			a[i] = math.Float32frombits(r.Uint32())
		case i%3 == 1:
			a[i] = float32(r.Float64()*200 - 108)
		default:
			a[i] = float32(r.NormFloat64())
		}
	}
	paths(t, func(t *testing.T) {
		for _, k := range []struct {
			name string
			on   bool
		}{{"avx512", true}, {"no avx512", false}} {
			if k.on && !numeric.HasAVX512() {
				continue
			}
			t.Run(k.name, func(t *testing.T) {
				defer numeric.SetAVX512(k.on)()
				expCases(t, a)
			})
		}
	})
}

// expCases runs ExpF32 over prefixes of a, into another slice and in
// place.
func expCases(t *testing.T, a []float32) {
	n := len(a)
	for _, tc := range []struct {
		name    string
		inPlace bool
	}{{"into another slice", false}, {"in place", true}} {
		t.Run(tc.name, func(t *testing.T) {
			for _, m := range []int{0, 1, 7, 8, 9, 15, 16, 23, 24, 31, 32, 33, n} {
				src := append([]float32(nil), a[:m]...)
				d := make([]float32, m)
				if tc.inPlace {
					d = src
				}
				numeric.ExpF32(d, src)
				bad := 0
				for i, g := range d {
					if !expWant(a[i], g) {
						if bad++; bad <= 5 {
							t.Errorf("len %d: exp(%g) (bits %#08x) = %g (bits %#08x), want %g",
								m, a[i], math.Float32bits(a[i]), g, math.Float32bits(g), float32(math.Exp(float64(a[i]))))
						}
					}
				}
			}
		})
	}
}

// BenchmarkExpF32 runs ExpF32 over 4096 elements in cache, beside the
// float32(math.Exp(float64(x))) loop it replaces.
func BenchmarkExpF32(b *testing.B) {
	a := make([]float32, 4096)
	for i := range a {
		a[i] = float32(i%200) / 10
	}
	d := make([]float32, len(a))
	for _, on := range []bool{true, false} {
		b.Run(fmt.Sprintf("impl=kernel/avx512=%v", on && numeric.HasAVX512()), func(b *testing.B) {
			defer numeric.SetAVX512(on)()
			b.SetBytes(int64(4 * len(a)))
			b.ReportAllocs()
			for b.Loop() {
				numeric.ExpF32(d, a)
			}
		})
	}
	b.Run("impl=math", func(b *testing.B) {
		b.SetBytes(int64(4 * len(a)))
		b.ReportAllocs()
		for b.Loop() {
			for j, v := range a {
				d[j] = float32(math.Exp(float64(v)))
			}
		}
	})
	b.Run("impl=copy", func(b *testing.B) {
		b.SetBytes(int64(4 * len(a)))
		b.ReportAllocs()
		for b.Loop() {
			copy(d, a)
		}
	})
}
