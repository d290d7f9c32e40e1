// Package hugepage provides a memory.Allocator that backs large Arrow
// buffers with transparent huge pages.
//
// # Overview
//
// A column of tensors is read from start to end by every computing
// operation. On Linux, a buffer of 4 KiB pages costs such a scan a TLB
// miss every 4 KiB and restarts the hardware prefetchers at each page;
// on 2 MiB pages both go away. NumPy asks the kernel for huge pages for
// every array of 4 MiB or more (madvise(MADV_HUGEPAGE)); Go's heap does
// not when the system's transparent huge pages are in "madvise" mode, the
// default of most distributions. Allocator does what NumPy does for the
// buffers it hands to arrow-go: buffers of at least MinSize bytes are
// anonymous mappings aligned to 2 MiB and advised MADV_HUGEPAGE; smaller
// ones come from another allocator (memory.DefaultAllocator unless told).
//
// Use it wherever large columns are allocated: the readers of arrowconv,
// parquetconv and tensorio, fixedshape.NewBuilder, expr.WithAllocator.
// The fstensor command uses it.
//
// # Memory
//
// Buffers of at least MinSize bytes are returned to the system by Free
// (munmap): as with memory.NewCheckedAllocator or Arrow's C allocator,
// a buffer must be released exactly once (arrow-go's Release does this)
// and must not be used after it. A large buffer never released is never
// returned to the system (the garbage collector does not see it).
//
// A mapping new to the process costs the kernel a page fault and the
// clearing of each page as it is first written: converting an IPC file
// batch by batch into new mappings spent about a sixth of its time
// there, normalizing it a third. For buffers written whole after
// allocation (IPC message bodies, decompressed buffers, computed
// results), [Allocator.Recycled] returns a variant of the allocator that
// hands out mappings freed before, not cleared; once it has been called,
// Free keeps the last [MaxKept] mappings freed for it instead of
// unmapping them, until [Allocator.Trim]. The IPC readers of arrowipc
// (through internal/reuse's For) and expr's large result values take it
// when given an Allocator, so that a loop that reads, computes, writes
// and releases batches maps about one batch's memory instead of every
// batch's.
//
// On systems other than Linux, or where mmap fails, every buffer comes
// from the small-buffer allocator: the result is correct, only without
// huge pages. Whether the kernel actually backs a mapping with huge pages
// depends on /sys/kernel/mm/transparent_hugepage/enabled ("always" or
// "madvise") and on free contiguous memory; Allocator only asks.
//
// # Errors
//
// NewAllocator fails only on an invalid option value (WithSmall(nil), a
// WithMinSize below 1), with an *Error wrapping fstensor.ErrOption and
// arrow.ErrInvalid.
package hugepage
