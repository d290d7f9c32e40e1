package expr

import (
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/internal/reuse"
)

// resultValues returns a buffer of n bytes for values that the evaluation
// writes whole (every element, nulls included). A buffer of
// reuse.MinSize bytes or more reuses memory released before, unzeroed,
// since a fresh result as large as its input costs more in page faults
// or in Go's clearing than the evaluation itself: without WithAllocator
// it comes from reuse.Buffers (the memory of results and decoded chunks
// released before), and from the Recycled variant of an allocator that
// offers one (reuse.Recycler: hugepage.Allocator's kept mappings).
// Otherwise it comes from o's allocator. Bytes past n to the end of the
// buffer's 64-byte padding are zero either way.
func resultValues(o options, n int) *memory.Buffer {
	mem := o.mem
	if n >= reuse.MinSize {
		if !o.memSet {
			mem = reuse.Buffers
		} else if r, ok := o.mem.(reuse.Recycler); ok {
			mem = r.Recycled()
		}
	}
	b := memory.NewResizableBuffer(mem)
	b.Resize(n)
	clear(b.Buf()[n:])
	return b
}
