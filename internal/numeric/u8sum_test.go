package numeric_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/fstensor/fstensor/internal/numeric"
	"github.com/google/go-cmp/cmp"
)

// sumU8PeriodicRef is SumU8Periodic's definition as a plain loop.
func sumU8PeriodicRef(acc []uint64, x []uint8) {
	for j, v := range x {
		acc[j%len(acc)] += uint64(v)
	}
}

var u8Periods = []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 16, 24, 28, 31, 32, 33, 40, 64}

func TestSumU8Periodic(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	buf := make([]uint8, 5100+64)
	for i := range buf {
		buf[i] = uint8(r.Uint32())
	}
	var lens []int
	for n := 0; n <= 300; n++ {
		lens = append(lens, n)
	}
	for n := 301; n <= 5000; n += 37 {
		lens = append(lens, n, n+1)
	}
	lens = append(lens, 4*224-1, 4*224, 4*224+1, 5040)
	paths(t, func(t *testing.T) {
		for _, p := range u8Periods {
			t.Run(fmt.Sprintf("period=%d", p), func(t *testing.T) {
				for _, start := range []int{0, 1, 3, 31} {
					for _, n := range lens {
						x := buf[start : start+n]
						want := make([]uint64, p)
						got := make([]uint64, p)
						for c := range p {
							want[c], got[c] = uint64(c)*1000, uint64(c)*1000 // added to, not overwritten
						}
						sumU8PeriodicRef(want, x)
						numeric.SumU8Periodic(got, x)
						if diff := cmp.Diff(want, got); diff != "" {
							t.Fatalf("start %d, %d bytes (-want +got):\n%s", start, n, diff)
						}
					}
				}
			})
		}
	})
}

// TestSumU8PeriodicOverflow runs all-255 input long enough to take every
// 16-bit lane of the kernels past its range many times over.
func TestSumU8PeriodicOverflow(t *testing.T) {
	x := make([]uint8, 1<<20+13)
	for i := range x {
		x[i] = 255
	}
	paths(t, func(t *testing.T) {
		for _, p := range u8Periods {
			want := make([]uint64, p)
			for c := range want {
				want[c] = 255 * uint64((len(x)-c+p-1)/p)
			}
			got := make([]uint64, p)
			numeric.SumU8Periodic(got, x)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("period %d (-want +got):\n%s", p, diff)
			}
		}
	})
}

func TestSumU8PeriodicEmpty(t *testing.T) {
	numeric.SumU8Periodic(nil, nil) // no bytes: no slot needed
	defer func() {
		if recover() == nil {
			t.Fatal("SumU8Periodic with an empty accumulator and bytes did not panic")
		}
	}()
	numeric.SumU8Periodic(nil, []uint8{1})
}

// BenchmarkSumU8Periodic sums 256 images of 224x224 pixels (37 MiB, past
// the caches) by channel, beside copy() of the same bytes.
func BenchmarkSumU8Periodic(b *testing.B) {
	const img = 224 * 224
	x := make([]uint8, 256*img*3)
	for i := range x {
		x[i] = uint8(i * 7)
	}
	for _, p := range []int{1, 3, 4, 9, 33} {
		b.Run(fmt.Sprintf("period=%d/impl=numeric", p), func(b *testing.B) {
			b.SetBytes(int64(len(x)))
			b.ReportAllocs()
			acc := make([]uint64, p)
			for b.Loop() {
				for q := 0; q+img*p <= len(x); q += img * p {
					numeric.SumU8Periodic(acc, x[q:q+img*p])
				}
			}
		})
	}
	b.Run("impl=copy", func(b *testing.B) {
		b.SetBytes(int64(len(x)))
		b.ReportAllocs()
		dst := make([]uint8, len(x))
		for b.Loop() {
			copy(dst, x)
		}
	})
}

func TestSumU8(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	paths(t, func(t *testing.T) {
		for _, n := range append(lengths, 1<<20+5) {
			x := make([]uint8, n)
			var want uint64
			for i := range x {
				x[i] = uint8(r.Uint32())
				if i%3 == 0 {
					x[i] = 255
				}
				want += uint64(x[i])
			}
			if got := numeric.SumU8(x); got != want {
				t.Errorf("SumU8 of %d bytes = %d, want %d", n, got, want)
			}
		}
	})
}
