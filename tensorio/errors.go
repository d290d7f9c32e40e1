package tensorio

import (
	"errors"
	"fmt"
	"runtime/debug"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/internal/errs"
)

var (
	// ErrFormat reports a format name or file extension of no supported
	// format. It wraps arrow.ErrInvalid.
	ErrFormat = fmt.Errorf("tensorio: unknown format: %w", arrow.ErrInvalid)
	// ErrMismatch reports options that do not fit the file or schema: a
	// column it lacks (WithColumns), a shape no column can take
	// (WithShape), WithSingleTensor for a format other than .npy, a schema
	// a tensors-only format cannot hold. It wraps arrow.ErrInvalid.
	ErrMismatch = fmt.Errorf("tensorio: options do not fit: %w", arrow.ErrInvalid)
	// ErrClosed reports a call on a reader or writer after Close or Abort.
	ErrClosed = errors.New("tensorio: closed")
)

type base = errs.Base

// Error is the error type of this package's own errors: options that do
// not fit (wrapping ErrMismatch), unknown formats (ErrFormat), invalid
// option values (fstensor.ErrOption), a writer that panicked. It matches
// arrow.ErrInvalid and its sentinel under errors.Is; its message starts
// with "tensorio: ". Errors of a file's contents are those of the codecs
// and converters, and *FormatError.
type Error struct{ base }

// mismatch returns an error wrapping ErrMismatch with the message of
// format and args.
func mismatch(format string, args ...any) error {
	return &Error{errs.Kind(ErrMismatch, "tensorio", format, args...)}
}

// formatError returns an error wrapping ErrFormat with the message of
// format and args.
func formatError(format string, args ...any) error {
	return &Error{errs.Kind(ErrFormat, "tensorio", format, args...)}
}

// guardFaults makes a fault reading memory in the calling goroutine
// panic instead of killing the process (debug.SetPanicOnFault) and
// returns the function to defer, with the error of the call, after the
// reads of a mapped file: it turns the panic of such a fault (the file
// was truncated under the mapping, so a page of it is gone) into an error
// naming path, and restores the goroutine's setting. Other panics go on.
func guardFaults(path string) func(errp *error) {
	old := debug.SetPanicOnFault(true)
	return func(errp *error) {
		debug.SetPanicOnFault(old)
		r := recover()
		if r == nil {
			return
		}
		if _, ok := r.(interface{ Addr() uintptr }); ok {
			*errp = &Error{errs.Make("tensorio", "%s: the file shrank while it was read: a page of its mapping is gone", path)}
			return
		}
		panic(r)
	}
}
