// Package linalg holds the matrix-multiplication kernel behind x @ W:
// dense, row-major float32 and float64 matrices multiplied on one
// thread. It knows nothing about tensors, Arrow or expressions; callers
// split rows across workers.
//
// # Overview
//
// MatMulF32 and MatMulF64 set c (m x n) to a (m x k) @ b (k x n). For one
// constant right operand times many left operands (x @ W over blocks of
// rows), PackF32 or PackF64 copies W once into the layout the kernel
// reads, and PackedF32.MulF32 or PackedF64.MulF64 multiplies each block by
// it, with the same bits as MatMulF32 or MatMulF64.
//
// The product runs in tiles of 6 rows held in registers, over blocks of
// 256 steps of k and 96 rows sized for the L1 and L2 caches. On amd64 the
// kernels of kernel_amd64.s compute the tiles: 6 x 32 float32 or 6 x 16
// float64 with AVX-512F where the CPU and the operating system support it
// (golang.org/x/sys/cpu), otherwise 6 x 16 float32 or 6 x 8 float64 with
// AVX2 and FMA where layout.HasFMA, the one CPU-feature check of the
// kernel layers, allows them. Elsewhere a Go kernel computes the tiles, in
// the same order. The purego build tag, or another architecture, uses the
// Go kernel throughout.
//
// # Layout
//
// Every matrix is a dense row-major slice: element (i, j) of an r x s
// matrix is at index i*s + j, with no padding between rows. A packed
// operand holds b in panels as wide as the kernel's tile, zero-padded,
// each panel's rows contiguous within blocks of 256 rows; it keeps that
// width, and the Go kernel multiplies by it if its kernel cannot run.
//
// # Rounding
//
// Each element of c is the fused multiply-add chain
// c[i][j] = fma(a[i][k-1], b[k-1][j], ... fma(a[i][0], b[0][j], 0)), with k
// ascending, accumulated in the element type: float32 products are summed
// in float32, so a result differs from a float64 reference by up to about
// k * eps32 * sum_p |a[i][p] b[p][j]| (eps32 = 2^-24), and from a loop
// that rounds each product before adding it by rounding too. NaN and Inf
// propagate as in that chain. Every kernel gives the same bits, but for
// float32 the Go kernel rounds each fused step to float64 and then to
// float32, which differs from a float32 fused multiply-add when the
// float64 sum falls exactly halfway between two float32 values without
// being exact (rare).
//
// # Memory
//
// PackF32 and PackF64 copy b into a new packed operand. MatMulF32,
// MatMulF64 and the Mul methods take their scratch (a block of a, and b
// packed) from a sync.Pool: no allocation per call once warm; a pooled
// scratch keeps the largest packed b it held (k * n elements, rounded up
// to the tile width) until the garbage collector empties the pool. The
// functions read a and b and write c; they retain nothing. c must not
// overlap a or b. A packed operand is read-only: any number of goroutines
// may multiply by it at once.
//
// # Errors
//
// There are none: sizes are the caller's, and a size of 0 is valid (k = 0
// sets c to zeros). The functions panic, as slice indexing does, when a
// slice is shorter than its sizes require or a size is negative.
package linalg
