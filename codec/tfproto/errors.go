package tfproto

import (
	"github.com/fstensor/fstensor"
	"strconv"

	"github.com/fstensor/fstensor/internal/errs"
)

type base = errs.Base

// Error is the error type of this package. It matches arrow.ErrInvalid
// under errors.Is, and its causes too: arrow.ErrNotImplemented for
// well-formed input the package will not convert, fstensor.ErrNullTensor
// for a null tensor, fstensor.ErrOption for an invalid option, the error
// of another package or an I/O error. Its message starts with "tfproto: ".
type Error struct{ base }

func errorf(format string, args ...any) error {
	return &Error{errs.Make("tfproto", format, args...)}
}

// wrap prefixes cause's text with the formatted context; a cause from this
// package loses its own "tfproto: " prefix so that it appears once.
func wrap(cause error, format string, args ...any) error {
	return &Error{errs.Make("tfproto", format+": %w", append(args, cause)...)}
}

// unsupported is the error for well-formed input this package will not
// convert: it also wraps arrow.ErrNotImplemented.
func unsupported(format string, args ...any) error {
	return &Error{errs.Unsupported("tfproto", format, args...)}
}
func itoa(v int) string { return strconv.Itoa(v) }

// nullTensor is the error for a null tensor, which the format cannot
// hold: it also wraps fstensor.ErrNullTensor.
func nullTensor(format string, args ...any) error {
	return &Error{errs.Kind(fstensor.ErrNullTensor, "tfproto", format, args...)}
}
