package layout_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/fstensor/fstensor/internal/layout"
)

// TestTransposeBlocks covers the 2-D transposes of every width around the
// edges of the AVX2 blocks (16x16 1-byte, 8x16 2-byte, 8x16 4-byte, 4x8
// 8-byte elements): whole blocks, right and bottom remainders, reversed
// source lines, padded source rows, batches that write at least 1 MiB
// (non-temporal stores for 4 and 8 bytes), and destinations one element
// off a 64-byte boundary.
func TestTransposeBlocks(t *testing.T) { bothKernels(t, testTransposeBlocks) }

func testTransposeBlocks(t *testing.T) {
	type tc struct {
		rows, cols, pad, n int // source rows x cols (+pad), batch
		reversed           bool
	}
	var tests []tc
	for _, r := range []int{8, 15, 16, 17, 33, 64} {
		for _, c := range []int{16, 17, 31, 48, 65} {
			tests = append(tests, tc{r, c, 0, 2, false}, tc{r, c, 3, 1, true})
		}
	}
	tests = append(tests, tc{64, 64, 0, 300, false}, tc{64, 37, 0, 300, false}, tc{64, 37, 0, 500, true}, tc{128, 50, 0, 200, false}, tc{96, 45, 0, 130, true}, tc{100, 36, 4, 150, false})
	for _, tt := range tests {
		for _, width := range []int{1, 2, 4, 8} {
			name := fmt.Sprintf("%dx%d/pad=%d/n=%d/reversed=%v/width=%d", tt.rows, tt.cols, tt.pad, tt.n, tt.reversed, width)
			t.Run(name, func(t *testing.T) {
				line := tt.cols + tt.pad
				// The view of the transpose: cols x rows, strides (1, line).
				shape, strides, off := []int{tt.cols, tt.rows}, []int{1, line}, 0
				if tt.reversed {
					strides[1], off = -line, (tt.rows-1)*line
				}
				p, err := layout.NewPlan(width, shape, strides, off)
				if err != nil {
					t.Fatal(err)
				}
				if p.Kind() != "transpose" {
					t.Fatalf("Kind() = %s", p.Kind())
				}
				srcStride := tt.rows * line
				src := make([]byte, tt.n*srcStride*width)
				for i := range src {
					src[i] = byte(i*5 + i>>8)
				}
				want := make([]byte, tt.n*p.Size()*width)
				naive(want, src, width, shape, strides, off, tt.n, srcStride)
				for _, shift := range []int{0, width} {
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
