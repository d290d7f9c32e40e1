package engine_test

import (
	"fmt"
	"testing"

	"github.com/fstensor/fstensor/expr/internal/engine"
)

func BenchmarkBlock(b *testing.B) {
	bc := benchCases()[0]
	bc.rows = 50000
	n := 768 * 4 * bc.rows
	in := []engine.Column{{Values: unsafeBytes(make([]uint64, n/8))}}
	for j := range in[0].Values {
		in[0].Values[j] = byte(j*7) | 1
		if j%4 == 3 {
			in[0].Values[j] = 0x3f
		}
	}
	out := []engine.Column{{Values: unsafeBytes(make([]uint64, n/8))}}
	for _, bb := range []int{16 << 10, 32 << 10, 64 << 10, 128 << 10} {
		p, _ := engine.Compile(bc.inputs, bc.roots, engine.Options{BlockBytes: bb})
		b.Run(fmt.Sprintf("block=%d", bb), func(b *testing.B) {
			b.SetBytes(int64(n))
			for b.Loop() {
				p.Run(in, bc.rows, out)
			}
		})
	}
	b.Run("copy", func(b *testing.B) {
		b.SetBytes(int64(n))
		for b.Loop() {
			copy(out[0].Values, in[0].Values)
		}
	})
}
