package hugepage

import (
	"sync"

	"github.com/apache/arrow-go/v18/arrow/memory"
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

	mu   sync.Mutex
	maps map[*byte][]byte // first byte of each mapped buffer -> whole mapping
}

// Option configures an Allocator.
type Option func(*Allocator)

// WithMinSize sets the size in bytes from which buffers are mapped on
// huge pages (MinSize by default); smaller buffers come from the
// small-buffer allocator. Values below 1 are taken as 1.
func WithMinSize(n int) Option {
	return func(a *Allocator) { a.minSize = max(n, 1) }
}

// WithSmall sets the allocator of buffers below the minimum size
// (memory.DefaultAllocator by default; nil keeps the default).
func WithSmall(mem memory.Allocator) Option {
	return func(a *Allocator) {
		if mem != nil {
			a.small = mem
		}
	}
}

// NewAllocator returns an Allocator.
func NewAllocator(opts ...Option) *Allocator {
	a := &Allocator{small: memory.DefaultAllocator, minSize: MinSize, maps: map[*byte][]byte{}}
	for _, o := range opts {
		o(a)
	}
	return a
}

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

// Free gives b back: to the system if it is a mapped buffer, otherwise
// to the small-buffer allocator.
func (a *Allocator) Free(b []byte) {
	if cap(b) == 0 {
		a.small.Free(b)
		return
	}
	key := &b[:1][0]
	a.mu.Lock()
	m, ok := a.maps[key]
	delete(a.maps, key)
	a.mu.Unlock()
	if !ok {
		a.small.Free(b)
		return
	}
	mmap.UnmapHuge(m)
}

// Mapped reports how many buffers of a are mapped on huge pages now (not
// yet freed), and their total size in bytes (whole mappings, each
// a multiple of 2 MiB).
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
