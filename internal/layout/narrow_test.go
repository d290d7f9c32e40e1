package layout_test

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/fstensor/fstensor/internal/layout"
	"github.com/google/go-cmp/cmp"
)

// narrowRef is the reference: low bytes (w 1) or words (w 2), and
// whether every value plus bias fits w bytes.
func narrowRef(src []byte, w int, bias uint32) ([]byte, bool) {
	k := len(src) / 4
	dst := make([]byte, k*w)
	ok := true
	for i := range k {
		v := binary.LittleEndian.Uint32(src[4*i:])
		if w == 1 {
			dst[i] = byte(v)
			ok = ok && v+bias <= 0xff
		} else {
			binary.LittleEndian.PutUint16(dst[2*i:], uint16(v))
			ok = ok && v+bias <= 0xffff
		}
	}
	return dst, ok
}

func TestNarrow(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	type tc struct {
		name string
		w    int
		bias uint32
		lo   int64 // values drawn from [lo, hi]
		hi   int64
	}
	cases := []tc{
		{"uint8", 1, 0, 0, 255},
		{"int8", 1, 128, -128, 127},
		{"uint16", 2, 0, 0, 65535},
		{"int16", 2, 32768, -32768, 32767},
	}
	for _, avx := range []bool{true, false} {
		for _, c := range cases {
			for _, n := range []int{0, 1, 7, 8, 15, 16, 31, 32, 33, 64, 100, 1000} {
				for _, bad := range []int{-2, -1, 0, 1} { // -2: none, else the index (from n) of a value out of range
					name := fmt.Sprintf("avx2=%v/%s/n=%d/bad=%d", avx, c.name, n, bad)
					t.Run(name, func(t *testing.T) {
						defer layout.SetAVX2(avx)()
						src := make([]byte, 4*n)
						for i := range n {
							binary.LittleEndian.PutUint32(src[4*i:], uint32(int32(c.lo+rng.Int64N(c.hi-c.lo+1))))
						}
						if bad > -2 && n > 0 {
							i := (n + bad) % n
							out := c.hi + 1
							if bad == 0 {
								out = c.lo - 1
							}
							binary.LittleEndian.PutUint32(src[4*i:], uint32(int32(out)))
						}
						want, wantOK := narrowRef(src, c.w, c.bias)
						got := make([]byte, n*c.w)
						var ok bool
						if c.w == 1 {
							ok = layout.NarrowInt32To8(got, src, c.bias)
						} else {
							ok = layout.NarrowInt32To16(got, src, c.bias)
						}
						if ok != wantOK {
							t.Fatalf("ok = %v, want %v", ok, wantOK)
						}
						if diff := cmp.Diff(want, got); diff != "" {
							t.Errorf("(-want +got):\n%s", diff)
						}
					})
				}
			}
		}
	}
}

func BenchmarkNarrow(b *testing.B) {
	const n = 1 << 20
	src := make([]byte, 4*n)
	for i := range n {
		binary.LittleEndian.PutUint32(src[4*i:], uint32(i&0xff))
	}
	for _, w := range []int{1, 2} {
		dst := make([]byte, n*w)
		b.Run(fmt.Sprintf("width=%d/impl=copy", w), func(b *testing.B) {
			b.SetBytes(int64(len(dst)))
			b.ReportAllocs()
			for b.Loop() {
				copy(dst, src)
			}
		})
		for _, avx := range []bool{true, false} {
			b.Run(fmt.Sprintf("width=%d/avx2=%v", w, avx), func(b *testing.B) {
				defer layout.SetAVX2(avx)()
				b.SetBytes(int64(len(dst)))
				b.ReportAllocs()
				for b.Loop() {
					if w == 1 {
						layout.NarrowInt32To8(dst, src, 0)
					} else {
						layout.NarrowInt32To16(dst, src, 0)
					}
				}
			})
		}
	}
}
