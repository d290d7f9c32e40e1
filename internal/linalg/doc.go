// Package linalg holds the matrix-multiplication kernel behind x @ W:
// dense, row-major float32 and float64 matrices multiplied on one
// thread. It knows nothing about tensors, Arrow or expressions; callers
// split rows across workers.
//
// # Overview
//
// MatMulF32 and MatMulF64 set c (m x n) to a (m x k) @ b (k x n).
//
// # Layout
//
// Every matrix is a dense row-major slice: element (i, j) of an r x s
// matrix is at index i*s + j, with no padding between rows.
//
// # Rounding
//
// Each element of c is the fused multiply-add chain
// c[i][j] = fma(a[i][k-1], b[k-1][j], ... fma(a[i][0], b[0][j], 0)), with k
// ascending, accumulated in the element type: float32 products are summed
// in float32, so a result differs from a float64 reference by about
// k * eps32 * sum_p |a[i][p] b[p][j]|. NaN and Inf propagate as in that
// chain.
//
// # Memory
//
// The functions read a and b and write c; they retain nothing. c must not
// overlap a or b.
//
// # Errors
//
// There are none: sizes are the caller's, and a size of 0 is valid (k = 0
// sets c to zeros). The functions panic, as slice indexing does, when a
// slice is shorter than its sizes require or a size is negative.
package linalg
