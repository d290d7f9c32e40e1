package engine

// matmulRows evaluates a MatMul node over rows rows: a (..., m, k) and b
// (..., k, n) of type T with rs elements a row (0 for a constant) into d
// (..., m, n). Each result sums its products in k order in T.
func matmulRows[T number](c *cnode, d, a, b []T, ars, brs, rows int) {
	as, bs := c.Args[0].Shape, c.Args[1].Shape
	r := len(as)
	m, k, n := as[r-2], as[r-1], bs[r-1]
	batch, _ := sizeOf(as[:r-2])
	if brs == 0 && batch == 1 {
		// b is one constant matrix: the block is one (rows*m, k) x (k, n)
		// product.
		if ars == m*k {
			matmul(d[:rows*m*n], a[:rows*m*k], b[:k*n], rows*m, k, n)
			return
		}
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
	clear(c)
	for i := range m {
		ci := c[i*n : (i+1)*n]
		for p := range k {
			x := a[i*k+p]
			bp := b[p*n : (p+1)*n]
			for j := range ci {
				ci[j] += T(x * bp[j]) // rounded: no fused multiply-add
			}
		}
	}
}
