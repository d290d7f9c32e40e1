package format

import "github.com/fstensor/fstensor/internal/errs"

type base = errs.Base

// Error is an error of the format's decoding: it wraps arrow.ErrInvalid
// and its causes, if any. Its text names no package: package parquetconv
// wraps it in its own error, which does.
type Error struct{ base }

// errorf formats an error; a %w argument becomes a cause.
func errorf(format string, args ...any) error {
	return &Error{errs.Unprefixed(format, args...)}
}
