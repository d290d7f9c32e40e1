package arrowconv

import "github.com/fstensor/fstensor/internal/errs"

type base = errs.Base

// Error is the error type of this package. It matches arrow.ErrInvalid
// under errors.Is, and its causes too: arrow.ErrNotImplemented for what
// arrow-go or the format cannot represent, fstensor.ErrOption for an
// invalid option, a metadata, stride or fixedshape error, an I/O error.
// Its message starts with "arrowconv: ".
type Error struct{ base }

// errorf formats an error whose text starts with "arrowconv: "; a %w
// argument becomes a cause. The prefix of a wrapped error of this
// package, also when arrow-go wrapped it in turn, is dropped.
func errorf(format string, args ...any) error {
	return &Error{errs.Make("arrowconv", format, args...)}
}

// unsupported is the error for well-formed input this package will not
// convert: it also wraps arrow.ErrNotImplemented.
func unsupported(format string, args ...any) error {
	return &Error{errs.Unsupported("arrowconv", format, args...)}
}
