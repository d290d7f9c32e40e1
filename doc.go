// Package fstensor holds what the packages of the module share and what
// their callers branch on: the error sentinels ([ErrNullTensor],
// [ErrOption]) and the names of the compression codecs ([Compression]).
// It imports no public package of the module, so that every package can
// use it.
//
// # Overview
//
// The tensors, their types and their conversions live in the packages
// below this one: metadata and stride (the model), fixedshape and
// varshape (the Arrow extension types), expr (expressions), arrowconv
// and parquetconv (Arrow and Parquet), tensorio (files), codec/...
// (foreign formats), search and flightserve.
//
// # Errors
//
// Every error of outside data, of a bad argument or of a bad option
// wraps arrow.ErrInvalid, and its text starts with the name of the
// package that found the problem. Callers branch with errors.Is on:
//
//   - arrow.ErrInvalid: any such error;
//   - arrow.ErrNotImplemented: well-formed input or a request that a
//     package does not support (an element type a format lacks, a
//     layout arrow-go cannot represent);
//   - [ErrNullTensor]: a null tensor given to a writer of a format
//     without nulls;
//   - [ErrOption]: an option value that is invalid whatever the data (a
//     nil allocator, a negative size, zero workers, an unknown name),
//     reported by the constructor or function that takes the options.
//
// Each package also has an exported Error type (for errors.As); it
// carries the message and the causes.
//
// # Options
//
// Every package takes its options as functions (tensorio.WithAllocator,
// npy.WithFillNulls, ...), passed to the constructor or function they
// configure; a server's flightserve.Config is the one struct. A nil
// option is ignored. An invalid value (a nil allocator,
// TLS configuration or token, a negative or zero size or count where one
// is needed, an unknown codec or version) is never clamped or ignored:
// the constructor or function that takes it fails before doing anything,
// with the package's Error wrapping [ErrOption] and arrow.ErrInvalid,
// whose message names the option and the value
// (`tensorio: WithWorkers(0): want 1 or more`).
package fstensor
