package expr

import "github.com/fstensor/fstensor/hugepage"

// DefaultMapped reports the buffers of the default allocator that are
// mapped on huge pages now (none when it is not a hugepage.Allocator).
func DefaultMapped() int {
	a, ok := defaultMem.(*hugepage.Allocator)
	if !ok {
		return 0
	}
	n, _ := a.Mapped()
	return n
}
