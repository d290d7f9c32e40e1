package layout_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/fstensor/fstensor/internal/layout"
	"github.com/fstensor/fstensor/internal/testsupport/race"
)

// TestImageLayouts covers the channel split (HWC -> CHW) and interleave
// (CHW -> HWC) of 3 and 4 channels: pixel counts around the 32-pixel
// steps of the AVX2 kernels, batches large enough for non-temporal stores
// (1 MiB), source offsets, and destinations off a 32-byte boundary.
func TestImageLayouts(t *testing.T) { bothKernels(t, testImageLayouts) }

func testImageLayouts(t *testing.T) {
	type tc struct{ h, w, n int }
	tests := []tc{{1, 1, 3}, {1, 31, 2}, {1, 32, 2}, {1, 33, 3}, {3, 21, 2}, {8, 8, 3}, {5, 13, 4}, {10, 10, 5}, {224, 224, 2}, {61, 67, 90}}
	for _, tt := range tests {
		if race.Enabled && tt.h*tt.w*tt.n > 10000 {
			continue // sized for non-temporal stores, which only the assembly makes
		}
		for _, c := range []int{3, 4} {
			for _, width := range []int{1, 2, 4} {
				hw := tt.h * tt.w
				for _, dir := range []string{"hwc-chw", "chw-hwc"} {
					var shape, strides []int
					if dir == "hwc-chw" {
						shape, strides = []int{c, tt.h, tt.w}, []int{1, tt.w * c, c}
					} else {
						shape, strides = []int{tt.h, tt.w, c}, []int{tt.w, 1, hw}
					}
					for _, off := range []int{0, 5} {
						name := fmt.Sprintf("%s/c=%d/%dx%d/n=%d/width=%d/off=%d", dir, c, tt.h, tt.w, tt.n, width, off)
						t.Run(name, func(t *testing.T) {
							p, err := layout.NewPlan(width, shape, strides, off)
							if err != nil {
								t.Fatal(err)
							}
							srcStride := hw*c + off
							src := make([]byte, tt.n*srcStride*width)
							for i := range src {
								src[i] = byte(i*11 + i>>8)
							}
							want := make([]byte, tt.n*p.Size()*width)
							naive(want, src, width, shape, strides, off, tt.n, srcStride)
							for _, shift := range []int{0, width, 8 * width} {
								buf := make([]byte, len(want)+shift)
								got := buf[shift:]
								p.Run(got, src, tt.n, srcStride, 1)
								if !bytes.Equal(want, got) {
									t.Fatalf("shift %d kind %s: result differs from the reference", shift, p.Kind())
								}
							}
						})
					}
				}
			}
		}
	}
}
