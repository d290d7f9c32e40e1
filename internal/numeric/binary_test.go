package numeric_test

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/fstensor/fstensor/internal/numeric"
)

// TestBinary checks BinaryF32 and BinaryScalarF32 element by element,
// into a separate destination and in place, on both paths.
func TestBinary(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	nan := float32(math.NaN())
	want := func(op numeric.Op, a, b float32) float32 {
		switch op {
		case numeric.Add:
			return a + b
		case numeric.Sub:
			return a - b
		case numeric.Mul:
			return a * b
		case numeric.Div:
			return a / b
		case numeric.RSub:
			return b - a
		case numeric.RDiv:
			return b / a
		case numeric.Max:
			if a < b {
				return b
			}
			return a
		}
		if a > b {
			return b
		}
		return a
	}
	same := func(x, y float32) bool { return x == y || x != x && y != y }
	paths(t, func(t *testing.T) {
		for op := numeric.Add; op <= numeric.Min; op++ {
			for _, n := range lengths[:12] {
				a, b := make([]float32, n), make([]float32, n)
				for i := range a {
					a[i], b[i] = float32(r.NormFloat64()), float32(r.NormFloat64())
					if i%13 == 5 {
						a[i] = nan
					}
					if i%17 == 3 {
						b[i] = nan
					}
				}
				for _, mode := range []string{"to", "in place", "into b", "stream"} {
					inPlace := mode == "in place"
					d := aligned32(n) // the non-temporal kernels need it
					switch {
					case mode == "stream":
						numeric.BinaryStreamF32(op, d, a, b)
					case inPlace:
						d = append(d[:0], a...)
						numeric.BinaryF32(op, d, d, b)
					case mode == "into b":
						d = append(d[:0], b...)
						numeric.BinaryF32(op, d, a, d)
					default:
						numeric.BinaryF32(op, d, a, b)
					}
					for i := range d {
						if w := want(op, a[i], b[i]); !same(w, d[i]) {
							t.Fatalf("BinaryF32(%d) %s at %d of %d: %v op %v = %v, want %v", op, mode, i, n, a[i], b[i], d[i], w)
						}
					}
					switch {
					case mode == "stream":
						numeric.BinaryScalarStreamF32(op, d, a, -1.25)
					case inPlace:
						d = append(d[:0], a...)
						numeric.BinaryScalarF32(op, d, d, -1.25)
					default:
						numeric.BinaryScalarF32(op, d, a, -1.25)
					}
					for i := range d {
						if w := want(op, a[i], -1.25); !same(w, d[i]) {
							t.Fatalf("BinaryScalarF32(%d) %s at %d of %d: %v op -1.25 = %v, want %v", op, mode, i, n, a[i], d[i], w)
						}
					}
				}
			}
		}
	})
}

// aligned32 returns n float32 starting on a 32-byte boundary.
func aligned32(n int) []float32 {
	s := make([]float32, n+8)
	for i := range 8 {
		if uintptr(unsafe.Pointer(&s[i]))&31 == 0 {
			return s[i : i+n]
		}
	}
	panic("no aligned start")
}
