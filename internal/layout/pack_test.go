package layout_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/internal/layout"
)

// TestPackBools packs and unpacks every length of 0 to 80 bytes of bits
// (so that the AVX2 blocks and the Go tail both run), on the AVX2 and Go
// paths, against bit-by-bit loops; the bytes are any values, 0 false.
func TestPackBools(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 8))
	for _, avx2 := range []bool{true, false} {
		t.Run(fmt.Sprintf("avx2=%v", avx2), func(t *testing.T) {
			defer layout.SetAVX2(avx2)()
			for n := range 81 {
				src := make([]byte, 8*n)
				for i := range src {
					switch r.IntN(4) {
					case 0:
						src[i] = byte(1 << r.IntN(8))
					case 1:
						src[i] = byte(r.Uint32())
					}
				}
				want := make([]byte, n)
				for i, v := range src {
					if v != 0 {
						want[i/8] |= 1 << (i % 8)
					}
				}
				got := make([]byte, n+1)
				got[n] = 0x5a
				layout.PackBools(got, src)
				if diff := cmp.Diff(append(want, 0x5a), got); diff != "" {
					t.Fatalf("pack %d bytes (-want +got):\n%s", n, diff)
				}
				un := make([]byte, 8*n+1)
				un[8*n] = 0x5a
				layout.UnpackBools(un[:8*n], want)
				for i, v := range src {
					if want := b2u(v != 0); un[i] != want {
						t.Fatalf("unpack %d bytes: byte %d is %d for %#x", n, i, un[i], v)
					}
				}
				if un[8*n] != 0x5a {
					t.Fatalf("unpack %d bytes wrote past the end", n)
				}
			}
		})
	}
}

func b2u(b bool) byte {
	if b {
		return 1
	}
	return 0
}
