// Package numeric holds the inner loops that compute on elements:
// element-wise float32 operations, reductions, and the dot products and
// distances of similarity search, on contiguous runs. It knows nothing
// about tensors, Arrow or expressions; moving elements without computing
// on them is internal/layout's job.
//
// # Overview
//
// Element-wise: ApplyF32 and ApplyScalarF32 run one float32 operation
// over a run in place, BinaryF32 and BinaryScalarF32 the same into a
// separate destination (BinaryStreamF32 and BinaryScalarStreamF32 with
// non-temporal stores), DivScalarF32 divides by a value through its
// float64 reciprocal with the bits of division (DivScalarStreamPrefetchF32
// also prefetching the next data, a line per line stored, and dividing
// with AVX-512's VDIVPS where the CPU has it), ChainF32 and ChainU8F32
// run several in one pass,
// U8ToF32 converts bytes, DivToF32 narrows a float64 quotient, ExpF32
// computes e^x in float64 (a polynomial, four lanes a register), StreamF32
// writes a result past the caches, Prefetch asks for a block read soon,
// Compare compares two runs into bytes of 1 and 0 (AVX2 for float32 and
// bytes), Select picks elements of one run or another by such a mask
// (AVX2 for elements of every size), BinaryInt adds, subtracts,
// multiplies, bounds and masks integers (AVX2 up to 32 bits), UnaryF32 takes float32 square
// roots, absolute values, negations, squares, floors, ceilings and
// roundings half to even with the bits of Go's computations through
// float64 (Unary the same for float64 too, in Go loops).
//
// Reductions, accumulated in float64 (package expr's sum, mean and
// friends): SumF32 and SumF64 add a run pairwise over blocks summed by
// independent accumulators (the error grows with the logarithm of the
// length, as NumPy's pairwise sum's does, with float64 precision for
// float32 input); SumSqF32 does the same for squares. RowsF32 runs
// SumF32 or SumSqF32 over many equal rows in one
// kernel call, each row with the bits of the one-row function.
// AccF32, AccRowsF32 and AccU8 add runs into accumulators; SumU8 and
// SumU8Periodic add bytes exactly (SumU8Periodic into a few channels,
// x[j] into acc[j%p]). MinF32 ... MaxF64 return the extreme of a run, NaN
// when the run holds a NaN.
//
// Similarity, accumulated in the element type (package search and
// expr's dot, cosine, l2 and sqeuclidean, which share these kernels and so
// their bits): Dot, SquaredL2, DotNorm, DotNorms, Norm and Cosine keep,
// for float32, 32 partial sums in four registers (two in DotRows and
// SquaredL2Rows's AVX-512 kernels), so a result carries the rounding of a
// sum of len/32 products per lane and a pairwise sum of the lanes: an
// error bound of about (len/32 + 5) * eps32 * sum |a_i b_i|.
// float64 vectors use Go loops with four partial sums. DotRows and
// SquaredL2Rows score many rows against one vector in one kernel call,
// each row with the bits of Dot or SquaredL2, prefetching 2 KiB ahead (8
// KiB with AVX-512) so that a scan keeps its loads in flight across the
// 4 KiB pages the hardware prefetcher stops at. Their kernels, AVX2 and
// AVX-512 alike, also load one element 16 KiB ahead of each row unless
// an earlier row loaded from the same 2 KiB (twice a page for short
// rows), MaxF32 and MinF32's kernels one element of each page 16 KiB
// ahead of their reads, and so do the float32 sums' (SumF32, SumSqF32,
// SumSqDevF32, RowsF32 and AccRowsF32), SumF64's leaves, AccF32's,
// AccU8's and the byte sums' (SumU8, SumU8Periodic), never past the last
// element of the data they were given (a pairwise sum's leaves load ahead
// into the leaves after them): on Go's heap (4 KiB pages) that readies
// the pages' translations before the reads reach them, which the
// prefetches do not.
// (Many queries at once are a matrix product: internal/linalg's.)
//
// On amd64 the AVX2 kernels of the _amd64.s files (FMA too for the
// products, squares and every similarity kernel) handle the whole blocks
// of 8, 16 or 32 elements when layout.HasAVX2 and layout.HasFMA, the one
// CPU-feature check of both kernel layers, allow them; Go loops handle
// the rest. Where the CPU also has AVX-512F, ExpF32, DotRows,
// SquaredL2Rows, MaxF32 and MinF32 run AVX-512 kernels that do the AVX2
// kernels' operations on the same lanes, with the same bits. The purego build tag, or another
// architecture, uses the Go loops throughout.
//
// # Memory
//
// Nothing allocates. Slices are read, never retained; out slices are
// written.
//
// # Errors
//
// The functions have no errors: an empty run gives 0 for a sum and
// ±Inf for a minimum or maximum. Lengths are the caller's to check: the
// functions panic, as slice indexing does, when an argument is shorter
// than stated.
package numeric
