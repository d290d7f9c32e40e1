package numeric_test

import (
	"math/rand/v2"
	"testing"

	"github.com/fstensor/fstensor/internal/numeric"
)

// TestBinaryU8 runs every operation on bytes of every length 0..70, 100
// and 1000 (around the kernels' 32 bytes), from unaligned starts and in
// place, on every path, against Go's byte arithmetic.
func TestBinaryU8(t *testing.T) {
	paths(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(13, 14))
		refs := map[numeric.U8Op]func(x, y uint8) uint8{
			numeric.U8Add: func(x, y uint8) uint8 { return x + y },
			numeric.U8Sub: func(x, y uint8) uint8 { return x - y },
			numeric.U8Min: func(x, y uint8) uint8 { return min(x, y) },
			numeric.U8Max: func(x, y uint8) uint8 { return max(x, y) },
			numeric.U8And: func(x, y uint8) uint8 { return x & y },
			numeric.U8Or:  func(x, y uint8) uint8 { return x | y },
			numeric.U8Xor: func(x, y uint8) uint8 { return x ^ y },
			numeric.U8Mul: func(x, y uint8) uint8 { return x * y },
		}
		for op, ref := range refs {
			for _, n := range tailLengths {
				for _, off := range []int{0, 1, 3} {
					for _, inPlace := range []bool{false, true} {
						a := make([]uint8, n+off)
						b := make([]uint8, n+off)
						for i := range a {
							a[i], b[i] = uint8(rng.Uint32()), uint8(rng.Uint32())
						}
						want := make([]uint8, n)
						for j := range n {
							want[j] = ref(a[off+j], b[off+j])
						}
						d := make([]uint8, n+off+1)
						for i := range d {
							d[i] = 0xAA
						}
						dst := d[off : off+n]
						if inPlace {
							dst = a[off : off+n]
						}
						numeric.BinaryU8(op, dst, a[off:], b[off:])
						for j := range n {
							if dst[j] != want[j] {
								t.Fatalf("op %d n %d off %d in place %v: element %d is %d, want %d", op, n, off, inPlace, j, dst[j], want[j])
							}
						}
						if !inPlace && (d[off+n] != 0xAA || (off > 0 && d[off-1] != 0xAA)) {
							t.Fatalf("op %d n %d off %d: wrote outside d", op, n, off)
						}
					}
				}
			}
		}
	})
}

// tailLengths are every length 0..70 and two longer ones: each tail of
// kernels of 8, 16 and 32 elements, after 0, 1 and 2 blocks.
var tailLengths = func() []int {
	var ns []int
	for n := range 71 {
		ns = append(ns, n)
	}
	return append(ns, 100, 1000)
}()
