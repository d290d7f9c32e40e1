package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/internal/errs"
)

// Error is the error type of this package. It matches arrow.ErrInvalid
// under errors.Is, and also arrow.ErrNotImplemented for text or
// arguments it reads but does not support, fstensor.ErrOption for an
// invalid option.
// Errors from the text form carry the input and the byte offset of the
// problem; errors of expression arguments carry NumPy's wording where
// NumPy has one (`index 2 is out of bounds for axis 0 with size 2`). Its
// message starts with "expr: ".
type Error struct {
	// Text is the expression text being parsed, "" for an error of a
	// constructor's arguments.
	Text string
	// Pos is the byte offset in Text where the problem was found, -1 when
	// there is no text.
	Pos int
	// Msg says what is wrong.
	Msg string
	base
}

type base = errs.Base

// newError returns the *Error of msg at byte offset pos of text (pos < 0:
// no text).
func newError(text string, pos int, msg string) *Error {
	return newErrorOf(nil, text, pos, msg)
}

// newErrorOf is newError for an error that also matches kind, unprinted
// (nil for none): arrow.ErrNotImplemented, or the error of a constructor
// the parser places in its text.
func newErrorOf(kind error, text string, pos int, msg string) *Error {
	e := &Error{Text: text, Pos: pos, Msg: msg}
	format, args := "%s", []any{msg}
	if pos >= 0 {
		if len(text) > 80 {
			text = text[:77] + "..."
		}
		format, args = "%s at offset %d of %q", []any{msg, pos, text}
	}
	if kind == nil {
		e.base = errs.Make("expr", format, args...)
	} else {
		e.base = errs.Kind(kind, "expr", format, args...)
	}
	return e
}

// unsupportedf returns an *Error without position for well-formed input
// the package does not support: it also wraps arrow.ErrNotImplemented.
func unsupportedf(format string, args ...any) *Error {
	return newErrorOf(arrow.ErrNotImplemented, "", -1, fmt.Sprintf(format, args...))
}

// errorf returns an *Error without position.
func errorf(format string, args ...any) *Error {
	return newError("", -1, fmt.Sprintf(format, args...))
}
