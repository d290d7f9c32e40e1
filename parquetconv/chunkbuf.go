package parquetconv

import (
	"math/bits"
	"sync"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// minReused is the smallest chunk buffer chunkBuffers keeps for reuse.
const minReused = 1 << 20

// chunkBuffers is the allocator of the values of the tensor column
// chunks a reader decodes when its allocator is a *memory.GoAllocator
// (memory.DefaultAllocator unless replaced): buffers of at least
// minReused bytes are kept when released and handed out again without
// being cleared, as C's malloc or Arrow C++'s jemalloc do. Go clears
// every buffer it allocates, so that a chunk read into a new buffer was
// written twice, cleared then read; the decoders write every byte of a
// chunk buffer (values, and zeros for null tensors), so the clearing
// bought nothing. Smaller buffers come from a GoAllocator. The buffers
// kept are dropped by the garbage collector as sync.Pool drops what it
// holds.
var chunkBuffers memory.Allocator = &reusing{}

// goAlloc allocates what chunkBuffers does not reuse: 64-byte aligned
// Go memory, which it leaves to the garbage collector.
var goAlloc = memory.NewGoAllocator()

// chunkAllocator returns the allocator of the chunk buffers of a reader
// of cfg: chunkBuffers for a GoAllocator, which frees nothing itself,
// else cfg's (a checked allocator counts every buffer, a mapping
// allocator unmaps on Free).
func chunkAllocator(cfg *config) memory.Allocator {
	if _, ok := cfg.mem.(*memory.GoAllocator); ok {
		return chunkBuffers
	}
	return cfg.mem
}

// chunkBuffer returns a buffer of size bytes for the values of a chunk
// decoded by a reader of cfg, and whether its pages are known to be in
// the process already (a buffer chunkBuffers kept): only then are they
// written with non-temporal stores (see copyValues), which on pages just
// faulted in, whose lines the kernel's zeroing left in the caches,
// measured slower than ordinary stores.
func chunkBuffer(cfg *config, size int) (buf *memory.Buffer, warm bool) {
	alloc := chunkAllocator(cfg)
	if r, ok := alloc.(*reusing); ok {
		b, kept := r.allocate(size)
		return memory.NewBufferWithAllocator(b, r), kept
	}
	buf = memory.NewResizableBuffer(alloc)
	buf.Resize(size)
	return buf, true
}

// reusing is the allocator behind chunkBuffers: one pool per size class,
// eight classes per power of two (at most 12.5% of a buffer unused). A
// buffer is reused when its length, as Allocate returned it, is at least
// minReused.
type reusing struct {
	pools [64 * 8]sync.Pool // of *[]byte, by class
}

// sizeClass returns the class of n bytes (n >= 8): the largest whose
// size is at most n, or with up the smallest whose size is at least n.
func sizeClass(n int, up bool) int {
	e := bits.Len(uint(n)) - 1
	step := 1 << (e - 3)
	m := (n - 1<<e) / step
	if up && 1<<e+m*step < n {
		m++
	}
	return e*8 + m
}

// classSize returns the bytes of buffers of class c.
func classSize(c int) int {
	e, m := c/8, c%8
	return 1<<e + m<<(e-3)
}

// Allocate returns a buffer of size bytes: a kept one of its class, not
// cleared, when size is at least minReused.
func (a *reusing) Allocate(size int) []byte {
	b, _ := a.allocate(size)
	return b
}

// allocate is Allocate, and reports whether the buffer is a kept one,
// whose pages were written before (else they may be new to the process,
// each written first by the kernel's page fault).
func (a *reusing) allocate(size int) (b []byte, kept bool) {
	if size < minReused {
		return goAlloc.Allocate(size), false
	}
	c := sizeClass(size, true)
	if p, ok := a.pools[c].Get().(*[]byte); ok {
		return (*p)[:size], true
	}
	return goAlloc.Allocate(classSize(c))[:size], false
}

// Reallocate returns a buffer of size bytes holding b's first bytes.
func (a *reusing) Reallocate(size int, b []byte) []byte {
	if len(b) >= minReused && size >= minReused && size <= cap(b) {
		return b[:size]
	}
	nb := a.Allocate(size)
	copy(nb, b)
	a.Free(b)
	return nb
}

// Free keeps b for reuse when it is large enough.
func (a *reusing) Free(b []byte) {
	if len(b) < minReused {
		return
	}
	b = b[:cap(b)]
	a.pools[sizeClass(len(b), false)].Put(&b)
}
