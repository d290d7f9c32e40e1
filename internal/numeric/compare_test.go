package numeric_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fstensor/fstensor/internal/numeric"
)

// checkCompare runs compare over pairs of arrays of every length around
// the kernels' 32 elements and from unaligned starts, their elements
// drawn by pair, against Go's comparisons, and checks that nothing
// outside d is written.
func checkCompare[T numeric.Number](t *testing.T, pair func() (T, T), compare func(numeric.Cmp, []uint8, []T, []T)) {
	refs := map[numeric.Cmp]func(x, y T) bool{
		numeric.CmpLT: func(x, y T) bool { return x < y },
		numeric.CmpLE: func(x, y T) bool { return x <= y },
		numeric.CmpGT: func(x, y T) bool { return x > y },
		numeric.CmpGE: func(x, y T) bool { return x >= y },
		numeric.CmpEQ: func(x, y T) bool { return x == y },
		numeric.CmpNE: func(x, y T) bool { return x != y },
	}
	for c, ref := range refs {
		for _, n := range []int{0, 1, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 1000} {
			for _, off := range []int{0, 1, 3} {
				a := make([]T, n+off)
				b := make([]T, n+off)
				for i := range a {
					a[i], b[i] = pair()
				}
				d := make([]uint8, n+off+1)
				for i := range d {
					d[i] = 0xAA
				}
				compare(c, d[off:off+n], a[off:], b[off:])
				for j := range n {
					want := uint8(0)
					if ref(a[off+j], b[off+j]) {
						want = 1
					}
					if d[off+j] != want {
						t.Fatalf("cmp %d n %d off %d: element %d (%v, %v) gave %d, want %d", c, n, off, j, a[off+j], b[off+j], d[off+j], want)
					}
				}
				if d[off+n] != 0xAA || (off > 0 && d[off-1] != 0xAA) {
					t.Fatalf("cmp %d n %d off %d: wrote outside d", c, n, off)
				}
			}
		}
	}
}

// TestCompareF32 compares float32 arrays holding NaN, infinities, both zeros and
// equal pairs on every path.
func TestCompareF32(t *testing.T) {
	paths(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(7, 8))
		specials := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 0, float32(math.Copysign(0, -1)), 1, -1}
		value := func() float32 {
			if rng.IntN(4) == 0 {
				return specials[rng.IntN(len(specials))]
			}
			return float32(rng.IntN(5)) - 2
		}
		checkCompare(t, func() (float32, float32) {
			a := value()
			if rng.IntN(2) == 0 {
				return a, a
			}
			return a, value()
		}, numeric.Compare[float32])
	})
}

// BenchmarkCompareF32 compares 16 MiB of float32 with a constant (bytes:
// the input read), beside copy() of the same bytes.
func BenchmarkCompareF32(b *testing.B) {
	const n = 4 << 20
	a := make([]float32, n)
	k := make([]float32, n)
	for i := range a {
		a[i] = float32(i%1000)/1000 - 0.5
	}
	d := make([]uint8, n)
	for _, path := range []string{"simd", "go"} {
		b.Run(fmt.Sprintf("op=greater/path=%s", path), func(b *testing.B) {
			if path == "go" {
				defer numeric.SetAVX2(false)()
			}
			b.SetBytes(4 * n)
			b.ReportAllocs()
			for b.Loop() {
				numeric.Compare(numeric.CmpGT, d, a, k)
			}
		})
	}
	b.Run("op=greater/impl=copy", func(b *testing.B) {
		src := make([]byte, 4*n)
		dst := make([]byte, 4*n)
		b.SetBytes(4 * n)
		b.ReportAllocs()
		for b.Loop() {
			copy(dst, src)
		}
	})
}

// TestCompareOthers compares float64 (with NaN) and int16 elements, which
// run the Go loops only.
func TestCompareOthers(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	checkCompare(t, func() (float64, float64) {
		v := []float64{math.NaN(), math.Inf(-1), -1, 0, 1}
		return v[rng.IntN(len(v))], v[rng.IntN(len(v))]
	}, numeric.Compare[float64])
	checkCompare(t, func() (int16, int16) {
		a := int16(rng.IntN(5) - 2)
		return a, int16(rng.IntN(5) - 2)
	}, numeric.Compare[int16])
}

// TestCompareU8 compares bytes, unsigned, around 0, 127, 128 and 255
// and equal pairs, on every path.
func TestCompareU8(t *testing.T) {
	paths(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(9, 10))
		edges := []uint8{0, 1, 127, 128, 129, 254, 255}
		checkCompare(t, func() (uint8, uint8) {
			a := edges[rng.IntN(len(edges))]
			switch rng.IntN(3) {
			case 0:
				return a, a
			case 1:
				return a, edges[rng.IntN(len(edges))]
			}
			return a, uint8(rng.Uint32())
		}, numeric.Compare[uint8])
	})
}

// TestSelect selects elements of every size by masks of 0, 1, 128 and
// 255, of every length 0..70 (around each kernel's 32 bytes) and from
// unaligned starts, into another slice and in place, on every path,
// comparing bits: float elements include NaNs with payloads.
func TestSelect(t *testing.T) {
	paths(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(11, 12))
		t.Run("dtype=uint8", func(t *testing.T) {
			checkSelect(t, rng, func(x uint64) uint8 { return uint8(x) }, func(v uint8) uint64 { return uint64(v) })
		})
		t.Run("dtype=int8", func(t *testing.T) {
			checkSelect(t, rng, func(x uint64) int8 { return int8(x) }, func(v int8) uint64 { return uint64(uint8(v)) })
		})
		t.Run("dtype=int16", func(t *testing.T) {
			checkSelect(t, rng, func(x uint64) int16 { return int16(x) }, func(v int16) uint64 { return uint64(uint16(v)) })
		})
		t.Run("dtype=uint32", func(t *testing.T) {
			checkSelect(t, rng, func(x uint64) uint32 { return uint32(x) }, func(v uint32) uint64 { return uint64(v) })
		})
		t.Run("dtype=float32", func(t *testing.T) {
			from := func(x uint64) float32 {
				if x&3 == 0 {
					return math.Float32frombits(f32Specials[(x>>2)%uint64(len(f32Specials))])
				}
				return math.Float32frombits(uint32(x))
			}
			checkSelect(t, rng, from, func(v float32) uint64 { return uint64(math.Float32bits(v)) })
		})
		t.Run("dtype=int64", func(t *testing.T) {
			checkSelect(t, rng, func(x uint64) int64 { return int64(x) }, func(v int64) uint64 { return uint64(v) })
		})
		t.Run("dtype=float64", func(t *testing.T) {
			from := func(x uint64) float64 {
				if x&3 == 0 {
					return math.Float64frombits(0x7ff0000000000001 | x&0x800fffff00000000) // NaNs, signaling and quiet
				}
				return math.Float64frombits(x)
			}
			checkSelect(t, rng, from, math.Float64bits)
		})
	})
}

// checkSelect runs Select over elements made by from of random bits and
// compares their bits, and that nothing outside d is written.
func checkSelect[T numeric.Number](t *testing.T, rng *rand.Rand, from func(uint64) T, bits func(T) uint64) {
	for _, n := range tailLengths {
		for off := range 4 {
			for _, in := range []string{"none", "a", "b"} {
				c := make([]uint8, n+off)
				a := make([]T, n+off)
				b := make([]T, n+off)
				for i := range c {
					c[i] = []uint8{0, 1, 128, 255}[rng.IntN(4)]
					a[i], b[i] = from(rng.Uint64()), from(rng.Uint64())
				}
				want := make([]uint64, n)
				for j := range n {
					want[j] = bits(b[off+j])
					if c[off+j] != 0 {
						want[j] = bits(a[off+j])
					}
				}
				guard := from(0x5a5a5a5a5a5a5a5a)
				d := make([]T, n+off+1)
				for i := range d {
					d[i] = guard
				}
				dst := d[off : off+n]
				switch in {
				case "a":
					dst = a[off : off+n]
				case "b":
					dst = b[off : off+n]
				}
				numeric.Select(dst, c[off:], a[off:], b[off:])
				for j := range n {
					if got := bits(dst[j]); got != want[j] {
						t.Fatalf("n %d off %d in %s: element %d (mask %d) is %#x, want %#x", n, off, in, j, c[off+j], got, want[j])
					}
				}
				if bits(d[off+n]) != bits(guard) || (off > 0 && bits(d[off-1]) != bits(guard)) {
					t.Fatalf("n %d off %d: wrote outside d", n, off)
				}
			}
		}
	}
}
