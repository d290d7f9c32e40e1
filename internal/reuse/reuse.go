// Package reuse provides the memory.Allocator of buffers that are written
// whole after allocation: the values of decoded column chunks and of
// computed results. Go clears every buffer it allocates, and a large
// buffer new to the process costs a page fault per 4 KiB page besides; a
// buffer written whole gains nothing from either. Buffers of at least
// MinSize bytes are therefore kept when freed and handed out again
// without being cleared, as C's malloc or Arrow C++'s jemalloc do; the
// kept ones are Go memory held by sync.Pool, so the garbage collector
// drops those that stay unused (within two collections), and a buffer
// never freed is collected as any Go value is. Smaller buffers come from
// a memory.GoAllocator (cleared).
//
// Only code that writes every byte of a buffer it allocates (zeros
// included, for null slots) may use Buffers: what a reused buffer holds
// is unspecified.
//
// Such code, when it is given an allocator, takes the one For returns:
// Buffers for a memory.GoAllocator (memory.DefaultAllocator), whose Free
// does nothing; the Recycled allocator of one that offers it
// (hugepage.Allocator, whose freed mappings it hands out again); and
// otherwise the allocator itself, so that a checked allocator still
// counts every buffer. The IPC readers of arrowipc read and decompress
// message bodies this way; expr takes the Recycled variant of the
// allocator of WithAllocator for the values of large results.
package reuse

import (
	"math/bits"
	"sync"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// MinSize is the size in bytes from which freed buffers are kept: below
// it Go's heap reuses memory well by itself. (At 1 MiB, the 256 KiB
// float32 scores of dot(x, c) over 65,536 rows, new each call, made the
// whole evaluation 0.79x as fast as into kept memory.)
const MinSize = 256 << 10

// Buffers is the process's allocator of unzeroed buffers, shared so that
// a buffer one package frees serves another's next allocation.
var Buffers = &Allocator{}

// goAlloc allocates what Buffers does not reuse: 64-byte aligned Go
// memory, which it leaves to the garbage collector.
var goAlloc = memory.NewGoAllocator()

// Allocator is the type of Buffers: one pool per size class, eight
// classes per power of two (at most 12.5% of a buffer unused). It is safe
// for concurrent use.
type Allocator struct {
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

// Allocate returns a buffer of size bytes, 64-byte aligned: a kept one of
// its class, not cleared, when size is at least MinSize and one was
// freed; otherwise new (cleared) memory.
func (a *Allocator) Allocate(size int) []byte {
	b, _ := a.AllocateKept(size)
	return b
}

// AllocateKept is Allocate, and reports whether the buffer is a kept
// one, whose pages were written before (else they may be new to the
// process, each written first by the kernel's page fault: non-temporal
// stores measured slower there than ordinary ones).
func (a *Allocator) AllocateKept(size int) (b []byte, kept bool) {
	if size < MinSize {
		return goAlloc.Allocate(size), false
	}
	c := sizeClass(size, true)
	if p, ok := a.pools[c].Get().(*[]byte); ok {
		return (*p)[:size], true
	}
	return goAlloc.Allocate(classSize(c))[:size], false
}

// Reallocate returns a buffer of size bytes holding b's first bytes; b
// must not be used afterwards.
func (a *Allocator) Reallocate(size int, b []byte) []byte {
	if len(b) >= MinSize && size >= MinSize && size <= cap(b) {
		return b[:size]
	}
	nb := a.Allocate(size)
	copy(nb, b)
	a.Free(b)
	return nb
}

// Free keeps b for reuse when it is at least MinSize bytes long (as
// Allocate returned it) and leaves a smaller one to the garbage
// collector.
func (a *Allocator) Free(b []byte) {
	if len(b) < MinSize {
		return
	}
	b = b[:cap(b)]
	a.pools[sizeClass(len(b), false)].Put(&b)
}

var _ memory.Allocator = (*Allocator)(nil)

// Recycler is implemented by an allocator that offers, for buffers
// written whole, a variant of itself that hands out memory freed before
// without clearing it. Each of the two must free the buffers of the
// other: a buffer may be allocated by one and freed by the other.
type Recycler interface {
	memory.Allocator
	// Recycled returns the variant for buffers written whole.
	Recycled() memory.Allocator
}

// For returns the allocator of buffers written whole for code given mem:
// Buffers when mem is a *memory.GoAllocator (whose Free does nothing, so
// that its buffers and Buffers' may be freed to either), mem.Recycled()
// when mem is a Recycler, and mem itself otherwise.
func For(mem memory.Allocator) memory.Allocator {
	switch m := mem.(type) {
	case *memory.GoAllocator:
		return Buffers
	case Recycler:
		return m.Recycled()
	}
	return mem
}
