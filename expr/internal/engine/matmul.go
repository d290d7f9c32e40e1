package engine

import "github.com/fstensor/fstensor/internal/linalg"

// matmulRows evaluates a MatMul node over rows rows: a (..., m, k) and b
// (..., k, n) of type T with rs elements a row (0 for a constant) into d
// (..., m, n). float32 and float64 products run linalg's kernels (a
// constant b packed once at Compile, the block one (rows*m, k) x (k, n)
// product); integers sum each product in k order, wrapping around.
func matmulRows[T number](c *cnode, d, a, b []T, ars, brs, rows int) {
	as, bs := c.Args[0].Shape, c.Args[1].Shape
	r := len(as)
	m, k, n := as[r-2], as[r-1], bs[r-1]
	batch, _ := sizeOf(as[:r-2])
	if brs == 0 && batch == 1 && ars == m*k {
		// b is one constant matrix: the block is one product.
		switch pk := c.packed.(type) {
		case *linalg.PackedF32:
			pk.MulF32(any(d[:rows*m*n]).([]float32), any(a[:rows*m*k]).([]float32), rows*m)
			return
		case *linalg.PackedF64:
			pk.MulF64(any(d[:rows*m*n]).([]float64), any(a[:rows*m*k]).([]float64), rows*m)
			return
		}
		matmul(d[:rows*m*n], a[:rows*m*k], b[:k*n], rows*m, k, n)
		return
	}
	for row := range rows {
		for t := range batch {
			ao, bo, do := row*ars+t*m*k, row*brs+t*k*n, row*c.size+t*m*n
			matmul(d[do:do+m*n], a[ao:ao+m*k], b[bo:bo+k*n], m, k, n)
		}
	}
}

// matmul sets c = a @ b for row-major a (m, k), b (k, n), c (m, n).
func matmul[T number](c, a, b []T, m, k, n int) {
	switch cf := any(c).(type) {
	case []float32:
		linalg.MatMulF32(cf, any(a).([]float32), any(b).([]float32), m, k, n)
		return
	case []float64:
		linalg.MatMulF64(cf, any(a).([]float64), any(b).([]float64), m, k, n)
		return
	}
	clear(c)
	for i := range m {
		ci := c[i*n : (i+1)*n]
		for p := range k {
			x := a[i*k+p]
			bp := b[p*n : (p+1)*n]
			for j := range ci {
				ci[j] += x * bp[j]
			}
		}
	}
}

// pack packs the constant right operand of a MatMul node of two
// matrices, float32 (float16 widened) or float64, for linalg.
func (p *Program) pack(c *cnode) {
	b := p.nodes[c.args[1]]
	if b.konst == nil || len(c.Shape) != 2 {
		return
	}
	k, n := b.Shape[0], b.Shape[1]
	switch b.DType {
	case Float16:
		f := make([]float32, k*n)
		f16to32(f, as[uint16](b.konst))
		c.packed = linalg.PackF32(f, k, n)
	case Float32:
		c.packed = linalg.PackF32(as[float32](b.konst), k, n)
	case Float64:
		c.packed = linalg.PackF64(as[float64](b.konst), k, n)
	}
}
