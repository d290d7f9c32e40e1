package numeric_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fstensor/fstensor/internal/numeric"
	"github.com/fstensor/fstensor/internal/testsupport/race"
	"github.com/google/go-cmp/cmp"
)

// paths runs f with the AVX-512 kernels and the AVX2 ones (when the CPU
// has them) and with the Go loops; under the race detector, with the
// Go loops only.
func paths(t *testing.T, f func(t *testing.T)) {
	for _, p := range []struct {
		name         string
		avx2, avx512 bool
	}{{"avx512", true, true}, {"avx2", true, false}, {"go", false, false}} {
		if p.avx512 && !numeric.HasAVX512() {
			continue
		}
		if race.Enabled && p.avx2 {
			continue // the detector sees Go's accesses only: the plain run covers the assembly
		}
		t.Run(p.name, func(t *testing.T) {
			defer numeric.SetAVX2(p.avx2)()
			defer numeric.SetAVX512(p.avx512)()
			f(t)
		})
	}
}

var lengths = []int{0, 1, 7, 8, 15, 16, 17, 100, 255, 256, 257, 1000, 2047, 2048, 2049, 5000, 100003}

func TestSums(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	paths(t, func(t *testing.T) {
		for _, n := range lengths {
			f32 := make([]float32, n)
			f64 := make([]float64, n)
			var exact float64
			for i := range f32 {
				f32[i] = float32(r.Float64()*2 - 0.5)
				f64[i] = float64(f32[i])
				exact += f64[i] // float64 sums of float32 values: far inside the tolerance
			}
			tol := 1e-12 * float64(n+1)
			if got := numeric.SumF32(f32); math.Abs(got-exact) > tol {
				t.Errorf("SumF32 of %d = %v, want %v", n, got, exact)
			}
			if got := numeric.SumF64(f64); math.Abs(got-exact) > tol {
				t.Errorf("SumF64 of %d = %v, want %v", n, got, exact)
			}
		}
	})
}

func TestSumSq(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	paths(t, func(t *testing.T) {
		for _, n := range lengths {
			x := make([]float32, n)
			var sq float64
			for i := range x {
				x[i] = float32(r.NormFloat64())
				sq += float64(x[i]) * float64(x[i])
			}
			tol := 1e-12 * float64(n+1)
			if got := numeric.SumSqF32(x); math.Abs(got-sq) > tol*(1+sq) {
				t.Errorf("SumSqF32 of %d = %v, want %v", n, got, sq)
			}
		}
	})
}

func TestExtremesLong(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	paths(t, func(t *testing.T) {
		for _, n := range lengths[1:] {
			x := make([]float32, n)
			for i := range x {
				x[i] = float32(r.NormFloat64())
			}
			mx, mn := x[0], x[0]
			for _, v := range x {
				mx, mn = max(mx, v), min(mn, v)
			}
			if got := numeric.MaxF32(x); got != mx {
				t.Errorf("MaxF32 of %d = %v, want %v", n, got, mx)
			}
			if got := numeric.MinF32(x); got != mn {
				t.Errorf("MinF32 of %d = %v, want %v", n, got, mn)
			}
			x[r.IntN(n)] = float32(math.NaN())
			if got := numeric.MaxF32(x); got == got {
				t.Errorf("MaxF32 of %d with a NaN = %v", n, got)
			}
			if got := numeric.MinF32(x); got == got {
				t.Errorf("MinF32 of %d with a NaN = %v", n, got)
			}
		}
	})
}

func TestExtremes(t *testing.T) {
	s := []float32{3, -1, 7, 2}
	if got := numeric.MaxF32(s); got != 7 {
		t.Errorf("MaxF32 = %v", got)
	}
	if got := numeric.MinF32(s); got != -1 {
		t.Errorf("MinF32 = %v", got)
	}
	s[2] = float32(math.NaN())
	if got := numeric.MaxF32(s); got == got {
		t.Errorf("MaxF32 with a NaN = %v, want NaN", got)
	}
	if got := numeric.MinF64(nil); !math.IsInf(got, 1) {
		t.Errorf("MinF64 of nothing = %v, want +Inf", got)
	}
}

// TestApply checks every operation against float32 arithmetic, vector and
// scalar, NaNs included, at every length around the kernels' blocks.
func TestApply(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	nan := float32(math.NaN())
	want := func(op numeric.Op, v, k float32) float32 {
		switch op {
		case numeric.Add:
			return v + k
		case numeric.Sub:
			return v - k
		case numeric.Mul:
			return v * k
		case numeric.Div:
			return v / k
		case numeric.RSub:
			return k - v
		case numeric.RDiv:
			return k / v
		case numeric.Max:
			if v < k {
				return k
			}
			return v
		}
		if v > k {
			return k
		}
		return v
	}
	same := func(a, b float32) bool { return a == b || a != a && b != b }
	paths(t, func(t *testing.T) {
		for op := numeric.Add; op <= numeric.Min; op++ {
			for _, n := range lengths[:12] {
				v := make([]float32, n)
				k := make([]float32, n)
				for i := range v {
					v[i], k[i] = float32(r.NormFloat64()), float32(r.NormFloat64())
					if i%13 == 5 {
						v[i] = nan
					}
					if i%17 == 3 {
						k[i] = nan
					}
				}
				got := append([]float32(nil), v...)
				numeric.ApplyF32(op, got, k)
				for i := range v {
					if w := want(op, v[i], k[i]); !same(w, got[i]) {
						t.Fatalf("ApplyF32(%d) at %d of %d: %v op %v = %v, want %v", op, i, n, v[i], k[i], got[i], w)
					}
				}
				got = append(got[:0], v...)
				numeric.ApplyScalarF32(op, got, 0.75)
				for i := range v {
					if w := want(op, v[i], 0.75); !same(w, got[i]) {
						t.Fatalf("ApplyScalarF32(%d) at %d of %d: %v op 0.75 = %v, want %v", op, i, n, v[i], got[i], w)
					}
				}
			}
		}
		for _, n := range lengths[:12] {
			buf := make([]float32, n+8)
			for i := range buf {
				buf[i] = float32(i)
			}
			dst := make([]float32, n)
			numeric.StreamF32(dst, buf)
			for i := range dst {
				if dst[i] != float32(i) {
					t.Fatalf("StreamF32 at %d of %d = %v", i, n, dst[i])
				}
			}
		}
		for _, n := range lengths[:12] {
			src := make([]uint8, n)
			for i := range src {
				src[i] = uint8(r.UintN(256))
			}
			dst := make([]float32, n)
			numeric.U8ToF32(dst, src)
			for i := range src {
				if dst[i] != float32(src[i]) {
					t.Fatalf("U8ToF32 at %d of %d = %v, want %d", i, n, dst[i], src[i])
				}
			}
		}
	})
}

// TestChain checks the one-pass chains against the steps applied one by
// one, on both sources, with scalar and vector steps.
func TestChain(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{0, 63, 64, 65, 200, 1000} {
		u8 := make([]uint8, n)
		f := make([]float32, n)
		for i := range u8 {
			u8[i] = uint8(r.UintN(256))
			f[i] = float32(r.NormFloat64())
		}
		k1 := make([]float32, n)
		k2 := make([]float32, n)
		for i := range k1 {
			k1[i], k2[i] = float32(r.Float64()), float32(r.Float64()+0.5)
		}
		lists := [][]numeric.Step{
			{{Op: numeric.Div, C: 255}, {Op: numeric.Sub, K: k1}, {Op: numeric.Div, K: k2}, {Op: numeric.Mul, C: 3},
				{Op: numeric.Add, K: k1}, {Op: numeric.RSub, C: 1}, {Op: numeric.RDiv, K: k2}},
			{{Op: numeric.Add, C: 0.5}, {Op: numeric.Sub, C: 7}, {Op: numeric.RDiv, C: 3}, {Op: numeric.Mul, K: k2},
				{Op: numeric.RSub, K: k1}, {Op: numeric.Div, C: 0.3}},
		}
		for li, fromU8 := range []bool{true, false, true, false} {
			steps := lists[li/2]
			want := make([]float32, n)
			if fromU8 {
				numeric.U8ToF32(want, u8)
			} else {
				copy(want, f)
			}
			for _, s := range steps {
				if s.K != nil {
					numeric.ApplyF32(s.Op, want, s.K)
				} else {
					numeric.ApplyScalarF32(s.Op, want, s.C)
				}
			}
			for _, stream := range []bool{false, true} {
				got := make([]float32, n)
				var done int
				if fromU8 {
					done = numeric.ChainU8F32(got, u8, steps, stream)
				} else {
					done = numeric.ChainF32(got, f, steps, stream)
				}
				for i := range done {
					if got[i] != want[i] && !(got[i] != got[i] && want[i] != want[i]) {
						t.Fatalf("n %d u8 %v stream %v: element %d = %v, want %v", n, fromU8, stream, i, got[i], want[i])
					}
				}
			}
		}
	}
}

func TestAccF32(t *testing.T) {
	paths(t, func(t *testing.T) {
		for _, n := range lengths[:14] {
			x := make([]float32, n)
			acc := make([]float64, n)
			for i := range x {
				x[i], acc[i] = float32(i)*0.5, float64(i)
			}
			numeric.AccF32(acc, x)
			for i := range acc {
				if want := float64(i) + float64(float32(i)*0.5); acc[i] != want {
					t.Fatalf("AccF32 of %d at %d = %v, want %v", n, i, acc[i], want)
				}
			}
		}
	})
}

func TestAccU8(t *testing.T) {
	paths(t, func(t *testing.T) {
		for _, n := range lengths[:14] {
			x := make([]uint8, n)
			acc := make([]uint32, n)
			for i := range x {
				x[i], acc[i] = uint8(i*7), uint32(i)
			}
			numeric.AccU8(acc, x)
			for i := range acc {
				if want := uint32(i) + uint32(uint8(i*7)); acc[i] != want {
					t.Fatalf("AccU8 of %d at %d = %v, want %v", n, i, acc[i], want)
				}
			}
		}
	})
}

func TestAccRowsF32(t *testing.T) {
	paths(t, func(t *testing.T) {
		for _, width := range []int{1, 15, 16, 17, 31, 32, 33, 47, 48, 49, 63, 64, 65, 80, 96, 100, 128, 130, 511, 512, 513, 528, 1030} {
			for _, rows := range []int{1, 2, 3, 7, 15, 16, 17, 31, 33, 40} {
				for _, pad := range []int{0, 5, 16} {
					stride := width + pad
					rng := rand.New(rand.NewPCG(uint64(width), uint64(rows*100+pad)))
					x := make([]float32, (rows-1)*stride+width)
					for i := range x {
						// Magnitudes far apart, so that the order of the
						// additions shows in the low bits.
						x[i] = float32(rng.NormFloat64() * math.Pow(2, float64(rng.IntN(40)-20)))
					}
					acc := make([]float64, width)
					want := make([]float64, width)
					for j := range acc {
						acc[j], want[j] = float64(j)/3, float64(j)/3
						for r := range rows {
							want[j] += float64(x[r*stride+j])
						}
					}
					numeric.AccRowsF32(acc, x, rows, stride)
					if diff := cmp.Diff(want, acc); diff != "" {
						t.Fatalf("AccRowsF32 of %d rows of %d, stride %d (-want +got):\n%s", rows, width, stride, diff)
					}
				}
			}
		}
	})
}

// TestAccRowsF32NaN checks that a column's sum that meets NaNs keeps the
// first one's payload, in the order acc, row 0, row 1, ... (the kernels
// add each row to acc with acc as the first operand).
func TestAccRowsF32NaN(t *testing.T) {
	nan32 := func(p uint32) float32 { return math.Float32frombits(0x7fc00000 | p) }
	nan64 := func(p uint64) float64 { return math.Float64frombits(0x7ff8000000000000 | p) }
	paths(t, func(t *testing.T) {
		for _, width := range []int{16, 32, 48, 64, 96, 130, 512, 530} {
			for _, rows := range []int{1, 2, 17, 40} {
				t.Run(fmt.Sprintf("width=%d/rows=%d", width, rows), func(t *testing.T) {
					stride := width + 3
					x := make([]float32, (rows-1)*stride+width)
					for i := range x {
						x[i] = float32(i % 13)
					}
					acc := make([]float64, width)
					for j := range acc {
						switch j % 4 {
						case 1: // NaN in acc and in every row
							acc[j] = nan64(uint64(j) << 32)
						case 2: // NaNs from the middle row on, two payloads
							for r := rows / 2; r < rows; r++ {
								x[r*stride+j] = nan32(uint32(j*8 + r%2))
							}
						case 3: // NaN in acc only
							acc[j] = nan64(uint64(j)<<32 | 1)
						}
						if j%4 == 1 {
							for r := range rows {
								x[r*stride+j] = nan32(uint32(j))
							}
						}
					}
					want := make([]uint64, width)
					for j := range want {
						sum, nan := acc[j], math.IsNaN(acc[j])
						for r := range rows {
							v := float64(x[r*stride+j])
							if !nan && math.IsNaN(v) {
								sum, nan = v, true
							} else if !nan {
								sum += v
							}
						}
						want[j] = math.Float64bits(sum)
					}
					numeric.AccRowsF32(acc, x, rows, stride)
					// The kernels' payloads are checked; Go's addition may
					// take either operand's.
					avx := numeric.UsesAVX2()
					for j, v := range acc {
						strict := avx && j < width&^15
						if w := math.Float64frombits(want[j]); math.IsNaN(w) && !strict {
							if !math.IsNaN(v) {
								t.Errorf("column %d = %v, want NaN", j, v)
							}
						} else if math.Float64bits(v) != want[j] {
							t.Errorf("column %d = %#x, want %#x", j, math.Float64bits(v), want[j])
						}
					}
				})
			}
		}
	})
}

func TestSumSqDevF32(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	paths(t, func(t *testing.T) {
		for _, n := range lengths {
			for _, off := range []float64{0, 1e4, -3e7} {
				x := make([]float32, n)
				var sum float64
				for i := range x {
					x[i] = float32(off + r.NormFloat64())
					sum += float64(x[i])
				}
				m := 0.0
				if n > 0 {
					m = sum / float64(n)
				}
				var want float64
				for _, v := range x {
					want += (float64(v) - m) * (float64(v) - m)
				}
				if got := numeric.SumSqDevF32(x, m); math.Abs(got-want) > 1e-12*float64(n+1)*(1+want) {
					t.Errorf("SumSqDevF32 of %d around %g = %v, want %v", n, off, got, want)
				}
			}
		}
	})
}

func TestSumDevF64(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	paths(t, func(t *testing.T) {
		for _, n := range lengths {
			for _, off := range []float64{0, 1e8, -3e12} {
				x := make([]float64, n)
				for i := range x {
					x[i] = off + r.NormFloat64()
				}
				k := off + 0.5
				var dev, sq float64
				for _, v := range x {
					dev += v - k
					sq += (v - k) * (v - k)
				}
				tol := 1e-12 * float64(n+1)
				if got := numeric.SumDevF64(x, k); math.Abs(got-dev) > tol*(1+math.Abs(dev)) {
					t.Errorf("SumDevF64 of %d around %g = %v, want %v", n, off, got, dev)
				}
				if got := numeric.SumSqDevF64(x, k); math.Abs(got-sq) > tol*(1+sq) {
					t.Errorf("SumSqDevF64 of %d around %g = %v, want %v", n, off, got, sq)
				}
			}
		}
	})
}

// TestExtremesZeroSign checks that the AVX-512 MaxF32 and MinF32 give the
// AVX2 kernels' bits where only the sign of a zero tells results apart
// (VMAXPS and VMINPS return their second operand for equal zeros, so the
// order of the lanes' comparisons shows).
func TestExtremesZeroSign(t *testing.T) {
	if !numeric.HasAVX512() {
		t.Skip("no AVX-512F")
	}
	r := rand.New(rand.NewPCG(9, 10))
	vals := []float32{float32(math.Copysign(0, -1)), 0, -1}
	for _, n := range []int{32, 64, 96, 1000, 4096} {
		for trial := range 20 {
			x := make([]float32, n)
			for i := range x {
				x[i] = vals[r.IntN(len(vals))]
			}
			var want [2]float32
			func() {
				defer numeric.SetAVX512(false)()
				want = [2]float32{numeric.MaxF32(x), numeric.MinF32(x)}
			}()
			got := [2]float32{numeric.MaxF32(x), numeric.MinF32(x)}
			for i, name := range []string{"MaxF32", "MinF32"} {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Errorf("n=%d trial %d: AVX-512 %s = %v, AVX2 %v", n, trial, name, got[i], want[i])
				}
			}
		}
	}
}

// TestAccExtremeRowsF32 checks the column maxima and minima of strided
// rows against a plain loop, bit for bit: NaNs (of several payloads)
// replace what acc held, and the last one seen stays.
func TestAccExtremeRowsF32(t *testing.T) {
	nan32 := func(p uint32) float32 { return math.Float32frombits(0x7fc00000 | p) }
	paths(t, func(t *testing.T) {
		for _, width := range []int{1, 3, 4, 15, 16, 20, 32, 33, 55} {
			for _, rows := range []int{1, 2, 7} {
				for _, isMax := range []bool{true, false} {
					stride := width + 2
					rng := rand.New(rand.NewPCG(uint64(width), uint64(rows)))
					x := make([]float32, (rows-1)*stride+width)
					for i := range x {
						switch rng.IntN(8) {
						case 0:
							x[i] = nan32(uint32(i))
						case 1:
							x[i] = float32(math.Inf(rng.IntN(2)*2 - 1))
						default:
							x[i] = float32(rng.NormFloat64())
						}
					}
					acc := make([]float64, width)
					want := make([]float64, width)
					for j := range acc {
						acc[j] = float64(j%5) - 2
						if j%7 == 3 {
							acc[j] = math.NaN()
						}
						want[j] = acc[j]
						for r := range rows {
							f := float64(x[r*stride+j])
							if f != f || isMax && f > want[j] || !isMax && f < want[j] {
								want[j] = f
							}
						}
					}
					numeric.AccExtremeRowsF32(acc, x, rows, stride, isMax)
					for j := range acc {
						if math.Float64bits(acc[j]) != math.Float64bits(want[j]) {
							t.Fatalf("max=%v, %d rows of %d: column %d is %v (%#x), want %v (%#x)", isMax, rows, width, j, acc[j], math.Float64bits(acc[j]), want[j], math.Float64bits(want[j]))
						}
					}
				}
			}
		}
	})
}
