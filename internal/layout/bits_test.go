package layout_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/fstensor/fstensor/internal/layout"
)

func TestTransposeBits8(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, x := range []uint64{0, 1, 1 << 63, 0x8040201008040201, ^uint64(0), r.Uint64(), r.Uint64(), r.Uint64()} {
		got := layout.TransposeBits8(x)
		for i := range 8 {
			for j := range 8 {
				if got>>(8*j+i)&1 != x>>(8*i+j)&1 {
					t.Fatalf("TransposeBits8(%#x) = %#x: element (%d, %d) wrong", x, got, j, i)
				}
			}
		}
		if back := layout.TransposeBits8(got); back != x {
			t.Errorf("TransposeBits8 twice of %#x = %#x", x, back)
		}
	}
}

func TestTransposeBits64(t *testing.T) {
	t.Run("avx2=auto", testTransposeBits64)
	t.Run("avx2=off", func(t *testing.T) {
		defer layout.SetAVX2(false)()
		testTransposeBits64(t)
	})
}

func testTransposeBits64(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 4 {
		var m, want [64]uint64
		for i := range m {
			switch trial {
			case 0:
				m[i] = 1 << i // identity
			case 1:
				m[i] = uint64(i) * 0x0101010101010101
			default:
				m[i] = r.Uint64()
			}
		}
		for i := range 64 {
			for j := range 64 {
				want[j] |= m[i] >> j & 1 << i
			}
		}
		got := m
		layout.TransposeBits64(&got)
		if got != want {
			t.Errorf("trial %d: TransposeBits64 differs from the bit-by-bit transpose", trial)
		}
	}
}

func BenchmarkTransposeBits(b *testing.B) {
	b.Run("size=8x8/impl=kernel", func(b *testing.B) {
		b.SetBytes(8)
		b.ReportAllocs()
		x := uint64(0x0123456789abcdef)
		for b.Loop() {
			x = layout.TransposeBits8(x) + 1
		}
	})
	for _, avx2 := range []bool{true, false} {
		b.Run(fmt.Sprintf("size=64x64/avx2=%v/impl=kernel", avx2), func(b *testing.B) {
			defer layout.SetAVX2(avx2)()
			b.SetBytes(512)
			b.ReportAllocs()
			var m [64]uint64
			for b.Loop() {
				layout.TransposeBits64(&m)
			}
		})
	}
	b.Run("size=64x64/impl=copy", func(b *testing.B) {
		b.SetBytes(512)
		b.ReportAllocs()
		var m, d [64]uint64
		for b.Loop() {
			copy(d[:], m[:])
		}
	})
}
