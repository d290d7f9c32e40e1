package linalg

// PackedF32 is a float32 right operand b (k x n) copied once into the
// layout the kernel reads fastest, for multiplying many left operands by
// the same matrix (x @ W with a constant W). It is read-only after
// PackF32: one PackedF32 may serve any number of goroutines at once.
type PackedF32 struct{ p panels[float32] }

// PackF32 copies b (k x n, row-major and dense) into a new PackedF32 of
// k * ceil(n/16) * 16 elements; b is not retained. It panics if k or n is
// negative or b holds fewer than k*n elements.
func PackF32(b []float32, k, n int) *PackedF32 {
	return &PackedF32{pack(b, k, n)}
}

// K returns the number of rows of the packed matrix.
func (p *PackedF32) K() int { return p.p.k }

// N returns the number of columns of the packed matrix.
func (p *PackedF32) N() int { return p.p.n }

// MulF32 sets c (m x n) to a (m x k) @ p, with the bits MatMulF32 gives.
// c must not overlap a. It panics if m is negative or a or c is shorter
// than m*k or m*n elements.
func (p *PackedF32) MulF32(c, a []float32, m int) {
	checkSizes(len(c), len(a), p.p.k*p.p.n, m, p.p.k, p.p.n)
	gemm(c, a, m, p.p.k, p.p.n, &p.p, nil)
}

// PackedF64 is PackedF32 for float64: a right operand packed once for
// many products. It is read-only after PackF64.
type PackedF64 struct{ p panels[float64] }

// PackF64 copies b (k x n, row-major and dense) into a new PackedF64 of
// k * ceil(n/8) * 8 elements; b is not retained. It panics if k or n is
// negative or b holds fewer than k*n elements.
func PackF64(b []float64, k, n int) *PackedF64 {
	return &PackedF64{pack(b, k, n)}
}

// K returns the number of rows of the packed matrix.
func (p *PackedF64) K() int { return p.p.k }

// N returns the number of columns of the packed matrix.
func (p *PackedF64) N() int { return p.p.n }

// MulF64 sets c (m x n) to a (m x k) @ p, with the bits MatMulF64 gives.
// c must not overlap a. It panics if m is negative or a or c is shorter
// than m*k or m*n elements.
func (p *PackedF64) MulF64(c, a []float64, m int) {
	checkSizes(len(c), len(a), p.p.k*p.p.n, m, p.p.k, p.p.n)
	gemm(c, a, m, p.p.k, p.p.n, &p.p, nil)
}

// pack returns b (k x n) packed for the kernel.
func pack[T float](b []T, k, n int) panels[T] {
	checkSizes(0, 0, len(b), 0, k, n)
	nr := tileWidth[T]()
	packed := make([]T, packedLen(k, n, nr))
	packB(packed, b, k, n, nr)
	return panels[T]{packed: packed, k: k, n: n, nr: nr}
}
