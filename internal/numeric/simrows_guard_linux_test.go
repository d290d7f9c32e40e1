package numeric_test

import (
	"fmt"
	"syscall"
	"testing"
	"unsafe"

	"github.com/fstensor/fstensor/internal/numeric"
)

// TestSimRowsPageEnd puts the rows (and runs for MaxF32 and MinF32) at
// the very end of a mapping followed by 64 KiB of inaccessible pages, so
// that a kernel reading (or loading ahead, as the AVX-512 and AVX2
// kernels do 16 KiB ahead) past the last element faults instead of
// passing, on each path.
func TestSimRowsPageEnd(t *testing.T) {
	mem := guarded(t)
	paths(t, func(t *testing.T) {
		for _, c := range []struct{ n, rows, pad int }{{32, 1, 0}, {64, 3, 0}, {96, 2, 5}, {256, 3, 0}, {1024, 5, 0}, {4096, 1, 0}} {
			t.Run(fmt.Sprintf("n=%d/rows=%d/stride=%d", c.n, c.rows, c.n+c.pad), func(t *testing.T) {
				stride := c.n + c.pad
				size := (c.rows-1)*stride + c.n
				x := guardedF32(mem, size)
				for i := range x {
					x[i] = float32(i%7) - 3
				}
				q := make([]float32, c.n)
				for i := range q {
					q[i] = 0.5
				}
				checkSimRows(t, x, stride, q, c.rows)
				mx, mn := x[0], x[0]
				for _, v := range x {
					mx, mn = max(mx, v), min(mn, v)
				}
				if got := numeric.MaxF32(x); got != mx {
					t.Errorf("MaxF32 = %v, want %v", got, mx)
				}
				if got := numeric.MinF32(x); got != mn {
					t.Errorf("MinF32 = %v, want %v", got, mn)
				}
			})
		}
	})
}

// guarded returns 256 KiB (a multiple of any page size up to 64 KiB)
// followed by 64 KiB of inaccessible pages, unmapped when t ends. It
// skips t where the pages cannot be had.
func guarded(t *testing.T) []byte {
	const page, guard = 256 << 10, 64 << 10
	mem, err := syscall.Mmap(-1, 0, page+guard, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skip("mmap:", err)
	}
	t.Cleanup(func() { syscall.Munmap(mem) })
	if err := syscall.Mprotect(mem[page:], syscall.PROT_NONE); err != nil {
		t.Skip("mprotect:", err)
	}
	return mem[:page:page]
}

// guardedF32 returns the last n float32 of guarded memory.
func guardedF32(mem []byte, n int) []float32 {
	return unsafe.Slice((*float32)(unsafe.Pointer(&mem[len(mem)-4*n])), n)
}
