package testvec

import (
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Poisoned is an allocator of buffers filled with Poison bytes, as
// recycled (uncleared) memory may hold anything; it counts them. Tests of
// code that must write every byte of what it allocates compare its
// results against results computed on fresh memory.
type Poisoned struct {
	memory.Allocator
	Poison byte
	n      atomic.Int64
}

// Allocate returns a buffer of the underlying allocator filled with Poison.
func (p *Poisoned) Allocate(size int) []byte {
	p.n.Add(1)
	b := p.Allocator.Allocate(size)
	fill(b, p.Poison)
	return b
}

// Allocations returns how many buffers p handed out.
func (p *Poisoned) Allocations() int64 { return p.n.Load() }

// Recycler is an allocator whose recycled variant (the Recycled method
// of reuse.Recycler, as hugepage.Allocator has) is Rc. Both must free
// each other's buffers: give them the same underlying allocator.
type Recycler struct {
	memory.Allocator
	Rc *Poisoned
}

// Recycled returns r.Rc.
func (r Recycler) Recycled() memory.Allocator { return r.Rc }

// FillFreed allocates a buffer of each size from mem, fills them with b
// and frees them (in the order allocated), so that an allocator that
// keeps freed buffers hands out poisoned memory next.
func FillFreed(mem memory.Allocator, b byte, sizes ...int) {
	bufs := make([][]byte, len(sizes))
	for k, size := range sizes {
		bufs[k] = mem.Allocate(size)
		fill(bufs[k], b)
	}
	for _, buf := range bufs {
		mem.Free(buf)
	}
}

func fill(buf []byte, b byte) {
	for i := range buf {
		buf[i] = b
	}
}
