package errs_test

import (
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/internal/errs"
)

// The error types of two packages, "lower" and "upper", as each package
// declares its own.
type (
	base     = errs.Base
	lowerErr struct{ base }
	upperErr struct{ base }
)

var errSentinel = errors.New("upper: sentinel")

func lowerf(format string, args ...any) error {
	return &lowerErr{errs.Make("lower", format, args...)}
}

func upperf(format string, args ...any) error {
	return &upperErr{errs.Make("upper", format, args...)}
}

// baseCase is an error of the fake packages and what it must satisfy.
type baseCase struct {
	name    string
	err     error
	msg     string
	is      []error // errors.Is holds
	isNot   []error // errors.Is does not hold
	asLower bool
}

// baseCases returns the table of TestBase; lower is an error of the
// package "lower" that others wrap.
func baseCases(lower error) []baseCase {
	return []baseCase{
		{
			name:  "plain",
			err:   upperf("%d rows", 3),
			msg:   "upper: 3 rows",
			is:    []error{arrow.ErrInvalid},
			isNot: []error{arrow.ErrNotImplemented, errs.ErrOption, io.EOF},
		},
		{
			name: "io cause",
			err:  upperf("reading row %d: %w", 2, io.ErrUnexpectedEOF),
			msg:  "upper: reading row 2: unexpected EOF",
			is:   []error{arrow.ErrInvalid, io.ErrUnexpectedEOF},
		},
		{
			name:    "cause of another package",
			err:     upperf("column %q: %w", "x", lower),
			msg:     `upper: column "x": lower: shape [3 -1] is bad`,
			is:      []error{arrow.ErrInvalid, lower},
			asLower: true,
		},
		{
			name:    "same package loses its prefix",
			err:     upperf("column %q: %w", "x", upperf("row %d: %w", 4, lower)),
			msg:     `upper: column "x": row 4: lower: shape [3 -1] is bad`,
			is:      []error{arrow.ErrInvalid},
			asLower: true,
		},
		{
			name: "same package wrapped by fmt in between",
			err:  upperf("writing: %w", fmt.Errorf("arrow/ipc: %w", upperf("bad"))),
			msg:  "upper: writing: arrow/ipc: bad",
			is:   []error{arrow.ErrInvalid},
		},
		{
			name: "same package as the whole message",
			err:  upperf("%w", upperf("bad")),
			msg:  "upper: bad",
			is:   []error{arrow.ErrInvalid},
		},
		{
			name:    "two causes",
			err:     upperf("%w and %w", io.EOF, lower),
			msg:     "upper: EOF and lower: shape [3 -1] is bad",
			is:      []error{arrow.ErrInvalid, io.EOF},
			asLower: true,
		},
		{
			name:  "kind",
			err:   &upperErr{errs.Kind(errSentinel, "upper", "tensor %d is null", 1)},
			msg:   "upper: tensor 1 is null",
			is:    []error{arrow.ErrInvalid, errSentinel},
			isNot: []error{errs.ErrNullTensor},
		},
		{
			name: "unsupported",
			err:  &upperErr{errs.Unsupported("upper", "element type %s", "utf8")},
			msg:  "upper: element type utf8",
			is:   []error{arrow.ErrInvalid, arrow.ErrNotImplemented},
		},
		{
			name: "option nil",
			err:  &upperErr{errs.Option("upper", "WithAllocator", nil, "want an allocator")},
			msg:  "upper: WithAllocator(nil): want an allocator",
			is:   []error{arrow.ErrInvalid, errs.ErrOption},
		},
		{
			name: "option string",
			err:  &upperErr{errs.Option("upper", "WithFormat", "xyz", "unknown format")},
			msg:  `upper: WithFormat("xyz"): unknown format`,
			is:   []error{arrow.ErrInvalid, errs.ErrOption},
		},
		{
			name: "option number",
			err:  &upperErr{errs.Option("upper", "WithWorkers", -2, "want at least 1")},
			msg:  "upper: WithWorkers(-2): want at least 1",
			is:   []error{arrow.ErrInvalid, errs.ErrOption},
		},
		{
			name:    "panic with an error",
			err:     &upperErr{errs.Panic("upper", "reading", lower)},
			msg:     "upper: reading: malformed input: lower: shape [3 -1] is bad",
			is:      []error{arrow.ErrInvalid, lower},
			asLower: true,
		},
		{
			name:  "panic with a string",
			err:   &upperErr{errs.Panic("upper", "reading", "index out of range")},
			msg:   "upper: reading: malformed input: index out of range",
			is:    []error{arrow.ErrInvalid},
			isNot: []error{lower},
		},
	}
}

func TestBase(t *testing.T) {
	lower := lowerf("shape %v is bad", []int{3, -1})
	tests := baseCases(lower)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.msg, tt.err.Error()); diff != "" {
				t.Errorf("message (-want +got):\n%s", diff)
			}
			for _, target := range tt.is {
				if !errors.Is(tt.err, target) {
					t.Errorf("errors.Is(err, %v) = false, want true", target)
				}
			}
			for _, target := range tt.isNot {
				if errors.Is(tt.err, target) {
					t.Errorf("errors.Is(err, %v) = true, want false", target)
				}
			}
			var ue *upperErr
			if !errors.As(tt.err, &ue) {
				t.Errorf("errors.As(err, *upperErr) = false, want true")
			}
			var le *lowerErr
			if got := errors.As(tt.err, &le); got != tt.asLower {
				t.Errorf("errors.As(err, *lowerErr) = %v, want %v", got, tt.asLower)
			}
		})
	}
}

func TestUnprefixed(t *testing.T) {
	lower := lowerf("bad")
	err := &upperErr{errs.Unprefixed("row %d: %w and %w", 4, io.EOF, lower)}
	if diff := cmp.Diff("row 4: EOF and lower: bad", err.Error()); diff != "" {
		t.Errorf("message (-want +got):\n%s", diff)
	}
	for _, target := range []error{arrow.ErrInvalid, io.EOF, lower} {
		if !errors.Is(err, target) {
			t.Errorf("errors.Is(err, %v) = false, want true", target)
		}
	}
}
