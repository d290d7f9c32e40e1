package numeric_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/fstensor/fstensor/internal/numeric"
	"github.com/google/go-cmp/cmp"
)

// TestSumsPageEnd puts the data of the float32 sums (SumF32, SumSqF32,
// SumSqDevF32, RowsF32, AccRowsF32) at the very end of a mapping followed by
// inaccessible pages, so that a kernel reading (or loading ahead, 16 KiB
// past its reads) beyond the last element faults instead of passing, on
// each path; each result must have the bits of the same call over a copy
// of the data on Go's heap.
func TestSumsPageEnd(t *testing.T) {
	mem := guarded(t)
	paths(t, func(t *testing.T) {
		for _, n := range []int{16, 32, 1000, 2048, 2064, 4096, 5000, 16384} {
			t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
				x := guardedF32(mem, n)
				for i := range x {
					x[i] = float32(i%7) - 3.25
				}
				heap := slices.Clone(x)
				for _, f := range []struct {
					name string
					f    func(x []float32) float64
				}{
					{"SumF32", numeric.SumF32},
					{"SumSqF32", numeric.SumSqF32},
					{"SumSqDevF32", func(x []float32) float64 { return numeric.SumSqDevF32(x, 0.5) }},
				} {
					if got, want := f.f(x), f.f(heap); math.Float64bits(got) != math.Float64bits(want) {
						t.Errorf("%s = %v, want %v", f.name, got, want)
					}
				}
			})
		}
		for _, c := range []struct{ n, rows, pad int }{{16, 1, 0}, {48, 3, 0}, {96, 2, 5}, {256, 20, 0}, {1024, 5, 3}, {2048, 4, 0}} {
			t.Run(fmt.Sprintf("n=%d/rows=%d/stride=%d", c.n, c.rows, c.n+c.pad), func(t *testing.T) {
				stride := c.n + c.pad
				x := guardedF32(mem, (c.rows-1)*stride+c.n)
				for i := range x {
					x[i] = float32(i%5) - 1.5
				}
				heap := slices.Clone(x)
				for _, op := range []numeric.RowOp{numeric.RowSum, numeric.RowSumSq} {
					got, want := make([]float64, c.rows), make([]float64, c.rows)
					numeric.RowsF32(op, got, x, c.n, stride)
					numeric.RowsF32(op, want, heap, c.n, stride)
					if diff := cmp.Diff(want, got); diff != "" {
						t.Errorf("RowsF32 op %d (-want +got):\n%s", op, diff)
					}
				}
			})
		}
		for _, c := range []struct{ width, rows, pad int }{{16, 1, 0}, {16, 700, 0}, {16, 50, 9}, {48, 40, 0}, {64, 64, 0}, {512, 7, 1}, {1024, 15, 0}, {2048, 3, 16}} {
			t.Run(fmt.Sprintf("acc/width=%d/rows=%d/stride=%d", c.width, c.rows, c.width+c.pad), func(t *testing.T) {
				stride := c.width + c.pad
				x := guardedF32(mem, (c.rows-1)*stride+c.width)
				for i := range x {
					x[i] = float32(i%9) - 4.5
				}
				got, want := make([]float64, c.width), make([]float64, c.width)
				numeric.AccRowsF32(got, x, c.rows, stride)
				numeric.AccRowsF32(want, slices.Clone(x), c.rows, stride)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("AccRowsF32 (-want +got):\n%s", diff)
				}
			})
		}
	})
}
