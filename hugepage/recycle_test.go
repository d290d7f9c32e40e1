package hugepage_test

import (
	"runtime"
	"testing"

	"github.com/fstensor/fstensor/hugepage"
	"github.com/fstensor/fstensor/internal/reuse"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
)

// TestRecycled checks the allocator of buffers written whole: a freed
// mapping comes back from Recycled unzeroed when it fits (at least the
// size asked, at most twice it), never from Allocate; Free keeps the last
// MaxKept mappings; Trim gives them back; small buffers and the
// accounting of the small-buffer allocator are untouched.
func TestRecycled(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("hugepage maps buffers on Linux only")
	}
	small := testvec.CheckedMem(t)
	a := newAllocator(t, hugepage.WithMinSize(1<<20), hugepage.WithSmall(small))
	b := a.Allocate(3 << 20)
	a.Free(b)
	if n, _ := a.Kept(); n != 0 {
		t.Fatalf("before Recycled, Free kept %d mappings", n)
	}
	rc := a.Recycled()
	if got := reuse.For(a); got != rc {
		t.Errorf("reuse.For(a) = %v, want a.Recycled()", got)
	}
	tests := []struct {
		name      string
		freed     int // size of the buffer freed first
		asked     int
		recycled  bool // Recycled hands out the freed mapping
		keptAfter int
	}{
		{"same size", 3 << 20, 3 << 20, true, 0},
		{"smaller, within twice", 4 << 20, 3 << 20, true, 0},
		{"larger than the mapping", 2 << 20, 3 << 20, false, 1},
		{"more than twice smaller", 16 << 20, 3 << 20, false, 1},
		{"below the minimum size", 2 << 20, 1000, false, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			defer a.Trim()
			rc := a.Recycled()
			f := rc.Allocate(tc.freed)
			for i := range f {
				f[i] = 0xa5
			}
			a.Free(f) // each of a and Recycled frees the other's buffers
			if b := a.Allocate(tc.asked); len(b) > 0 && b[0] != 0 {
				t.Errorf("Allocate handed out a kept mapping")
			} else {
				a.Free(b)
			}
			if n, _ := a.Kept(); n < 1 {
				t.Fatalf("%d mappings kept after Free, want at least 1", n)
			}
			a.Trim()
			rc = a.Recycled()
			f = rc.Allocate(tc.freed)
			f[0] = 0xa5
			rc.Free(f)
			g := rc.Allocate(tc.asked)
			if len(g) != tc.asked {
				t.Fatalf("len %d, want %d", len(g), tc.asked)
			}
			if got := len(g) > 0 && &g[0] == &f[0] && g[0] == 0xa5; got != tc.recycled {
				t.Errorf("recycled the freed mapping unzeroed: %v, want %v", got, tc.recycled)
			}
			if n, _ := a.Kept(); n != tc.keptAfter {
				t.Errorf("%d mappings kept, want %d", n, tc.keptAfter)
			}
			rc.Free(g)
			if n, _ := a.Mapped(); n != 0 {
				t.Errorf("%d buffers mapped after every Free", n)
			}
		})
	}
	// Free keeps the last MaxKept mappings and Trim returns them.
	a.Recycled()
	bufs := make([][]byte, hugepage.MaxKept+2)
	for i := range bufs {
		bufs[i] = a.Allocate(2 << 20)
	}
	for _, b := range bufs {
		a.Free(b)
	}
	if n, bytes := a.Kept(); n != hugepage.MaxKept || bytes != hugepage.MaxKept*2<<20 {
		t.Errorf("kept %d mappings of %d bytes, want %d of 2 MiB", n, bytes, hugepage.MaxKept)
	}
	a.Trim()
	if n, _ := a.Kept(); n != 0 {
		t.Errorf("after Trim, %d mappings kept", n)
	}
	a.Free(a.Allocate(2 << 20))
	if n, _ := a.Kept(); n != 0 {
		t.Errorf("after Trim, Free kept %d mappings before Recycled was called again", n)
	}
}

// TestRecycledReallocate checks that Recycled's Reallocate keeps the
// bytes it must and grows within a mapping in place.
func TestRecycledReallocate(t *testing.T) {
	small := testvec.CheckedMem(t)
	a := newAllocator(t, hugepage.WithMinSize(1<<20), hugepage.WithSmall(small))
	defer a.Trim()
	rc := a.Recycled()
	b := rc.Allocate(1000)
	for i := range b {
		b[i] = byte(i)
	}
	for _, size := range []int{3000, 3 << 20, 4 << 20, 9 << 20, 500} {
		old := min(len(b), size)
		b = rc.Reallocate(size, b)
		if len(b) != size {
			t.Fatalf("Reallocate(%d): len %d", size, len(b))
		}
		for i := range old {
			if b[i] != byte(i) {
				t.Fatalf("Reallocate(%d): byte %d is %d, want %d", size, i, b[i], byte(i))
			}
		}
		for i := old; i < size; i++ {
			b[i] = byte(i)
		}
	}
	rc.Free(b)
	if n, _ := a.Mapped(); n != 0 {
		t.Errorf("%d buffers still mapped", n)
	}
}
