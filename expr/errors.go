package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// Error is the error type of this package. It matches arrow.ErrInvalid
// under errors.Is. Errors from the text form carry the input and the byte
// offset of the problem; errors of expression arguments carry NumPy's
// wording where NumPy has one (`index 2 is out of bounds for axis 0 with
// size 2`).
type Error struct {
	// Text is the expression text being parsed, "" for an error of a
	// constructor's arguments.
	Text string
	// Pos is the byte offset in Text where the problem was found, -1 when
	// there is no text.
	Pos int
	// Msg says what is wrong.
	Msg string
}

func (e *Error) Error() string {
	if e.Pos < 0 {
		return "expr: " + e.Msg
	}
	text := e.Text
	if len(text) > 80 {
		text = text[:77] + "..."
	}
	return fmt.Sprintf("expr: %s at offset %d of %q", e.Msg, e.Pos, text)
}

// Unwrap returns arrow.ErrInvalid.
func (e *Error) Unwrap() error { return arrow.ErrInvalid }

// errorf returns an *Error without position.
func errorf(format string, args ...any) *Error {
	return &Error{Pos: -1, Msg: fmt.Sprintf(format, args...)}
}
