// Package ufunc holds the inner loops of package expr's computing
// operations on contiguous runs of elements: sums accumulated in float64
// with pairwise summation, and minimums and maximums that propagate NaN
// as NumPy's do. It knows nothing about tensors, Arrow or expressions.
//
// # Overview
//
// SumF32 and SumF64 add a run in float64, pairwise over blocks summed
// by independent accumulators (the error grows with the logarithm of the
// length, as NumPy's pairwise sum's does, with float64 precision for
// float32 input); DotF32 and SumSqF32 do the same for products and
// squares. RowsF32 runs one of those three over many equal rows in one
// kernel call, each row with the bits of the one-row function.
// SumU8Periodic adds bytes into a few channels (x[j] into acc[j%p]),
// exactly. MinF32 ... MaxF64 return the extreme of a run, NaN when the
// run holds a NaN. ApplyF32 and ApplyScalarF32 run one float32 operation
// over a run in place, U8ToF32 converts bytes, StreamF32 writes a result
// past the caches.
//
// On amd64 the AVX2 kernels of the _amd64.s files (FMA too for DotF32
// and SumSqF32) handle the whole blocks
// of 8, 16 or 32 elements when the CPU and the operating system support
// them (golang.org/x/sys/cpu), and Go loops the rest; the purego build
// tag, or another architecture, uses the Go loops throughout, as
// internal/layout does.
//
// # Errors
//
// The functions have no errors: an empty run gives 0 for a sum and
// ±Inf for a minimum or maximum.
package ufunc
