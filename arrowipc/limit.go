package arrowipc

import (
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/internal/reuse"
)

// budgetAllocator is the allocator the IPC readers hand to arrow-go. arrow-go
// allocates each compressed buffer at the size its 8-byte prefix claims,
// before decompressing and without any check, so a few bytes of input can
// ask for terabytes: a fatal out-of-memory error that no recover catches.
// Every decode (a reader's construction, one record batch) runs under
// budgetAllocator.run, which allows it a total of budget bytes; an
// allocation beyond that panics with an *Error before reaching the
// underlying allocator, and the reader entry points recover the panic.
//
// arrow-go also leaks what a failed decode allocated (a body read before
// a buffer turns out short, the buffers of a half-built record), so run
// tracks the allocations of each decode and, when it fails, frees those
// still outstanding; a later Free of one of them by arrow-go is ignored.
//
// What a decode allocates comes from reuse.For of the reader's allocator:
// memory of batches released before, not cleared. Every allocation of
// arrow-go v18.8.0's readers is written whole or the decode fails: message
// metadata and bodies (io.ReadFull), decompressed buffers (io.ReadFull of
// the codec, a short one panics), and in this package the bodies of
// streams and the aligned copies of Flight bodies. The one exception is
// the concatenation of delta dictionaries (array.Concatenate leaves the
// bits past the last of a bitmap as they were), so a reader whose schema
// has a dictionary-encoded field allocates from its own allocator
// (plainFor).
type budgetAllocator struct {
	mem    memory.Allocator // of the decodes: reuse.For(plain), or plain
	plain  memory.Allocator // the reader's allocator ([WithAllocator])
	budget int64            // bytes one decode may allocate; <= 0: no limit

	mu   sync.Mutex   // one decode at a time
	left atomic.Int64 // bytes the current decode may still allocate

	tmu      sync.Mutex         // guards live and released
	tracking bool               // a decode is running
	live     map[*byte][]byte   // outstanding allocations of the running decode
	released map[*byte]struct{} // allocations freed after a failed decode
}

var _ memory.Allocator = (*budgetAllocator)(nil)

// newBudgetAllocator returns the recycling allocator of mem (reuse.For)
// limited to budget bytes per decode (no limit when budget <= 0).
func newBudgetAllocator(mem memory.Allocator, budget int64) *budgetAllocator {
	a := &budgetAllocator{mem: reuse.For(mem), plain: mem, budget: budget}
	a.left.Store(budget)
	return a
}

// plainFor makes the decodes of a reader of schema allocate from the
// reader's own allocator when the schema has a dictionary-encoded field
// (see budgetAllocator). It is called once the schema is read, before
// the reader decodes a batch; buffers allocated before are freed as
// usual, since each of the two allocators frees the other's.
func (a *budgetAllocator) plainFor(schema *arrow.Schema) {
	for _, f := range schema.Fields() {
		if hasDictionary(f.Type) {
			a.mem = a.plain
			return
		}
	}
}

// hasDictionary reports whether dt is, holds or stores a dictionary type.
func hasDictionary(dt arrow.DataType) bool {
	switch t := dt.(type) {
	case *arrow.DictionaryType:
		return true
	case arrow.ExtensionType:
		return hasDictionary(t.StorageType())
	case arrow.NestedType:
		for _, f := range t.Fields() {
			if hasDictionary(f.Type) {
				return true
			}
		}
	}
	return false
}

// run runs decode with a fresh budget, one decode at a time. When decode
// panics or returns false (it failed), what it allocated and did not free
// is freed before run returns or the panic goes on.
func (a *budgetAllocator) run(decode func() (ok bool)) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.left.Store(a.budget)
	a.tmu.Lock()
	a.tracking, a.live = true, make(map[*byte][]byte)
	a.tmu.Unlock()
	ok := false
	defer func() {
		a.tmu.Lock()
		defer a.tmu.Unlock()
		if !ok {
			for p, b := range a.live {
				if a.released == nil {
					a.released = make(map[*byte]struct{})
				}
				a.released[p] = struct{}{}
				a.mem.Free(b)
			}
		}
		a.tracking, a.live = false, nil
	}()
	ok = decode()
}

// track records b as an allocation of the running decode.
func (a *budgetAllocator) track(b []byte) {
	if cap(b) == 0 {
		return
	}
	p := &b[:1][0]
	a.tmu.Lock()
	defer a.tmu.Unlock()
	delete(a.released, p) // the address was freed and handed out again
	if a.tracking {
		a.live[p] = b
	}
}

// untrack forgets b and reports whether it must still be freed: false
// for an allocation already freed after a failed decode.
func (a *budgetAllocator) untrack(b []byte) bool {
	if cap(b) == 0 {
		return true
	}
	p := &b[:1][0]
	a.tmu.Lock()
	defer a.tmu.Unlock()
	if _, ok := a.released[p]; ok {
		delete(a.released, p)
		return false
	}
	delete(a.live, p)
	return true
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
	b := a.mem.Allocate(size)
	a.track(b)
	return b
}

// Reallocate charges the growth, then reallocates.
func (a *budgetAllocator) Reallocate(size int, b []byte) []byte {
	a.take(size - len(b))
	if !a.untrack(b) {
		// Freed after a failed decode: arrow-go grows a buffer it lost.
		b = nil
	}
	b = a.mem.Reallocate(size, b)
	a.track(b)
	return b
}

// Free frees b, unless it was freed after a failed decode; the budget of
// a decode is not given back.
func (a *budgetAllocator) Free(b []byte) {
	if a.untrack(b) {
		a.mem.Free(b)
	}
}

// decodeBudget returns the bytes one IPC decode may allocate for a body
// size limit: the stored body and its decompressed buffers, each at most
// limit, so twice limit (at most math.MaxInt64); limit is at least 1.
func decodeBudget(limit int64) int64 {
	if limit > (1<<63-1)/2 {
		return 1<<63 - 1
	}
	return 2 * limit
}
