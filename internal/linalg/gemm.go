package linalg

// The blocking. For each block of mcBlock rows of a and c, and each block
// of kcBlock steps of k, every sliver of mr rows of a (mr x kcBlock, 6 KiB
// of float32 in L1) meets every panel of nr columns of b (kcBlock x nr,
// 16 KiB in L1 or L2) in the register tile; the block of b (kcBlock x n,
// 128 KiB for n = 128) stays in L2 across the rows, and the block of c
// (mcBlock x n) stays in L2 across the steps of k, its tiles loaded back
// into the registers so that each element keeps one chain of fused
// multiply-adds.
const (
	kcBlock = 256
	mcBlock = 96
)

// panels is the right operand b (k x n) as the kernel reads it: either
// the row-major matrix itself, whose full panels the kernel reads in
// place, or packed (see packB).
type panels[T float] struct {
	b      []T // row-major k x n, when packed is nil
	packed []T // packB's layout
	k, n   int
}

// panel returns the panel of columns [jr*nr, jr*nr+nr) of b for the steps
// [pc, pc+kcb), and its row stride. tail is the packed last panel of
// the steps when b is not packed and n is not a multiple of nr.
func (p *panels[T]) panel(pc, kcb, jr, nr int, tail []T) ([]T, int) {
	switch {
	case p.packed != nil:
		npad := (p.n + nr - 1) / nr * nr
		return p.packed[pc*npad+jr*kcb*nr:], nr
	case (jr+1)*nr <= p.n:
		return p.b[pc*p.n+jr*nr:], p.n
	}
	return tail, nr
}

// packB writes b (k x n, row-major) into dst in the layout the kernel
// reads fastest: for each block of kcBlock steps of k, for each panel of
// nr columns, the block's rows of that panel, nr elements each, the
// columns past n zero. dst holds k * ceil(n/nr) * nr elements.
func packB[T float](dst, b []T, k, n, nr int) {
	for pc := 0; pc < k; pc += kcBlock {
		kcb := min(kcBlock, k-pc)
		for j0 := 0; j0 < n; j0 += nr {
			packPanel(dst[:kcb*nr], b[pc*n:], n, kcb, j0, min(nr, n-j0), nr)
			dst = dst[kcb*nr:]
		}
	}
}

// packPanel copies the kc rows of the w columns from column j0 of b (row
// stride ldb) into dst, nr elements a row, zero past w.
func packPanel[T float](dst, b []T, ldb, kc, j0, w, nr int) {
	for p := range kc {
		row := dst[p*nr : p*nr+nr]
		copy(row, b[p*ldb+j0:p*ldb+j0+w])
		clear(row[w:])
	}
}

// gemm sets c (m x n) to a (m x k) @ b. Every element is one chain of
// fused multiply-adds over k in ascending order, whichever kernel runs.
func gemm[T float](c, a []T, m, k, n int, b *panels[T]) {
	if m == 0 || n == 0 {
		return
	}
	if k == 0 {
		clear(c[:m*n])
		return
	}
	nr := nrOf[T]()
	var (
		atile [mr * kcBlock]T    // the last rows of a block, zero-padded to mr
		btail [kcBlock * nrMax]T // the last, partial panel of unpacked b
	)
	for ic := 0; ic < m; ic += mcBlock {
		mcb := min(mcBlock, m-ic)
		for pc := 0; pc < k; pc += kcBlock {
			kcb := min(kcBlock, k-pc)
			if w := n % nr; b.packed == nil && w != 0 {
				packPanel(btail[:kcb*nr], b.b[pc*n:], n, kcb, n-w, w, nr)
			}
			for ir := 0; ir < mcb; ir += mr {
				i := ic + ir
				as, lda := a[i*k+pc:], k
				if rows := min(mr, m-i); rows < mr {
					clear(atile[:mr*kcb])
					for r := range rows {
						copy(atile[r*kcb:r*kcb+kcb], a[(i+r)*k+pc:])
					}
					as, lda = atile[:], kcb
				}
				for jr := 0; jr*nr < n; jr++ {
					bs, ldb := b.panel(pc, kcb, jr, nr, btail[:])
					tile(c[i*n+jr*nr:], n, min(mr, m-i), min(nr, n-jr*nr), as, lda, bs, ldb, kcb, pc > 0)
				}
			}
		}
	}
}

// tile runs the kernel for the rows x cols tile at c (row stride ldc),
// through a scratch tile when it is smaller than the kernel's.
func tile[T float](c []T, ldc, rows, cols int, a []T, lda int, b []T, ldb, kc int, acc bool) {
	nr := nrOf[T]()
	if rows == mr && cols == nr {
		micro(a, lda, b, ldb, kc, c, ldc, acc)
		return
	}
	var t [mr * nrMax]T
	if acc {
		for r := range rows {
			copy(t[r*nr:r*nr+cols], c[r*ldc:])
		}
	}
	micro(a, lda, b, ldb, kc, t[:], nr, acc)
	for r := range rows {
		copy(c[r*ldc:r*ldc+cols], t[r*nr:])
	}
}
