package hugepage

import (
	"sync"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/internal/errs"
	"github.com/fstensor/fstensor/internal/mmap"
)

// MinSize is the default size, in bytes, from which Allocator maps a
// buffer on huge pages: 4 MiB, NumPy's threshold.
const MinSize = 4 << 20

// Allocator is a memory.Allocator whose large buffers live on huge pages
// (see the package documentation). It is safe for concurrent use.
type Allocator struct {
	small   memory.Allocator
	minSize int

	mu        sync.Mutex
	maps      map[*byte][]byte // first byte of each mapped buffer -> whole mapping
	recycling bool             // Recycled was called: Free keeps mappings
	kept      [][]byte         // freed mappings kept for Recycled, oldest first
}

// Option configures an Allocator.
type Option func(*config)

type config struct {
	a   *Allocator
	err error // of the first invalid option
}

// invalid records the error of an invalid option value, keeping the
// first.
func (c *config) invalid(name string, value any, why string) {
	if c.err == nil {
		c.err = &Error{errs.Option("hugepage", name, value, why)}
	}
}

// WithMinSize sets the size in bytes from which buffers are mapped on
// huge pages (MinSize by default); smaller buffers come from the
// small-buffer allocator. An n below 1 is an invalid option.
func WithMinSize(n int) Option {
	return func(c *config) {
		if n < 1 {
			c.invalid("WithMinSize", n, "want 1 or more bytes")
			return
		}
		c.a.minSize = n
	}
}

// WithSmall sets the allocator of buffers below the minimum size
// (memory.DefaultAllocator by default). A nil mem is an invalid option.
func WithSmall(mem memory.Allocator) Option {
	return func(c *config) {
		if mem == nil {
			c.invalid("WithSmall", nil, "want an allocator")
			return
		}
		c.a.small = mem
	}
}

// NewAllocator returns an Allocator. An invalid option value fails it
// with an *Error wrapping fstensor.ErrOption and arrow.ErrInvalid; a nil
// Option is ignored. Without options it does not fail.
func NewAllocator(opts ...Option) (*Allocator, error) {
	c := config{a: &Allocator{small: memory.DefaultAllocator, minSize: MinSize, maps: map[*byte][]byte{}}}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	if c.err != nil {
		return nil, c.err
	}
	return c.a, nil
}

type base = errs.Base

// Error is the error of an invalid option value: it matches
// fstensor.ErrOption and arrow.ErrInvalid under errors.Is, and its
// message starts with "hugepage: " and names the option and the value.
type Error struct{ base }

// Allocate returns a buffer of size bytes, 64-byte aligned: a zeroed
// mapping from the minimum size on, otherwise the small-buffer
// allocator's buffer (zeroed by the default one). It panics if size is
// negative, as memory.GoAllocator does.
func (a *Allocator) Allocate(size int) []byte {
	if size < a.minSize {
		return a.small.Allocate(size)
	}
	m := mmap.MapHuge(size)
	if m == nil {
		return a.small.Allocate(size)
	}
	a.mu.Lock()
	a.maps[&m[0]] = m
	a.mu.Unlock()
	return m[:size:size]
}

// Reallocate returns a buffer of size bytes holding the first
// min(size, len(b)) bytes of b, which it may free: b must not be used
// afterwards.
func (a *Allocator) Reallocate(size int, b []byte) []byte {
	m := a.mapping(b)
	if m == nil {
		if size < a.minSize || cap(b) >= size {
			return a.small.Reallocate(size, b)
		}
	} else if size <= len(m) {
		return m[:size:size]
	}
	nb := a.Allocate(size)
	copy(nb, b)
	a.Free(b)
	return nb
}

// Free gives b back: to the system if it is a mapped buffer (or keeps
// it for Recycled, see there), otherwise to the small-buffer allocator.
func (a *Allocator) Free(b []byte) {
	if cap(b) == 0 {
		a.small.Free(b)
		return
	}
	key := &b[:1][0]
	a.mu.Lock()
	m, ok := a.maps[key]
	delete(a.maps, key)
	if ok {
		m = a.keep(m)
	}
	a.mu.Unlock()
	if !ok {
		a.small.Free(b)
		return
	}
	if m != nil {
		mmap.UnmapHuge(m)
	}
}

// Mapped reports how many buffers of a are mapped on huge pages now (not
// yet freed), and their total size in bytes (whole mappings, each
// a multiple of 2 MiB). Freed mappings kept for Recycled are not counted
// (see Kept).
func (a *Allocator) Mapped() (buffers, bytes int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, m := range a.maps {
		buffers++
		bytes += len(m)
	}
	return buffers, bytes
}

// mapping returns the whole mapping whose first byte is b's, or nil.
func (a *Allocator) mapping(b []byte) []byte {
	if cap(b) == 0 {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.maps[&b[:1][0]]
}

var _ memory.Allocator = (*Allocator)(nil)
