package format

import (
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// Error is an error of the format's decoding: it wraps arrow.ErrInvalid
// and its cause, if any. Its text names no package: package parquetconv
// wraps it in its own error, which does.
type Error struct {
	msg   string
	cause error
}

// Error returns the message.
func (e *Error) Error() string { return e.msg }

// Unwrap returns arrow.ErrInvalid and the cause, if any.
func (e *Error) Unwrap() []error {
	if e.cause == nil {
		return []error{arrow.ErrInvalid}
	}
	return []error{arrow.ErrInvalid, e.cause}
}

// errorf formats an error; a %w argument becomes the cause.
func errorf(format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	return &Error{msg: err.Error(), cause: errors.Unwrap(err)}
}
