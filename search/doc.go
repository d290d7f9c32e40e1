// Package search computes similarities and distances between tensors of a
// fixed-shape tensor column, row by row ([Rowwise], [Dot], [Cosine],
// [L2], [SquaredL2]), and finds the rows nearest to a batch of queries
// ([Search], [TopK]) over a column read batch by batch, so that a column
// larger than memory can be searched from an IPC or Parquet file
// (tensorio.Open).
//
// # Overview
//
// A metric ([Metric]) compares two tensors of one logical shape element
// by element, pairing elements of equal logical index: the dot product,
// the cosine similarity (NaN when a norm is 0, as NumPy's
// dot/(norm*norm)), the Euclidean distance and its square. The tensors
// may have different element types and permutations: a query is
// rearranged once into the column's physical order, and a second column
// of another permutation is rearranged row by row into a scratch tensor,
// so the searched column is read in place, never materialized.
//
// # Accuracy and result types
//
// Scores are computed in float32 when both sides hold float16 or float32
// elements, and in float64 otherwise (every integer type included: the
// integers are converted exactly up to 2^53, so sums of products of
// integers are exact while they stay below 2^53). The row-wise functions
// return an arrow float32 array in the first case and float64 in the
// second; NumPy gives float32 for float32 and float64 for cosine and
// distances of integers, but an integer dot product for integers and
// float16 for float16, which this package does not reproduce.
//
// float32 sums use fused multiply-adds into 32 partial sums (four AVX2
// registers of 8 lanes on amd64, or the same lanes in two AVX-512
// registers where a one-query scan runs on them, with the same bits; four
// partial sums in pure Go), so their error is about (n/32 + 5) * 2^-24 *
// sum |a_i b_i| for n elements, the order of NumPy's pairwise summation.
// float64 sums use four partial sums.
// Package expr's similarities (`dot(x, c)`, expr.Similarity) use the same
// kernels and formulas, so a float32 row scores the same bits through
// eval and through [Rowwise] or a one-query [Search]; for float64
// accumulation of float32 data, use a float64 query or convert the column.
//
// [Search] and [TopK] with two or more queries score blocks of 256 rows
// against every query with one matrix product (internal/linalg's kernel,
// AVX-512 where the CPU has it; each element of the column is read once
// for all queries, and each score is one chain of fused multiply-adds
// over the elements in order, so its error bound is about n * 2^-24 *
// sum |a_i b_i|), and compute Euclidean distances as |x|^2 - 2 x.q +
// |q|^2, as FAISS does: that form loses digits to cancellation when a
// row is much nearer to the query than to the origin, so near-equal
// distances can swap; with one query the distance is summed from the
// differences. Scores are reported as float64 ([Hit]); those computed
// in float32 convert exactly.
//
// # Ranking
//
// Dot and cosine rank larger scores first, L2 and squared L2 smaller
// ones. Equal scores rank by lower row index, and NaN scores after every
// number, which is NumPy's np.argsort(kind="stable") of the negated
// similarities or of the distances. Null tensors are skipped (their rows
// are still counted), a null query finds nothing, and k larger than the
// number of rows returns every non-null row.
//
// # Memory
//
// [Rowwise] and its shorthands return a new arrow array allocated from
// [WithAllocator]; the caller releases it. Their inputs are read during
// the call only and not retained. [Search] reads each record batch of
// its reader once and keeps nothing of it; a [TopK] holds k hits per
// query and scratch space for 256 rows, whatever the number of rows
// searched. Nothing is shared between calls; a TopK is not safe for
// concurrent use.
//
// # Errors
//
// Errors of the arguments (an unknown metric, shapes that differ,
// non-numeric or bool elements, row counts that do not match, a missing
// column, a negative k) wrap arrow.ErrInvalid and start with "search:".
// An invalid option value (WithAllocator(nil), a negative
// WithColumnIndex) fails the call before it reads anything with an
// *Error wrapping fstensor.ErrOption too.
// Errors of a record reader are returned as they are.
package search
