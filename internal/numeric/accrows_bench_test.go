package numeric_test

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/fstensor/fstensor/internal/numeric"
)

// BenchmarkAccRowsF32 adds 64 MiB of float32 column by column, in blocks
// of 64 rows of each width (a [64,width] tensor each), beside copy() of
// the same bytes.
func BenchmarkAccRowsF32(b *testing.B) {
	x := benchInput()
	bytes := int64(len(x) * 4)
	for _, width := range []int{16, 32, 64, 128, 512, 1024} {
		b.Run(fmt.Sprintf("width=%d/impl=numeric", width), func(b *testing.B) {
			b.SetBytes(bytes)
			b.ReportAllocs()
			acc := make([]float64, width)
			run := 64 * width
			for b.Loop() {
				for q := 0; q < len(x); q += run {
					numeric.AccRowsF32(acc, x[q:q+run], 64, width)
				}
			}
		})
	}
	b.Run("impl=copy", func(b *testing.B) {
		b.SetBytes(bytes)
		b.ReportAllocs()
		dst := make([]byte, bytes)
		for i := 0; i < len(dst); i += 4096 {
			dst[i] = 1
		}
		src := unsafe.Slice((*byte)(unsafe.Pointer(&x[0])), bytes)
		for b.Loop() {
			copy(dst, src)
		}
	})
}
