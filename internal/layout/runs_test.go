package layout_test

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"
	"unsafe"

	"github.com/fstensor/fstensor/internal/layout"
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
					defer layout.SetRuns(ahead, 32)()
					shape := []int{tt.rows, tt.runLen}
					strides := []int{tt.rowStride, 1}
					off := 2
					if tt.reversed {
						strides[0] = -tt.rowStride
						off += (tt.rows - 1) * tt.rowStride
					}
					p, err := layout.NewPlan(width, shape, strides, off)
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
						clear(got)
						p.RunStream(got, src, tt.n, srcStride)
						if !bytes.Equal(want, got) {
							t.Fatalf("shift %d: RunStream's result differs from the reference", shift)
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

// TestCopyRuns covers the plan-free run copy: runs of every length around
// its 32-byte moves, strides of both signs, destinations off a 32-byte
// boundary, with and without non-temporal stores, and its bounds checks.
func TestCopyRuns(t *testing.T) { bothKernels(t, testCopyRuns) }

func testCopyRuns(t *testing.T) {
	src := make([]byte, 1<<16)
	for i := range src {
		src[i] = byte(i*7 + i>>9)
	}
	type tc struct{ off, run, count, stride int }
	var tests []tc
	for _, l := range []int{1, 31, 32, 33, 64, 96, 100, 288, 1024, 1500} {
		tests = append(tests, tc{3, l, 7, l + 40}, tc{6 * (l + 9), l, 7, -(l + 9)}, tc{5, l, 1, 0}, tc{0, l, 20, l})
	}
	for _, tt := range tests {
		for _, stream := range []bool{false, true} {
			for _, shift := range []int{0, 8, 32} {
				name := fmt.Sprintf("off=%d/run=%d/count=%d/stride=%d/stream=%v/shift=%d", tt.off, tt.run, tt.count, tt.stride, stream, shift)
				t.Run(name, func(t *testing.T) {
					want := make([]byte, 0, tt.run*tt.count)
					for i := range tt.count {
						o := tt.off + i*tt.stride
						want = append(want, src[o:o+tt.run]...)
					}
					// shift bytes past a 64-byte boundary.
					buf := make([]byte, len(want)+128+shift)
					buf = buf[int(-uintptr(unsafe.Pointer(unsafe.SliceData(buf)))&63):]
					got := buf[shift : shift+len(want)]
					r := layout.Runs{Off: tt.off, Run: tt.run, Count: tt.count, Stride: tt.stride}
					// Prefetching the same runs again, or none.
					next := r
					if shift == 8 {
						next = layout.Runs{}
					}
					layout.CopyRuns(got, src, r, next, stream)
					layout.Fence()
					if !bytes.Equal(want, got) {
						t.Fatal("result differs from the reference")
					}
					for _, b := range buf[shift+len(want):] {
						if b != 0 {
							t.Fatal("wrote past the destination")
						}
					}
				})
			}
		}
	}
}

func TestCopyRunsBounds(t *testing.T) {
	src := make([]byte, 100)
	tests := []struct {
		name                     string
		dst, off, run, n, stride int
		want                     string
	}{
		{"short-destination", 19, 0, 10, 2, 10, "destination"},
		{"past-the-end", 20, 0, 10, 2, 91, "source"},
		{"negative-offset", 20, -1, 10, 2, 10, "source"},
		{"before-the-start", 20, 5, 10, 2, -6, "source"},
		{"stride-overflow", 30, 0, 10, 3, math.MaxInt/2 + 1, "source"},
		{"offset-past-the-end", 10, 101, 10, 1, 0, "source"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				r := recover()
				if r == nil || !strings.Contains(fmt.Sprint(r), tt.want) {
					t.Errorf("panic %v, want one about the %s", r, tt.want)
				}
			}()
			layout.CopyRuns(make([]byte, tt.dst), src, layout.Runs{Off: tt.off, Run: tt.run, Count: tt.n, Stride: tt.stride}, layout.Runs{}, true)
		})
	}
	// In bounds to the last byte, both directions.
	layout.CopyRuns(make([]byte, 20), src, layout.Runs{Off: 0, Run: 10, Count: 2, Stride: 90}, layout.Runs{}, true)
	layout.CopyRuns(make([]byte, 20), src, layout.Runs{Off: 90, Run: 10, Count: 2, Stride: -90}, layout.Runs{Off: 1 << 20, Run: 64, Count: 3, Stride: -1 << 30}, true)
	layout.Fence()
}
