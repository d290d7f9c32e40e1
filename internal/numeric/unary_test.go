package numeric_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fstensor/fstensor/internal/numeric"
)

// f32Specials are the float32 values the unary tests mix into random
// ones: NaNs of both signs, quiet and signaling, with payloads; ±Inf; ±0;
// subnormals; halves and near-halves for rounding; values about 2^23 and
// 2^24, above which every float32 is an integer.
var f32Specials = []uint32{
	0x7fc00000, 0xffc00000, 0x7fc12345, 0xffd54321, // quiet NaNs
	0x7f800001, 0xff800001, 0x7fa00000, 0xff812345, // signaling NaNs
	0x7f800000, 0xff800000, 0x00000000, 0x80000000, // ±Inf, ±0
	0x00000001, 0x80000001, 0x007fffff, 0x807fffff, // subnormals
	0x00800000, 0x7f7fffff, 0xff7fffff, // smallest normal, ±max
	0x3f000000, 0xbf000000, 0x3fc00000, 0xbfc00000, // ±0.5, ±1.5
	0x40200000, 0xc0200000, 0x3effffff, 0x3f000001, // ±2.5, just below and above 0.5
	0x4afffffe, 0x4affffff, 0x4b000000, 0x4b000001, // 2^23-1, 2^23-0.5, 2^23, 2^23+1
	0xcaffffff, 0xcb000001, 0x4b7fffff, 0x4b800001, // -(2^23-0.5), -(2^23+1), 2^24-1, 2^24+2
}

// unaryRefs are Go's computations UnaryF32 must give the bits of: the
// expression engine's own through float64.
var unaryRefs = map[numeric.F32Op]func(float32) float32{
	numeric.F32Sqrt:   func(x float32) float32 { return float32(math.Sqrt(float64(x))) },
	numeric.F32Abs:    func(x float32) float32 { return float32(math.Abs(float64(x))) },
	numeric.F32Neg:    func(x float32) float32 { return -x },
	numeric.F32Square: func(x float32) float32 { return x * x },
	numeric.F32Floor:  func(x float32) float32 { return float32(math.Floor(float64(x))) },
	numeric.F32Ceil:   func(x float32) float32 { return float32(math.Ceil(float64(x))) },
	numeric.F32Round:  func(x float32) float32 { return float32(math.RoundToEven(float64(x))) },
}

// TestUnaryF32 runs every operation over every length 0..70 from
// unaligned starts, into another slice and in place, on every path,
// against Go's bits, on special values mixed with random bit patterns
// and with random values of a few units (where the roundings differ).
func TestUnaryF32(t *testing.T) {
	paths(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(21, 22))
		value := func() float32 {
			switch rng.IntN(3) {
			case 0:
				return math.Float32frombits(f32Specials[rng.IntN(len(f32Specials))])
			case 1:
				return math.Float32frombits(rng.Uint32())
			}
			return float32(rng.IntN(64)-32) / 4 * float32(1+rng.IntN(3)) / 3
		}
		for op, ref := range unaryRefs {
			for n := range 71 {
				for off := range 4 {
					for _, inPlace := range []bool{false, true} {
						checkUnaryF32(t, op, ref, n, off, inPlace, value)
					}
				}
			}
		}
	})
}

// TestUnaryF32Specials runs every operation over every special value in
// every lane of a kernel's block on every path.
func TestUnaryF32Specials(t *testing.T) {
	paths(t, func(t *testing.T) {
		for op, ref := range unaryRefs {
			for lane := range 8 {
				a := make([]float32, 16)
				for _, bits := range f32Specials {
					a[lane] = math.Float32frombits(bits)
					d := make([]float32, len(a))
					numeric.UnaryF32(op, d, a)
					if got, want := math.Float32bits(d[lane]), math.Float32bits(ref(a[lane])); got != want {
						t.Errorf("op %d lane %d: %#08x gave %#08x, want %#08x", op, lane, bits, got, want)
					}
				}
			}
		}
	})
}

// checkUnaryF32 runs op over n values drawn by value from offset off and
// compares the bits with ref's, and that nothing outside d is written.
func checkUnaryF32(t *testing.T, op numeric.F32Op, ref func(float32) float32, n, off int, inPlace bool, value func() float32) {
	t.Helper()
	a := make([]float32, n+off)
	for i := range a {
		a[i] = value()
	}
	want := make([]uint32, n)
	for j := range n {
		want[j] = math.Float32bits(ref(a[off+j]))
	}
	in := append([]float32(nil), a[off:]...)
	d := make([]float32, n+off+1)
	for i := range d {
		d[i] = 7
	}
	dst := d[off : off+n]
	if inPlace {
		dst = a[off:]
	}
	numeric.UnaryF32(op, dst, a[off:])
	for j := range n {
		if got := math.Float32bits(dst[j]); got != want[j] {
			t.Fatalf("op %d n %d off %d in place %v: element %d %#08x gave %#08x, want %#08x", op, n, off, inPlace, j, math.Float32bits(in[j]), got, want[j])
		}
	}
	if !inPlace && (d[off+n] != 7 || (off > 0 && d[off-1] != 7)) {
		t.Fatalf("op %d n %d off %d: wrote outside d", op, n, off)
	}
}
