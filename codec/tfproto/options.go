package tfproto

import (
	"github.com/fstensor/fstensor/codec/internal/readopt"
	"github.com/fstensor/fstensor/internal/errs"
)

// ReadOption configures [ReadColumn] and [ReadDelimited].
// A nil ReadOption is skipped; the error of a reader given invalid
// options is that of the first invalid one, an *Error wrapping
// fstensor.ErrOption.
type ReadOption func(*readopt.Config)

// WithExpectedCount makes a reader fail unless the input holds exactly n
// tensors. A stream of TensorProto messages has no footer or count, so
// one cut exactly between two messages reads, without it, as a shorter
// column and no error (see the package doc, Streams).
//
// A negative n is an invalid option.
func WithExpectedCount(n int) ReadOption {
	return func(c *readopt.Config) {
		c.SetCount(n, &Error{errs.Option("tfproto", "WithExpectedCount", n, "want a tensor count of 0 or more")})
	}
}
