package engine

import "github.com/fstensor/fstensor/internal/errs"

// Error is the error type of this package: a malformed graph at Compile,
// a runtime error of Run (an integer raised to a negative power, naming
// the row) or buffers of the wrong size. It matches arrow.ErrInvalid
// under errors.Is; its message starts with "engine: ".
type Error struct{ base }

type base = errs.Base

func errorf(format string, args ...any) error {
	return &Error{errs.Make("engine", format, args...)}
}
