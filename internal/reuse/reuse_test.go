package reuse_test

import (
	"runtime"
	"runtime/debug"
	"testing"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/internal/reuse"
	"github.com/fstensor/fstensor/internal/testsupport/race"
)

// TestAllocate checks the buffers Allocate returns: the length asked,
// 64-byte aligned, at most 12.5% of spare capacity from MinSize on.
func TestAllocate(t *testing.T) {
	a := &reuse.Allocator{}
	for _, n := range []int{0, 1, 63, 4096, reuse.MinSize - 1, reuse.MinSize, reuse.MinSize + 1, 3<<20 + 12345, 17 << 20, 1<<26 - 64} {
		b := a.Allocate(n)
		if len(b) != n {
			t.Fatalf("Allocate(%d): %d bytes", n, len(b))
		}
		if n > 0 && uintptr(unsafe.Pointer(&b[0]))%64 != 0 {
			t.Errorf("Allocate(%d): not 64-byte aligned", n)
		}
		if n >= reuse.MinSize && cap(b) > n+n/8 {
			t.Errorf("Allocate(%d): capacity %d, more than 12.5%% over", n, cap(b))
		}
		a.Free(b)
	}
}

// TestReuse checks that a freed buffer of MinSize or more serves the next
// allocation of its class unzeroed, and that smaller ones are not kept.
func TestReuse(t *testing.T) {
	if race.Enabled {
		t.Skip("sync.Pool drops items at random under the race detector")
	}
	// A garbage collection empties the pools, whose items are per P.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	a := &reuse.Allocator{}
	b, kept := a.AllocateKept(3 << 20)
	if kept {
		t.Fatal("the first buffer of a new allocator is a kept one")
	}
	b[0] = 7
	a.Free(b)
	c, kept := a.AllocateKept(3<<20 - 100) // the same class
	if !kept || &c[0] != &b[0] || c[0] != 7 {
		t.Errorf("after a Free, AllocateKept gave kept=%v, the same buffer %v", kept, &c[0] == &b[0])
	}
	small := a.Allocate(1000)
	small[0] = 9
	a.Free(small)
	if s, kept := a.AllocateKept(1000); kept || s[0] != 0 {
		t.Errorf("a small buffer came back kept=%v holding %d, want new and zeroed", kept, s[0])
	}
	d := a.Reallocate(3<<20, c)
	if &d[0] != &c[0] {
		t.Error("Reallocate within the capacity moved the buffer")
	}
}

// recycler is a reuse.Recycler whose variant is a marked allocator.
type recycler struct {
	memory.Allocator
	variant memory.Allocator
}

func (r recycler) Recycled() memory.Allocator { return r.variant }

// TestFor checks the allocator For picks for buffers written whole.
func TestFor(t *testing.T) {
	goMem := memory.NewGoAllocator()
	checked := memory.NewCheckedAllocator(goMem)
	variant := memory.NewCheckedAllocator(goMem)
	rec := recycler{goMem, variant}
	for _, tc := range []struct {
		name string
		mem  memory.Allocator
		want memory.Allocator
	}{
		{"Go allocator", goMem, reuse.Buffers},
		{"default allocator", memory.DefaultAllocator, reuse.Buffers},
		{"checked allocator", checked, checked},
		{"recycler", rec, variant},
		{"reuse itself", reuse.Buffers, reuse.Buffers},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := reuse.For(tc.mem); got != tc.want {
				t.Errorf("For = %T %p, want %T %p", got, got, tc.want, tc.want)
			}
		})
	}
}
