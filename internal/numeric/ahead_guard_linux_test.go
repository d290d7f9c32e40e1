package numeric_test

import (
	"fmt"
	"math"
	"slices"
	"testing"
	"unsafe"

	"github.com/fstensor/fstensor/internal/numeric"
	"github.com/google/go-cmp/cmp"
)

// TestAheadPageEnd puts the data of SumF64, AccF32, AccU8 and
// SumU8Periodic at the very end of a mapping followed by inaccessible
// pages, as TestSumsPageEnd does for the float32 sums, so that a kernel
// reading (or loading ahead) past the last element faults instead of
// passing, on each path; each result must equal that of the same call
// over a copy of the data on Go's heap.
func TestAheadPageEnd(t *testing.T) {
	mem := guarded(t)
	paths(t, func(t *testing.T) {
		// Lengths from one kernel block to more than SumF64 sums in one
		// kernel call (16384), so that its halves load ahead into the rest.
		for _, n := range []int{16, 512, 600, 2048, 5000, 16384, 20000, 32768} {
			t.Run(fmt.Sprintf("SumF64/n=%d", n), func(t *testing.T) {
				x := guardedOf[float64](mem, n)
				for i := range x {
					x[i] = float64(i%7) - 3.25
				}
				if got, want := numeric.SumF64(x), numeric.SumF64(slices.Clone(x)); math.Float64bits(got) != math.Float64bits(want) {
					t.Errorf("SumF64 = %v, want %v", got, want)
				}
			})
		}
		for _, n := range []int{16, 1000, 4096, 5000, 16384, 65536} {
			t.Run(fmt.Sprintf("AccF32/n=%d", n), func(t *testing.T) {
				x := guardedOf[float32](mem, n)
				for i := range x {
					x[i] = float32(i%9) - 4.5
				}
				got, want := make([]float64, n), make([]float64, n)
				numeric.AccF32(got, x)
				numeric.AccF32(want, slices.Clone(x))
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("AccF32 (-want +got):\n%s", diff)
				}
			})
		}
		for _, n := range []int{32, 1000, 4096, 16384, 65536, 262144} {
			t.Run(fmt.Sprintf("AccU8/n=%d", n), func(t *testing.T) {
				x := guardedOf[uint8](mem, n)
				for i := range x {
					x[i] = uint8(i * 7)
				}
				got, want := make([]uint32, n), make([]uint32, n)
				numeric.AccU8(got, x)
				numeric.AccU8(want, slices.Clone(x))
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("AccU8 (-want +got):\n%s", diff)
				}
			})
		}
		// Periods of each sumU8L* kernel and of sumU8Lanes; lengths with
		// and without a tail after the kernels' blocks, up to several
		// groups of 256 blocks.
		for _, p := range []int{1, 3, 5, 7, 9, 31, 6} {
			for _, n := range []int{32 * p, 32*p + 5, 5000, 65536, 65536 - 3, 262144} {
				t.Run(fmt.Sprintf("SumU8Periodic/period=%d/n=%d", p, n), func(t *testing.T) {
					x := guardedOf[uint8](mem, n)
					for i := range x {
						x[i] = uint8(i * 13)
					}
					want, got := make([]uint64, p), make([]uint64, p)
					sumU8PeriodicRef(want, x)
					numeric.SumU8Periodic(got, x)
					if diff := cmp.Diff(want, got); diff != "" {
						t.Errorf("SumU8Periodic (-want +got):\n%s", diff)
					}
				})
			}
		}
		// Column extremes of rows whose last ends the mapping.
		for _, width := range []int{4, 16, 20, 33} {
			t.Run(fmt.Sprintf("AccExtremeRowsF32/width=%d", width), func(t *testing.T) {
				const rows = 9
				x := guardedOf[float32](mem, rows*width)
				for i := range x {
					x[i] = float32(i%11) - 5
				}
				got, want := make([]float64, width), make([]float64, width)
				numeric.AccExtremeRowsF32(got, x, rows, width, true)
				numeric.AccExtremeRowsF32(want, slices.Clone(x), rows, width, true)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("AccExtremeRowsF32 (-want +got):\n%s", diff)
				}
			})
		}
	})
}

// guardedOf returns the last n elements of guarded memory.
func guardedOf[T any](mem []byte, n int) []T {
	size := int(unsafe.Sizeof(*new(T)))
	return unsafe.Slice((*T)(unsafe.Pointer(&mem[len(mem)-size*n])), n)
}
