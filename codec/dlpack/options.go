//go:build cgo

package dlpack

import (
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/codec/dlpack/internal/dltype"
)

// ImportOption configures [Import] and [ImportVersioned]. Without options
// they import one tensor, without copying. An invalid option value fails
// the import before it reads the tensor (which stays the caller's), with
// an *Error wrapping fstensor.ErrOption and arrow.ErrInvalid. A nil
// ImportOption is ignored.
type ImportOption func(*importConfig)

type importConfig struct {
	column      bool
	allowCopy   bool
	mem         memory.Allocator
	maxCopySize int   // 0: no bound
	err         error // of the first invalid option
}

func newImportConfig(opts []ImportOption) (*importConfig, error) {
	c := &importConfig{mem: memory.DefaultAllocator}
	for _, o := range opts {
		if o != nil {
			o(c)
		}
	}
	return c, c.err
}

func (c *importConfig) invalid(name string, value any, why string) {
	if c.err == nil {
		c.err = dltype.Optionf(name, value, why)
	}
}

// WithColumn, when on, imports axis 0 as the batch axis: shape (N, L...)
// becomes N tensors of shape L. Otherwise (the default) the whole tensor
// is one tensor, a column of length 1.
func WithColumn(on bool) ImportOption {
	return func(c *importConfig) { c.column = on }
}

// WithCopy, when on, gathers gapped, overlapping or misaligned strides
// into a new row-major buffer (from [WithAllocator]) instead of failing;
// the producer's deleter then runs before the import returns. Off by
// default.
func WithCopy(on bool) ImportOption {
	return func(c *importConfig) { c.allowCopy = on }
}

// WithAllocator sets the allocator of a copy (default
// memory.DefaultAllocator). A nil mem is an invalid option.
func WithAllocator(mem memory.Allocator) ImportOption {
	return func(c *importConfig) {
		if mem == nil {
			c.invalid("WithAllocator", nil, "want an allocator")
			return
		}
		c.mem = mem
	}
}

// WithMaxCopySize bounds the bytes a copy may allocate (default: no
// bound). Broadcast (zero) strides let a producer's few bytes describe a
// tensor of any size, which a copy must materialize. An n below 1 is an
// invalid option.
func WithMaxCopySize(n int) ImportOption {
	return func(c *importConfig) {
		if n < 1 {
			c.invalid("WithMaxCopySize", n, "want 1 or more bytes")
			return
		}
		c.maxCopySize = n
	}
}
