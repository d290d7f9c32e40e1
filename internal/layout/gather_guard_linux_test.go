package layout_test

import (
	"fmt"
	"syscall"
	"testing"
	"unsafe"

	"github.com/fstensor/fstensor/internal/layout"
)

// TestGatherEvenPageEnd runs views of every other 4-byte element (x[::2]
// of a tensor of 2n-1 elements, rows of them, and x[:, ::2]) whose last
// element is the last of a mapping followed by an inaccessible page, so
// that a kernel reading past it faults instead of passing, on both
// paths, and checks every element and that nothing is written past the
// result.
func TestGatherEvenPageEnd(t *testing.T) {
	const page, guard = 64 << 10, 64 << 10
	mem, err := syscall.Mmap(-1, 0, page+guard, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skip("mmap:", err)
	}
	defer syscall.Munmap(mem)
	if err := syscall.Mprotect(mem[page:], syscall.PROT_NONE); err != nil {
		t.Skip("mprotect:", err)
	}
	for _, avx2 := range []bool{true, false} {
		restore := layout.SetAVX2(avx2)
		for _, n := range []int{1, 7, 8, 9, 16, 17, 31, 32, 33, 100} {
			for _, rows := range []int{1, 3} {
				t.Run(fmt.Sprintf("avx2=%v/n=%d/rows=%d", avx2, n, rows), func(t *testing.T) {
					size := 2*n - 1 // the tensor: its last element is the last kept
					src := unsafe.Slice((*uint32)(unsafe.Pointer(&mem[page-4*size*rows])), size*rows)
					for i := range src {
						src[i] = uint32(i)*2654435761 | 1
					}
					p, err := layout.NewPlan(4, []int{n}, []int{2}, 0)
					if err != nil {
						t.Fatal(err)
					}
					dst := make([]uint32, n*rows+8)
					for i := range dst {
						dst[i] = 0xdeadbeef
					}
					p.Run(unsafe.Slice((*byte)(unsafe.Pointer(&dst[0])), 4*n*rows), unsafe.Slice((*byte)(unsafe.Pointer(&src[0])), 4*size*rows), rows, size, 1)
					for r := range rows {
						for i := range n {
							if got, want := dst[r*n+i], src[r*size+2*i]; got != want {
								t.Fatalf("row %d element %d: %#x, want %#x", r, i, got, want)
							}
						}
					}
					for i := n * rows; i < len(dst); i++ {
						if dst[i] != 0xdeadbeef {
							t.Fatalf("element %d past the result written: %#x", i, dst[i])
						}
					}
				})
			}
		}
		restore()
	}
}
