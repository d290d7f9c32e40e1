package arrowconv

import (
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Option configures a conversion of this package. Each
// entry point documents the options it reads and ignores the others.
type Option func(*config)

type config struct {
	mem  memory.Allocator
	copy bool
}

func newConfig(opts []Option) *config {
	c := &config{
		mem: memory.DefaultAllocator,
	}
	for _, o := range opts {
		if o != nil {
			o(c)
		}
	}
	return c
}

// WithAllocator sets the allocator of copies and of decoded data (the
// default is memory.DefaultAllocator). Read by every entry point that
// allocates Arrow memory.
func WithAllocator(mem memory.Allocator) Option {
	return func(c *config) {
		if mem != nil {
			c.mem = mem
		}
	}
}

// WithCopy lets [FromTensor] and [FromSlotTensor] copy a tensor whose
// strides are not a dense (possibly permuted) layout, instead of
// refusing it. Dense tensors are never copied.
func WithCopy() Option { return func(c *config) { c.copy = true } }
