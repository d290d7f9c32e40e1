// Package errs is the body of the error type of every package of the
// module: one message that starts with the package name, arrow.ErrInvalid
// and the causes under errors.Is and errors.As, and the sentinels callers
// branch on.
//
// A package declares
//
//	type base = errs.Base
//
//	// Error is the error type of this package. ...
//	type Error struct{ base }
//
//	func errorf(format string, args ...any) error {
//		return &Error{errs.Make("pkg", format, args...)}
//	}
//
// so that its exported Error type, which callers find with errors.As,
// has the methods of Base without exporting it.
package errs

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

var (
	// ErrNullTensor reports a null tensor given to a writer of a format
	// without nulls; fstensor.ErrNullTensor is this value.
	ErrNullTensor = errors.New("null tensor")
	// ErrOption reports an invalid option value; fstensor.ErrOption is
	// this value.
	ErrOption = errors.New("invalid option")
)

// Base is an error whose message starts with a package name. It matches
// arrow.ErrInvalid under errors.Is, the sentinels it was made with and
// the errors its message wraps with %w. Its zero value is not useful:
// make one with [Make] or the other constructors.
type Base struct {
	msg    string
	kinds  []error // sentinels matched but not printed
	causes []error // errors wrapped with %w, printed in msg
}

// Error returns the message.
func (e *Base) Error() string { return e.msg }

// Unwrap returns arrow.ErrInvalid, the sentinels and the causes.
func (e *Base) Unwrap() []error {
	out := make([]error, 0, 1+len(e.kinds)+len(e.causes))
	out = append(out, arrow.ErrInvalid)
	out = append(out, e.kinds...)
	return append(out, e.causes...)
}

// Make formats the message pkg + ": " + fmt.Sprintf(format, args...); a
// %w argument becomes a cause. A cause of the same package, also when
// another error wraps it in turn, loses its own "pkg: " prefix, so that
// the package name appears once.
func Make(pkg, format string, args ...any) Base {
	b := Unprefixed(format, args...)
	prefix := pkg + ": "
	msg := strings.ReplaceAll(b.msg, ": "+prefix, ": ")
	b.msg = prefix + strings.TrimPrefix(msg, prefix)
	return b
}

// Unprefixed is [Make] without the package name: the message is
// fmt.Sprintf(format, args...). It is for an internal package whose
// errors its parent package wraps in its own, which names the package.
func Unprefixed(format string, args ...any) Base {
	err := fmt.Errorf(format, args...)
	var causes []error
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		causes = []error{u.Unwrap()}
	case interface{ Unwrap() []error }:
		causes = u.Unwrap()
	}
	return Base{msg: err.Error(), causes: causes}
}

// Kind is [Make] with a sentinel the error matches without printing it:
// an error of a package's own sentinel, [ErrNullTensor] or [ErrOption].
func Kind(kind error, pkg, format string, args ...any) Base {
	b := Make(pkg, format, args...)
	b.kinds = []error{kind}
	return b
}

// Unsupported is [Make] for well-formed input or a request the package
// does not support: the error also matches arrow.ErrNotImplemented.
func Unsupported(pkg, format string, args ...any) Base {
	return Kind(arrow.ErrNotImplemented, pkg, format, args...)
}

// Option is the error of an invalid option value: the message
// `pkg: name(value): why`, with name the function the caller called
// ("WithWorkers") and value printed with %v, a string quoted, a nil as
// "nil"; it matches [ErrOption].
func Option(pkg, name string, value any, why string) Base {
	var v string
	switch x := value.(type) {
	case nil:
		v = "nil"
	case string:
		v = strconv.Quote(x)
	default:
		v = fmt.Sprint(x)
	}
	return Kind(ErrOption, pkg, "%s(%s): %s", name, v, why)
}

// Panic is the error of a panic raised while decoding outside data or
// writing, with r the value recover returned: the message
// `pkg: what: malformed input: r`; an error r is also a cause. recover
// works only when a deferred function calls it itself, so a package
// defers a function of its own that calls recover and then Panic.
func Panic(pkg, what string, r any) Base {
	if err, ok := r.(error); ok {
		return Make(pkg, "%s: malformed input: %w", what, err)
	}
	return Make(pkg, "%s: malformed input: %v", what, r)
}
