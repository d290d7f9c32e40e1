package decthings

// ReadOption configures [ReadColumn].
type ReadOption func(*readConfig)

type readConfig struct {
	count    int
	hasCount bool
}

func newReadConfig(opts []ReadOption) readConfig {
	var c readConfig
	for _, o := range opts {
		o(&c)
	}
	return c
}

// WithExpectedCount makes ReadColumn fail unless the input holds exactly n
// tensors. Concatenated Decthings tensors have no footer or count, so
// input cut exactly between two tensors reads, without it, as a shorter
// column and no error (see the package doc, Streams).
func WithExpectedCount(n int) ReadOption {
	return func(c *readConfig) { c.count, c.hasCount = n, true }
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
