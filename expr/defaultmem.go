package expr

import (
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/hugepage"
)

// defaultMem is the allocator of an evaluation without WithAllocator:
// buffers of hugepage.MinSize bytes or more are anonymous mappings on
// transparent huge pages, given back to the system when released, and
// smaller ones come from memory.DefaultAllocator (Go's heap). A result
// column is written once, whole: a fresh mapping costs a page fault per
// 2 MiB that the kernel zeroes, where Go's heap zeroes reused spans and
// faults fresh ones in 4 KiB at a time.
var defaultMem memory.Allocator = newDefaultMem()

func newDefaultMem() memory.Allocator {
	a, err := hugepage.NewAllocator() // fails only on an invalid option
	if err != nil {
		return memory.DefaultAllocator
	}
	return a
}
