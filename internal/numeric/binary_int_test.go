package numeric_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/fstensor/fstensor/internal/numeric"
)

// TestBinaryInt runs every operation on every integer type, lengths
// around the kernels' 32 bytes, from unaligned starts and in place, on
// every path, against Go's integer arithmetic (which wraps as NumPy's).
func TestBinaryInt(t *testing.T) {
	paths(t, func(t *testing.T) {
		t.Run("int8", testBinaryInt[int8])
		t.Run("uint8", testBinaryInt[uint8])
		t.Run("int16", testBinaryInt[int16])
		t.Run("uint16", testBinaryInt[uint16])
		t.Run("int32", testBinaryInt[int32])
		t.Run("uint32", testBinaryInt[uint32])
		t.Run("int64", testBinaryInt[int64])
		t.Run("uint64", testBinaryInt[uint64])
	})
}

func testBinaryInt[T numeric.Int](t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	refs := map[numeric.U8Op]func(x, y T) T{
		numeric.U8Add: func(x, y T) T { return x + y },
		numeric.U8Sub: func(x, y T) T { return x - y },
		numeric.U8Min: func(x, y T) T { return min(x, y) },
		numeric.U8Max: func(x, y T) T { return max(x, y) },
		numeric.U8And: func(x, y T) T { return x & y },
		numeric.U8Or:  func(x, y T) T { return x | y },
		numeric.U8Xor: func(x, y T) T { return x ^ y },
		numeric.U8Mul: func(x, y T) T { return x * y },
	}
	for op, ref := range refs {
		for _, n := range tailLengths {
			for _, off := range []int{0, 1} {
				for _, inPlace := range []bool{false, true} {
					a, b := make([]T, n+off), make([]T, n+off)
					for i := range a {
						// Values of every magnitude, and signs, so that
						// products overflow and signed and unsigned
						// comparisons differ.
						a[i], b[i] = T(rng.Uint64()>>rng.IntN(64)), T(rng.Uint64()>>rng.IntN(64))
					}
					want := make([]T, n)
					for j := range n {
						want[j] = ref(a[off+j], b[off+j])
					}
					d := make([]T, n+off+1)
					for i := range d {
						d[i] = 0x55
					}
					dst := d[off : off+n]
					if inPlace {
						dst = a[off : off+n]
					}
					numeric.BinaryInt(op, dst, a[off:], b[off:])
					for j := range n {
						if dst[j] != want[j] {
							t.Fatalf("op %d n %d off %d in place %v: element %d is %s, want %s", op, n, off, inPlace, j, fmt.Sprint(dst[j]), fmt.Sprint(want[j]))
						}
					}
					if !inPlace && (d[off+n] != 0x55 || (off > 0 && d[off-1] != 0x55)) {
						t.Fatalf("op %d n %d off %d: wrote outside d", op, n, off)
					}
				}
			}
		}
	}
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
