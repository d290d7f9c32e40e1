package decthings

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// Error is the error type of this package. It matches arrow.ErrInvalid under
// errors.Is, and its cause, if any, too.
type Error struct {
	msg   string
	cause error
}

// Error returns the message, which starts with the package name.
func (e *Error) Error() string { return e.msg }

// Unwrap returns arrow.ErrInvalid and the cause, if any.
func (e *Error) Unwrap() []error {
	if e.cause != nil {
		return []error{arrow.ErrInvalid, e.cause}
	}
	return []error{arrow.ErrInvalid}
}

func errorf(format string, args ...any) error {
	return &Error{msg: "decthings: " + fmt.Sprintf(format, args...)}
}

// wrap prefixes cause's text with the formatted context; a cause from this
// package loses its own "decthings: " prefix so that it appears once.
func wrap(cause error, format string, args ...any) error {
	msg := cause.Error()
	if _, ok := cause.(*Error); ok {
		msg = strings.TrimPrefix(msg, "decthings: ")
	}
	return &Error{msg: "decthings: " + fmt.Sprintf(format, args...) + ": " + msg, cause: cause}
}

// unsupported is the error for well-formed input this package will not
// convert: it wraps arrow.ErrInvalid and arrow.ErrNotImplemented.
func unsupported(format string, args ...any) error {
	return &Error{msg: "decthings: " + fmt.Sprintf(format, args...), cause: arrow.ErrNotImplemented}
}
