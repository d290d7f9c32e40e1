package expr

import (
	"sync"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Result values and the memory they come from.
//
// A result column is usually as large as its input, and an evaluation
// writes every byte of its values. Fresh memory of that size costs more
// than the evaluation itself: Go's heap hands a large allocation either
// pages new from the system (one page fault every 4 KiB) or freed spans
// that it zeroes first, and with results of hundreds of megabytes the
// collector returns freed spans to the system between calls. Without
// WithAllocator, the values of a result of recycledMin bytes or more
// therefore come from recycled: the values of results released earlier
// (by Release on the array) are handed out again, unzeroed, since the
// evaluation overwrites them whole. A pipeline that releases each result
// before computing the next reuses the same memory every batch. Recycled
// buffers are Go memory held by sync.Pool, so the garbage collector takes
// back those left unused (within two collections), and a result that is
// never released is collected as any Go value is.

// recycledMin is the smallest result, in bytes, whose values are
// recycled: below it Go's heap reuses memory well by itself.
const recycledMin = 4 << 20

// recycledClass is the granularity, in bytes, of the capacities of
// recycled buffers: a buffer serves every size up to its capacity in the
// same class.
const recycledClass = 1 << 20

// recycled is the memory of result values without WithAllocator.
var recycled = &recycler{}

// recycler is a memory.Allocator of unzeroed buffers, recycling those
// freed to it by capacity class. Only values that the evaluation writes
// whole may come from it: Allocate does not zero.
type recycler struct {
	classes sync.Map // capacity in bytes -> *sync.Pool of *[]byte
}

func (r *recycler) pool(capacity int) *sync.Pool {
	if p, ok := r.classes.Load(capacity); ok {
		return p.(*sync.Pool)
	}
	p, _ := r.classes.LoadOrStore(capacity, &sync.Pool{})
	return p.(*sync.Pool)
}

// Allocate returns size bytes whose content is unspecified (a new
// buffer's zeros, or a freed buffer's old bytes), from a freed buffer of
// the size's class where there is one.
func (r *recycler) Allocate(size int) []byte {
	capacity := (size + recycledClass - 1) / recycledClass * recycledClass
	if b, ok := r.pool(capacity).Get().(*[]byte); ok {
		return (*b)[:size]
	}
	// make rather than GoAllocator: the capacity must be the class's,
	// and a large make is aligned to the heap's 8 KiB pages.
	return make([]byte, size, capacity)
}

// Reallocate returns a buffer of size bytes holding b's first bytes.
func (r *recycler) Reallocate(size int, b []byte) []byte {
	if size <= cap(b) {
		return b[:size]
	}
	nb := r.Allocate(size)
	copy(nb, b)
	r.Free(b)
	return nb
}

// Free keeps b for a later Allocate; a buffer too small to recycle is
// left to the garbage collector.
func (r *recycler) Free(b []byte) {
	c := cap(b)
	if c < recycledMin || c%recycledClass != 0 {
		return
	}
	b = b[:c]
	r.pool(c).Put(&b)
}

// resultValues returns a buffer of n bytes for values that the evaluation
// writes whole (every element, nulls included): from recycled for n of
// recycledMin bytes or more without WithAllocator, from o's allocator
// otherwise; bytes past n to the end of the buffer's 64-byte padding are
// zero either way.
func resultValues(o options, n int) *memory.Buffer {
	mem := o.mem
	if !o.memSet && n >= recycledMin {
		mem = recycled
	}
	b := memory.NewResizableBuffer(mem)
	b.Resize(n)
	clear(b.Buf()[n:])
	return b
}
