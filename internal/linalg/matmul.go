package linalg

import "math"

// MatMulF32 sets c (m x n) to a (m x k) @ b (k x n), all row-major and
// dense. Each element is a chain of float32 fused multiply-adds over k in
// ascending order (see the package doc). c must not overlap a or b. It
// panics if a size is negative or a slice is shorter than its sizes
// (m*k, k*n, m*n elements); longer slices are fine and their tails are
// neither read nor written.
func MatMulF32(c, a, b []float32, m, k, n int) {
	checkSizes(len(c), len(a), len(b), m, k, n)
	matmul(c, a, b, m, k, n)
}

// MatMulF64 sets c (m x n) to a (m x k) @ b (k x n), all row-major and
// dense. Each element is a chain of fused multiply-adds over k in
// ascending order (see the package doc). c must not overlap a or b. It
// panics if a size is negative or a slice is shorter than its sizes
// (m*k, k*n, m*n elements); longer slices are fine and their tails are
// neither read nor written.
func MatMulF64(c, a, b []float64, m, k, n int) {
	checkSizes(len(c), len(a), len(b), m, k, n)
	matmul(c, a, b, m, k, n)
}

// checkSizes panics when a size is negative or a slice of lc, la, lb
// elements is shorter than c (m x n), a (m x k) or b (k x n) needs.
func checkSizes(lc, la, lb, m, k, n int) {
	if m < 0 || k < 0 || n < 0 {
		panic("linalg: negative matrix size")
	}
	if need(m, k) > la || need(k, n) > lb || need(m, n) > lc {
		panic("linalg: slice shorter than its matrix")
	}
}

// need returns r*s, or the largest int when the product overflows, so
// that no slice is long enough.
func need(r, s int) int {
	if r != 0 && s > math.MaxInt/r {
		return math.MaxInt
	}
	return r * s
}
