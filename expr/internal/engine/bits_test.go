package engine_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/fstensor/fstensor/expr/internal/engine"
)

// TestPackBits packs runs of bool bytes (any nonzero byte is true) at
// every bit offset and length around the 8-byte steps, into bytes whose
// other bits must keep their values, and unpacks them back, against a bit
// by bit reference.
func TestPackBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for at := range 17 {
		for n := range 40 {
			t.Run(fmt.Sprintf("at=%d/n=%d", at, n), func(t *testing.T) {
				src := make([]byte, n)
				for i := range src {
					if rng.IntN(2) == 1 {
						src[i] = byte(1 + rng.IntN(255))
					}
				}
				dst := make([]byte, (at+n+7)/8+2)
				for i := range dst {
					dst[i] = byte(rng.Uint32())
				}
				want := bytes.Clone(dst)
				for i, v := range src {
					j := at + i
					want[j>>3] &^= 1 << (j & 7)
					if v != 0 {
						want[j>>3] |= 1 << (j & 7)
					}
				}
				engine.PackBits(dst, at, src)
				if !bytes.Equal(dst, want) {
					t.Fatalf("packed %08b, want %08b", dst, want)
				}
				back := make([]byte, n)
				engine.UnpackBits(back, dst, at)
				for i, v := range src {
					if w := min(v, 1); back[i] != w {
						t.Fatalf("unpacked byte %d is %d, want %d", i, back[i], w)
					}
				}
			})
		}
	}
}
