// Package ufunc holds the inner loops of package expr's computing
// operations on contiguous runs of elements: sums accumulated in float64
// with pairwise summation, and minimums and maximums that propagate NaN
// as NumPy's do. It knows nothing about tensors, Arrow or expressions.
//
// # Overview
//
// SumF32 and SumF64 add a run in float64, in blocks of 8 independent
// accumulators summed pairwise (the error grows with the logarithm of the
// length, as NumPy's pairwise sum's does, with float64 precision for
// float32 input). MinF32 ... MaxF64 return the extreme of a run, NaN when
// the run holds a NaN.
//
// The loops are plain Go the compiler vectorizes poorly; the functions
// are the place for assembly kernels selected by CPU features, with the
// purego build tag forcing the Go loops, as internal/kernel does.
//
// # Errors
//
// The functions have no errors: an empty run gives 0 for a sum and
// ±Inf for a minimum or maximum.
package ufunc
