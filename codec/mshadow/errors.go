package mshadow

import (
	"github.com/fstensor/fstensor/internal/errs"
)

type base = errs.Base

// Error is the error type of this package. It matches arrow.ErrInvalid
// under errors.Is, and its causes too: arrow.ErrNotImplemented for
// well-formed input the package will not convert, fstensor.ErrNullTensor
// for a null tensor, fstensor.ErrOption for an invalid option, the error
// of another package or an I/O error. Its message starts with "mshadow: ".
type Error struct{ base }

func errorf(format string, args ...any) error {
	return &Error{errs.Make("mshadow", format, args...)}
}

// wrap prefixes cause's text with the formatted context; a cause from this
// package loses its own "mshadow: " prefix so that it appears once.
func wrap(cause error, format string, args ...any) error {
	return &Error{errs.Make("mshadow", format+": %w", append(args, cause)...)}
}
