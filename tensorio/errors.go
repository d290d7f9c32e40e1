package tensorio

import (
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
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

// mismatch returns an error wrapping ErrMismatch with the message of
// format and args.
func mismatch(format string, args ...any) error {
	return &wrapped{msg: "tensorio: " + fmt.Sprintf(format, args...), err: ErrMismatch}
}

// wrapped is an error with a message of its own that wraps a sentinel.
type wrapped struct {
	msg string
	err error
}

func (e *wrapped) Error() string { return e.msg }
func (e *wrapped) Unwrap() error { return e.err }
