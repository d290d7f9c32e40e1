package fstensor

import "github.com/fstensor/fstensor/internal/errs"

var (
	// ErrNullTensor reports a null tensor given to a writer of a format
	// that has no nulls (.npy, .npz, TensorProto, ZIO, Decthings, DLPack)
	// when no way of filling it was asked for. The errors of it also wrap
	// arrow.ErrInvalid.
	ErrNullTensor = errs.ErrNullTensor

	// ErrOption reports an invalid option value: a nil allocator, a
	// negative or zero size or count where one is needed, an unknown
	// name. The constructor or function that takes the options returns
	// it before doing anything; the message names the option and the
	// value. The errors of it also wrap arrow.ErrInvalid.
	ErrOption = errs.ErrOption
)

type base = errs.Base

// Error is the error type of this package, returned by
// [ParseCompression]. It matches arrow.ErrInvalid and its sentinel under
// errors.Is; its message starts with "fstensor: ".
type Error struct{ base }
