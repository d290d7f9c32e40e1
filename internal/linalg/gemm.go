package linalg

import "sync"

// The blocking. For each block of mcBlock rows of a and c, and each block
// of kcBlock steps of k, the block of a (mcBlock x kcBlock, 96 KiB of
// float32) is copied into a contiguous buffer that stays in L2; then each
// packed panel of nr columns of b (kcBlock x nr, 16 KiB of float32) stays
// in L1 while every sliver of mr rows of the block meets it in the
// register tile. The tiles of c are loaded back into the registers for
// each block of k, so that each element keeps one chain of fused
// multiply-adds. Reading a in place instead of copying the block lost a
// quarter of the speed where its rows lie 4 KiB apart (k = 1024 float32,
// their elements competing for the same L1 sets); reading b in place
// instead of packing it lost more where its rows lie 512 bytes apart or
// more (n >= 128 float32), the rows of a panel mapping to a few L1 sets.
const (
	kcBlock = 256
	mcBlock = 96
)

// panels is the right operand b (k x n) packed by packB for tiles nr
// wide.
type panels[T float] struct {
	packed   []T
	k, n, nr int
}

// panel returns the packed panel jr (columns [jr*nr, jr*nr+nr)) of the
// block of kcb steps of k that starts at step pc.
func (p *panels[T]) panel(pc, kcb, jr int) []T {
	npad := (p.n + p.nr - 1) / p.nr * p.nr
	return p.packed[pc*npad+jr*kcb*p.nr:]
}

// packedLen returns the number of elements packB writes for b (k x n)
// and a tile nr wide.
func packedLen(k, n, nr int) int { return k * ((n + nr - 1) / nr * nr) }

// packB writes b (k x n, row-major) into dst in the layout the kernel
// reads fastest: for each block of kcBlock steps of k, for each panel of
// nr columns, the block's rows of that panel, nr elements each, the
// columns past n zero. dst holds packedLen(k, n, nr) elements.
func packB[T float](dst, b []T, k, n, nr int) {
	for pc := 0; pc < k; pc += kcBlock {
		kcb := min(kcBlock, k-pc)
		for j0 := 0; j0 < n; j0 += nr {
			w := min(nr, n-j0)
			for p := range kcb {
				row := dst[p*nr : p*nr+nr]
				copy(row, b[(pc+p)*n+j0:(pc+p)*n+j0+w])
				clear(row[w:])
			}
			dst = dst[kcb*nr:]
		}
	}
}

// scratch holds the buffers of one gemm call, pooled per element type:
// a block of a, its rows zero-padded to a multiple of mr, and, for
// MatMulF32 and MatMulF64, b packed.
type scratch[T float] struct {
	a [mcBlock * kcBlock]T
	b []T
}

var pools = [2]sync.Pool{
	{New: func() any { return new(scratch[float32]) }},
	{New: func() any { return new(scratch[float64]) }},
}

// poolOf returns the pool of scratch[T].
func poolOf[T float]() *sync.Pool {
	if isF32[T]() {
		return &pools[0]
	}
	return &pools[1]
}

// matmul sets c (m x n) to a (m x k) @ b (k x n), packing b into pooled
// scratch first.
func matmul[T float](c, a, b []T, m, k, n int) {
	if m == 0 || n == 0 || k == 0 {
		gemm(c, a, m, k, n, &panels[T]{k: k, n: n, nr: 1}, nil)
		return
	}
	s := poolOf[T]().Get().(*scratch[T])
	defer poolOf[T]().Put(s)
	nr := tileWidth[T]()
	if l := packedLen(k, n, nr); cap(s.b) < l {
		s.b = make([]T, l)
	}
	packB(s.b, b, k, n, nr)
	gemm(c, a, m, k, n, &panels[T]{packed: s.b, k: k, n: n, nr: nr}, s)
}

// gemm sets c (m x n) to a (m x k) @ b. Every element is one chain of
// fused multiply-adds over k in ascending order, whichever kernel runs.
// s is the scratch to use, or nil to take one from the pool.
func gemm[T float](c, a []T, m, k, n int, b *panels[T], s *scratch[T]) {
	if m == 0 || n == 0 {
		return
	}
	if k == 0 {
		clear(c[:m*n])
		return
	}
	if s == nil {
		s = poolOf[T]().Get().(*scratch[T])
		defer poolOf[T]().Put(s)
	}
	nr := b.nr
	for ic := 0; ic < m; ic += mcBlock {
		mcb := min(mcBlock, m-ic)
		for pc := 0; pc < k; pc += kcBlock {
			kcb := min(kcBlock, k-pc)
			for r := range mcb {
				copy(s.a[r*kcb:r*kcb+kcb], a[(ic+r)*k+pc:])
			}
			clear(s.a[mcb*kcb : (mcb+mr-1)/mr*mr*kcb])
			for jr := 0; jr*nr < n; jr++ {
				bp := b.panel(pc, kcb, jr)
				for ir := 0; ir < mcb; ir += mr {
					tile(c[(ic+ir)*n+jr*nr:], n, min(mr, mcb-ir), min(nr, n-jr*nr), s.a[ir*kcb:], kcb, bp, nr, kcb, pc > 0)
				}
			}
		}
	}
}

// tile runs the kernel for the rows x cols tile at c (row stride ldc) over
// kc steps of a (rows of stride lda) and the packed panel b (nr wide),
// through a scratch tile when it is smaller than the kernel's.
func tile[T float](c []T, ldc, rows, cols int, a []T, lda int, b []T, nr, kc int, acc bool) {
	if rows == mr && cols == nr {
		micro(a, lda, b, nr, kc, c, ldc, acc)
		return
	}
	var t [mr * nrMax]T
	if acc {
		for r := range rows {
			copy(t[r*nr:r*nr+cols], c[r*ldc:])
		}
	}
	micro(a, lda, b, nr, kc, t[:], nr, acc)
	for r := range rows {
		copy(c[r*ldc:r*ldc+cols], t[r*nr:])
	}
}
