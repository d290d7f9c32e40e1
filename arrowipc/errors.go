package arrowipc

import (
	"github.com/fstensor/fstensor/internal/errs"
	"github.com/fstensor/fstensor/internal/mmap"
)

// ErrNoLease is wrapped by the error of [OpenMappedIPCFile] and
// [MapIPCFile] with [WithLeaseRequired] when the system grants no read
// lease on the file (not Linux, not the file's owner, a file system
// without leases, the file open for writing).
var ErrNoLease = mmap.ErrNoLease

type base = errs.Base

// Error is the error type of this package. It matches arrow.ErrInvalid
// under errors.Is, and its causes too: arrow.ErrNotImplemented for what
// arrow-go or the format cannot represent, fstensor.ErrOption for an
// invalid option, a metadata, stride or fixedshape error, an I/O error.
// Its message starts with "arrowipc: ".
type Error struct {
	base
	// Path is the file an error of OpenIPCFile, OpenMappedIPCFile or
	// MapIPCFile (its Name) names in its message ("open PATH: ..."); it
	// is empty in the other errors.
	Path string
}

// errorf formats an error whose text starts with "arrowipc: "; a %w
// argument becomes a cause. The prefix of a wrapped error of this
// package, also when arrow-go wrapped it in turn, is dropped.
func errorf(format string, args ...any) error {
	return &Error{base: errs.Make("arrowipc", format, args...)}
}

// openError is the error of opening the file at path: its message names
// path, and so does its Path.
func openError(path string, err error) error {
	return &Error{base: errs.Make("arrowipc", "open %s: %w", path, err), Path: path}
}

// unsupported is the error for well-formed input this package will not
// convert: it also wraps arrow.ErrNotImplemented.
func unsupported(format string, args ...any) error {
	return &Error{base: errs.Unsupported("arrowipc", format, args...)}
}

// recovered converts a panic raised by arrow-go while decoding outside
// data into an error; it is deferred by every reader entry point.
func recovered(errp *error, what string) {
	if r := recover(); r != nil {
		*errp = &Error{base: errs.Panic("arrowipc", what, r)}
	}
}

// recoveredWrite converts a panic raised by arrow-go's writers into an
// error naming the panic value, a last line of defence behind
// arrowconv.ValidateRecord; it is deferred by every writer entry point.
func recoveredWrite(errp *error, what string) {
	if r := recover(); r != nil {
		*errp = &Error{base: errs.Make("arrowipc", "%s: arrow-go panicked: %v", what, r)}
	}
}
