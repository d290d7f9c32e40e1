package arrowconv

import (
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// budgetAllocator is the allocator the IPC readers hand to arrow-go. arrow-go
// allocates each compressed buffer at the size its 8-byte prefix claims,
// before decompressing and without any check, so a few bytes of input can
// ask for terabytes: a fatal out-of-memory error that no recover catches.
// Every decode (a reader's construction, one record batch) runs under
// budgetAllocator.run, which allows it a total of budget bytes; an
// allocation beyond that panics with an *Error before reaching the
// underlying allocator, and the reader entry points recover the panic.
type budgetAllocator struct {
	mem    memory.Allocator
	budget int64 // bytes one decode may allocate; <= 0: no limit

	mu   sync.Mutex   // one decode at a time
	left atomic.Int64 // bytes the current decode may still allocate
}

var _ memory.Allocator = (*budgetAllocator)(nil)

// newBudgetAllocator returns mem limited to budget bytes per decode
// (no limit when budget <= 0).
func newBudgetAllocator(mem memory.Allocator, budget int64) *budgetAllocator {
	a := &budgetAllocator{mem: mem, budget: budget}
	a.left.Store(budget)
	return a
}

// run runs decode with a fresh budget, one decode at a time.
func (a *budgetAllocator) run(decode func()) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.left.Store(a.budget)
	decode()
}

// take charges n bytes to the current decode, panicking when they exceed
// what is left.
func (a *budgetAllocator) take(n int) {
	if n < 0 {
		// arrow-go rounds a claimed size near 1<<63 up to a negative one.
		panic(errorf("decoding asks for %d bytes", n))
	}
	if a.budget <= 0 || n == 0 {
		return
	}
	if left := a.left.Add(-int64(n)); left < 0 {
		panic(errorf("decoding one message needs more than %d bytes, twice the body size limit (WithBodySizeLimit)", a.budget))
	}
}

// Allocate charges size bytes, then allocates them.
func (a *budgetAllocator) Allocate(size int) []byte {
	a.take(size)
	return a.mem.Allocate(size)
}

// Reallocate charges the growth, then reallocates.
func (a *budgetAllocator) Reallocate(size int, b []byte) []byte {
	a.take(size - len(b))
	return a.mem.Reallocate(size, b)
}

// Free frees b; the budget of a decode is not given back.
func (a *budgetAllocator) Free(b []byte) { a.mem.Free(b) }

// decodeBudget returns the bytes one IPC decode may allocate for a body
// size limit: the stored body and its decompressed buffers, each at most
// limit, so twice limit (no limit when limit <= 0).
func decodeBudget(limit int64) int64 {
	if limit <= 0 {
		return 0
	}
	if limit > (1<<63-1)/2 {
		return 1<<63 - 1
	}
	return 2 * limit
}
