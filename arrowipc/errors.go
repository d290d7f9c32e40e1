package arrowipc

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

// errorf formats an error whose text starts with "arrowipc: "; a %w
// argument becomes the cause. The prefix of a wrapped error of this
// package, also when arrow-go wrapped it in turn, is dropped.
func errorf(format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	msg := strings.ReplaceAll(err.Error(), ": arrowipc: ", ": ")
	return &Error{msg: "arrowipc: " + msg, cause: errors.Unwrap(err)}
}

// recovered converts a panic raised by arrow-go while decoding outside
// data into an error; it is deferred by every reader entry point.
func recovered(errp *error, what string) {
	if r := recover(); r != nil {
		if err, ok := r.(error); ok {
			*errp = errorf("%s: malformed input: %w", what, err)
			return
		}
		*errp = errorf("%s: malformed input: %v", what, r)
	}
}

// recoveredWrite converts a panic raised by arrow-go's writers into an
// error naming the panic value, a last line of defence behind
// arrowconv.ValidateRecord; it is deferred by every writer entry point.
func recoveredWrite(errp *error, what string) {
	if r := recover(); r != nil {
		*errp = errorf("%s: arrow-go panicked: %v", what, r)
	}
}
