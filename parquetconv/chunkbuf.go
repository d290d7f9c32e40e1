package parquetconv

import (
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/internal/reuse"
)

// chunkBuffers is the allocator of the values of the tensor column
// chunks a reader decodes when its allocator is a *memory.GoAllocator
// (memory.DefaultAllocator unless replaced): reuse.Buffers, whose large
// buffers are kept when released and handed out again without being
// cleared. Go clears every buffer it allocates, so that a chunk read into
// a new buffer was written twice, cleared then read; the decoders write
// every byte of a chunk buffer (values, and zeros for null tensors), so
// the clearing bought nothing.
var chunkBuffers memory.Allocator = reuse.Buffers

// chunkAllocator returns the allocator of the chunk buffers of a reader
// of cfg: chunkBuffers for a GoAllocator, which frees nothing itself,
// the recycled variant of an allocator that offers one (reuse.For: the
// command's huge-page allocator), else cfg's (a checked allocator counts
// every buffer).
func chunkAllocator(cfg *config) memory.Allocator {
	if _, ok := cfg.mem.(*memory.GoAllocator); ok {
		return chunkBuffers
	}
	return reuse.For(cfg.mem)
}

// chunkBuffer returns a buffer of size bytes for the values of a chunk
// decoded by a reader of cfg, and whether its pages are known to be in
// the process already (a buffer chunkBuffers kept): only then are they
// written with non-temporal stores (see copyValues), which on pages just
// faulted in, whose lines the kernel's zeroing left in the caches,
// measured slower than ordinary stores.
func chunkBuffer(cfg *config, size int) (buf *memory.Buffer, warm bool) {
	alloc := chunkAllocator(cfg)
	if r, ok := alloc.(*reuse.Allocator); ok {
		b, kept := r.AllocateKept(size)
		return memory.NewBufferWithAllocator(b, r), kept
	}
	buf = memory.NewResizableBuffer(alloc)
	buf.Resize(size)
	return buf, true
}
