// Package vecmath holds the similarity kernels of package search: dot
// products, squared Euclidean distances and norms of float32 and float64
// vectors, and a blocked kernel scoring many rows against many queries at
// once.
//
// # Overview
//
// Each function has a pure-Go loop and, on amd64 with AVX2 and FMA (and
// without the purego build tag), an assembly kernel for float32 that keeps
// 32 partial sums in four registers, so a float32 result carries the
// rounding of a sum of len/32 products per lane and a pairwise sum of the
// lanes: an error bound of about (len/32 + 5) * eps32 * sum |a_i b_i|.
// float64 vectors use the Go loops with four partial sums.
//
// [Packed.Scores] computes the dot products of a block of rows with every
// packed query: with the assembly kernel, blocks of 6 rows by 16 queries
// accumulate in 12 registers, each row element is loaded once per 16
// queries, and each query element once per 6 rows.
//
// # Memory
//
// Nothing allocates except [Pack], which copies the queries into a new
// slice. Slices are read, never retained; out slices are written.
//
// # Errors
//
// The functions have no errors. Lengths are the caller's to check: they
// panic, as slice indexing does, when an argument is shorter than stated.
package vecmath
