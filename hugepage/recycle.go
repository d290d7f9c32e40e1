package hugepage

import (
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/internal/mmap"
)

// MaxKept is the number of freed mappings an Allocator keeps for
// Recycled once Recycled has been called: the most recently freed ones.
// A loop that reads a batch, writes it and releases it needs one.
const MaxKept = 4

// Recycled returns the allocator of buffers that are written whole
// after allocation (every byte, before any is read): the bodies of IPC
// messages read from a file, decompressed buffers. It shares a's
// mappings: each of a and Recycled frees the other's buffers. From the
// minimum size on, it hands out a mapping freed before, of at least the
// size asked and at most twice it, without clearing it (what it holds
// is unspecified), and maps a new one (zeroed) when none fits; smaller
// buffers come from the small-buffer allocator as a's do.
//
// Once Recycled has been called, Free keeps the last MaxKept mappings
// freed, instead of returning them to the system, until
// [Allocator.Trim]; a's own Allocate never hands them out.
func (a *Allocator) Recycled() memory.Allocator {
	a.mu.Lock()
	a.recycling = true
	a.mu.Unlock()
	return recycled{a}
}

// Kept reports how many freed mappings a keeps for Recycled, and their
// total size in bytes.
func (a *Allocator) Kept() (buffers, bytes int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, m := range a.kept {
		bytes += len(m)
	}
	return len(a.kept), bytes
}

// Trim returns the mappings kept for Recycled to the system; Free keeps
// no more of them until Recycled is called again.
func (a *Allocator) Trim() {
	a.mu.Lock()
	kept := a.kept
	a.kept, a.recycling = nil, false
	a.mu.Unlock()
	for _, m := range kept {
		mmap.UnmapHuge(m)
	}
}

// keep keeps the freed mapping m for Recycled, or returns it to the
// system when a does not recycle; beyond MaxKept the oldest kept mapping
// goes back to the system. a.mu is held.
func (a *Allocator) keep(m []byte) (unmap []byte) {
	if !a.recycling {
		return m
	}
	a.kept = append(a.kept, m)
	if len(a.kept) <= MaxKept {
		return nil
	}
	unmap = a.kept[0]
	a.kept = append(a.kept[:0], a.kept[1:]...)
	return unmap
}

// takeKept removes and returns the smallest kept mapping of at least
// size bytes and at most twice that (rounded up to whole huge pages), or
// nil.
func (a *Allocator) takeKept(size int) []byte {
	limit := 2 * ((size + mmap.HugePage - 1) &^ (mmap.HugePage - 1))
	a.mu.Lock()
	defer a.mu.Unlock()
	best := -1
	for i, m := range a.kept {
		if len(m) >= size && len(m) <= limit && (best < 0 || len(m) < len(a.kept[best])) {
			best = i
		}
	}
	if best < 0 {
		return nil
	}
	m := a.kept[best]
	a.kept = append(a.kept[:best], a.kept[best+1:]...)
	a.maps[&m[0]] = m
	return m
}

// recycled is the allocator Recycled returns.
type recycled struct{ a *Allocator }

// Allocate returns a kept mapping of at least size bytes when one fits,
// unzeroed, and otherwise what a.Allocate does.
func (r recycled) Allocate(size int) []byte {
	if size >= r.a.minSize {
		if m := r.a.takeKept(size); m != nil {
			return m[:size:size]
		}
	}
	return r.a.Allocate(size)
}

// Reallocate is a.Reallocate, with a new buffer from r: the bytes past
// min(size, len(b)) are unspecified.
func (r recycled) Reallocate(size int, b []byte) []byte {
	switch m := r.a.mapping(b); {
	case m != nil && size <= len(m):
		return m[:size:size]
	case m == nil && (size < r.a.minSize || cap(b) >= size):
		return r.a.small.Reallocate(size, b)
	}
	nb := r.Allocate(size)
	copy(nb, b)
	r.a.Free(b)
	return nb
}

// Free is a.Free.
func (r recycled) Free(b []byte) { r.a.Free(b) }

var _ memory.Allocator = recycled{}
