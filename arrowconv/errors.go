package arrowconv

import (
	"errors"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// Error is the error type of this package. It matches arrow.ErrInvalid
// under errors.Is, and its cause too (arrow.ErrNotImplemented for layouts
// arrow-go cannot represent, a metadata, stride or fixedshape error, an
// I/O error).
type Error struct {
	msg   string
	cause error
}

func (e *Error) Error() string { return e.msg }

// Unwrap returns arrow.ErrInvalid and the cause, if any.
func (e *Error) Unwrap() []error {
	if e.cause == nil {
		return []error{arrow.ErrInvalid}
	}
	return []error{arrow.ErrInvalid, e.cause}
}

// errorf formats an error whose text starts with "arrowconv: "; a %w
// argument becomes the cause. The prefix of a wrapped error of this
// package, also when arrow-go wrapped it in turn, is dropped.
func errorf(format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	msg := strings.ReplaceAll(err.Error(), ": arrowconv: ", ": ")
	return &Error{msg: "arrowconv: " + msg, cause: errors.Unwrap(err)}
}
