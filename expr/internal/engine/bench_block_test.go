package engine_test

import (
	"fmt"
	"testing"

	"github.com/fstensor/fstensor/expr/internal/engine"
)

// BenchmarkBlockBytes runs the normalization of 50,000 x 768 float32
// rows with blocks of several sizes, beside a copy() of the result
// bytes: the measurement behind DefaultBlockBytes.
func BenchmarkBlockBytes(b *testing.B) {
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
	for _, bb := range []int{64 << 10, 256 << 10, 1 << 20} {
		p, err := engine.Compile(bc.inputs, bc.roots, engine.Options{BlockBytes: bb})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("op=normalize/block=%d/impl=engine", bb), func(b *testing.B) {
			b.SetBytes(int64(n))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := p.Run(in, bc.rows, out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("op=normalize/impl=copy", func(b *testing.B) {
		b.SetBytes(int64(n))
		b.ReportAllocs()
		for b.Loop() {
			copy(out[0].Values, in[0].Values)
		}
	})
}
