package expr

import (
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/internal/reuse"
)

// resultValues returns a buffer of n bytes for values that the evaluation
// writes whole (every element, nulls included). A buffer of
// reuse.MinSize bytes or more reuses memory released before, unzeroed,
// since a fresh result as large as its input costs more in page faults
// or in Go's clearing than the evaluation itself: it comes from
// reuse.For(o.mem), reuse.Buffers (the memory of results and decoded
// chunks released before) for a memory.GoAllocator, the default, and
// the Recycled variant of an allocator that offers one (reuse.Recycler:
// hugepage.Allocator's kept mappings). Otherwise it comes from o's
// allocator. Bytes past n to the end of the buffer's 64-byte padding are
// zero either way.
func resultValues(o options, n int) *memory.Buffer {
	mem := o.mem
	if n >= reuse.MinSize {
		mem = reuse.For(o.mem)
	}
	b := memory.NewResizableBuffer(mem)
	b.Resize(n)
	clear(b.Buf()[n:])
	return b
}
