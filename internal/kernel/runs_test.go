package kernel_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/fstensor/fstensor/internal/kernel"
)

// TestRunsOfRows covers the run-copy kernel of slices and indexes: runs
// of every length around its 32-byte moves, outer strides of both signs,
// destinations off a 32-byte boundary, batches large enough for
// non-temporal stores, and prefetch distances shorter and longer than a
// run.
func TestRunsOfRows(t *testing.T) { bothKernels(t, testRunsOfRows) }

func testRunsOfRows(t *testing.T) {
	type tc struct {
		rows, runLen, rowStride int // elements
		reversed                bool
		n                       int
	}
	var tests []tc
	for _, l := range []int{1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 40, 63, 64, 65, 100} {
		tests = append(tests, tc{5, l, l + 3, false, 3}, tc{4, l, l + 11, true, 2})
	}
	// Large batches: non-temporal stores (1 MiB written).
	tests = append(tests, tc{3, 24, 40, false, 4000}, tc{2, 2048, 4096, false, 70}, tc{5, 17, 30, true, 4000})
	for _, tt := range tests {
		for _, width := range []int{1, 2, 4, 8} {
			for _, ahead := range []int{0, 64, 4096} {
				name := fmt.Sprintf("rows=%d/run=%d/reversed=%v/n=%d/width=%d/ahead=%d", tt.rows, tt.runLen, tt.reversed, tt.n, width, ahead)
				t.Run(name, func(t *testing.T) {
					defer kernel.SetRuns(ahead, 32)()
					shape := []int{tt.rows, tt.runLen}
					strides := []int{tt.rowStride, 1}
					off := 2
					if tt.reversed {
						strides[0] = -tt.rowStride
						off += (tt.rows - 1) * tt.rowStride
					}
					p, err := kernel.NewPlan(width, shape, strides, off)
					if err != nil {
						t.Fatal(err)
					}
					srcStride := tt.rows*tt.rowStride + 5
					src := make([]byte, tt.n*srcStride*width)
					for i := range src {
						src[i] = byte(i*7 + i>>9)
					}
					want := make([]byte, tt.n*p.Size()*width)
					naive(want, src, width, shape, strides, off, tt.n, srcStride)
					// Destinations at 0, one element and 40 bytes past a
					// 64-byte boundary.
					for _, shift := range []int{0, width, 40} {
						buf := make([]byte, len(want)+64+shift)
						got := buf[shift : shift+len(want)]
						p.Run(got, src, tt.n, srcStride, 1)
						if !bytes.Equal(want, got) {
							t.Fatalf("shift %d: result differs from the reference", shift)
						}
						for _, b := range buf[shift+len(want):] {
							if b != 0 {
								t.Fatalf("shift %d: wrote past the destination", shift)
							}
						}
					}
				})
			}
		}
	}
}
