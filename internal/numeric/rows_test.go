package numeric_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fstensor/fstensor/internal/numeric"
)

// TestRowsF32 checks that every row of RowsF32 has the bits of the one-row
// function, over row lengths around the kernel's blocks and leaves, gaps
// between rows, and values whose sums round.
func TestRowsF32(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	ops := []struct {
		name string
		op   numeric.RowOp
		one  func(x []float32) float64
	}{
		{"sum", numeric.RowSum, numeric.SumF32},
		{"sumsq", numeric.RowSumSq, numeric.SumSqF32},
	}
	paths(t, func(t *testing.T) {
		for _, n := range []int{0, 1, 15, 16, 17, 31, 32, 100, 256, 2047, 2048, 2049, 3000} {
			for _, gap := range []int{0, 3, 64} {
				for _, rows := range []int{0, 1, 2, 7} {
					stride := n + gap
					x := make([]float32, rows*stride+1)
					for i := range x {
						x[i] = float32(r.NormFloat64() * math.Exp2(float64(r.IntN(40)-20)))
					}
					x = x[:max(rows*stride-gap, 0)] // the last row ends the slice
					for _, o := range ops {
						out := make([]float64, rows)
						for i := range out {
							out[i] = math.NaN() // every slot must be written
						}
						numeric.RowsF32(o.op, out, x, n, stride)
						for i, got := range out {
							want := o.one(x[i*stride : i*stride+n])
							if math.Float64bits(got) != math.Float64bits(want) {
								t.Errorf("%s n=%d stride=%d row %d of %d: %v, one-row %v", o.name, n, stride, i, rows, got, want)
							}
						}
					}
				}
			}
		}
	})
}
