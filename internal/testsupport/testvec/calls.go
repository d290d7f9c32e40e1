package testvec

import "io"

// Releasing returns err, the error of a constructor, after releasing r
// when err is nil: a test that calls a constructor for its error alone
// returns Releasing(NewX(...)).
func Releasing[R interface{ Release() }](r R, err error) error {
	if err == nil {
		r.Release()
	}
	return err
}

// Closing returns err, the error of a constructor, or when it is nil the
// error of closing c: a test that calls a constructor for its error alone
// returns Closing(NewX(...)).
func Closing[C io.Closer](c C, err error) error {
	if err != nil {
		return err
	}
	return c.Close()
}
