package decthings

import "github.com/fstensor/fstensor/internal/errs"

// ReadOption configures [ReadColumn].
type ReadOption func(*readConfig)

type readConfig struct {
	count    int
	hasCount bool
	err      error // of the first invalid option
}

// newReadConfig applies opts; the error is that of the first invalid
// option value, an *Error wrapping fstensor.ErrOption. A nil ReadOption
// is skipped.
func newReadConfig(opts []ReadOption) (readConfig, error) {
	var c readConfig
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c, c.err
}

// WithExpectedCount makes ReadColumn fail unless the input holds exactly n
// tensors. Concatenated Decthings tensors have no footer or count, so
// input cut exactly between two tensors reads, without it, as a shorter
// column and no error (see the package doc, Streams).
//
// A negative n is an invalid option.
func WithExpectedCount(n int) ReadOption {
	return func(c *readConfig) {
		if n < 0 {
			if c.err == nil {
				c.err = &Error{errs.Option("decthings", "WithExpectedCount", n, "want a tensor count of 0 or more")}
			}
			return
		}
		c.count, c.hasCount = n, true
	}
}

// checkCount fails when the expected count is set and is not n.
func (c readConfig) checkCount(n int) error {
	if !c.hasCount || n == c.count {
		return nil
	}
	if n < c.count {
		return errorf("%d tensors, %d expected (WithExpectedCount): the input ends early", n, c.count)
	}
	return errorf("%d tensors, %d expected (WithExpectedCount): the input has more", n, c.count)
}
