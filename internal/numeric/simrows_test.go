package numeric_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fstensor/fstensor/internal/numeric"
)

// TestSimRows checks that DotRows and SquaredL2Rows give every row the
// bits of Dot and SquaredL2, on both paths, for lengths around the
// kernel's blocks of 32, strides wider than the rows and NaN rows.
func TestSimRows(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	paths(t, func(t *testing.T) {
		for _, n := range []int{0, 1, 31, 32, 33, 256, 768, 1031} {
			for _, rows := range []int{0, 1, 3, 17} {
				for _, pad := range []int{0, 5} {
					t.Run(fmt.Sprintf("n=%d/rows=%d/stride=%d", n, rows, n+pad), func(t *testing.T) {
						stride := n + pad
						x := randVec(r, rows*stride+1)
						if rows > 1 && n > 0 {
							x[stride+n/2] = float32(math.NaN())
						}
						q := randVec(r, n)
						checkSimRows(t, x, stride, q, rows)
						x64, q64 := widen(x), widen(q)
						checkSimRows(t, x64, stride, q64, rows)
					})
				}
			}
		}
	})
}

func checkSimRows[F numeric.Float](t *testing.T, x []F, stride int, q []F, rows int) {
	t.Helper()
	dot, sq := make([]F, rows), make([]F, rows)
	numeric.DotRows(dot, x, stride, q)
	numeric.SquaredL2Rows(sq, x, stride, q)
	for i := range rows {
		row := x[i*stride : i*stride+len(q)]
		if want := numeric.Dot(row, q); !sameBits(dot[i], want) {
			t.Errorf("%T row %d: DotRows = %v, Dot = %v", x, i, dot[i], want)
		}
		if want := numeric.SquaredL2(row, q); !sameBits(sq[i], want) {
			t.Errorf("%T row %d: SquaredL2Rows = %v, SquaredL2 = %v", x, i, sq[i], want)
		}
	}
}

func sameBits[F numeric.Float](a, b F) bool {
	return math.Float64bits(float64(a)) == math.Float64bits(float64(b)) || a != a && b != b
}

func widen(v []float32) []float64 {
	w := make([]float64, len(v))
	for i, x := range v {
		w[i] = float64(x)
	}
	return w
}

// BenchmarkDotRows scores 65,536 rows of 256 float32 (64 MiB) against one
// query, through DotRows and through a Dot call per row, beside a copy()
// of the same bytes.
func BenchmarkDotRows(b *testing.B) {
	const rows, n = 65536, 256
	r := rand.New(rand.NewPCG(1, 2))
	x, q := randVec(r, rows*n), randVec(r, n)
	out := make([]float32, rows)
	name := fmt.Sprintf("op=dot/dtype=float32/shape=%dx%d", rows, n)
	b.Run(name+"/impl=rows", func(b *testing.B) {
		b.SetBytes(int64(4 * len(x)))
		b.ReportAllocs()
		for b.Loop() {
			numeric.DotRows(out, x, n, q)
		}
	})
	b.Run(name+"/impl=dot", func(b *testing.B) {
		b.SetBytes(int64(4 * len(x)))
		b.ReportAllocs()
		for b.Loop() {
			for i := range out {
				out[i] = numeric.Dot(x[i*n:(i+1)*n], q)
			}
		}
	})
	b.Run(name+"/impl=copy", func(b *testing.B) {
		dst := make([]float32, len(x))
		b.SetBytes(int64(4 * len(x)))
		b.ReportAllocs()
		for b.Loop() {
			copy(dst, x)
		}
	})
}
