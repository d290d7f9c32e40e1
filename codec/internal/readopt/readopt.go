// Package readopt is the read configuration of the codecs whose streams
// carry no tensor count (decthings, tfproto): the state their ReadOptions
// set and its checks. Errors are made by the calling package, so that
// they carry its error type and name.
package readopt

// Config is what a package's ReadOptions set. Its zero value has no
// option set.
type Config struct {
	count    int
	hasCount bool
	err      error // of the first invalid option
}

// Apply applies opts, skipping nil ones, to a zero Config and returns it
// and the error of the first invalid option value.
func Apply[O ~func(*Config)](opts []O) (Config, error) {
	var c Config
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c, c.err
}

// SetCount records the expected tensor count n. A negative n is an
// invalid option: invalid, the calling package's error for it, becomes
// the configuration's error unless an earlier option failed.
func (c *Config) SetCount(n int, invalid error) {
	if n < 0 {
		if c.err == nil {
			c.err = invalid
		}
		return
	}
	c.count, c.hasCount = n, true
}

// CheckCount returns nil when no count is expected or n is the count
// expected, and otherwise an error made by errorf, the calling package's
// constructor, that says whether the input ends early or has more.
func (c Config) CheckCount(n int, errorf func(format string, args ...any) error) error {
	if !c.hasCount || n == c.count {
		return nil
	}
	if n < c.count {
		return errorf("%d tensors, %d expected (WithExpectedCount): the input ends early", n, c.count)
	}
	return errorf("%d tensors, %d expected (WithExpectedCount): the input has more", n, c.count)
}
