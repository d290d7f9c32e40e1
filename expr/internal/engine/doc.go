// Package engine evaluates expression graphs over blocks of rows: the
// back end of package expr.
//
// # Overview
//
// A graph is a DAG of Nodes, each describing one tensor per row (its
// Shape) of one element type (its DType). Compile checks a graph, merges
// its common sub-expressions (structurally equal nodes, even distinct
// pointers, are computed once), evaluates the nodes that read no input
// once (constant folding), and plans the evaluation; Program.Run
// evaluates a range of rows block by block, every node of a block into a
// pooled buffer sized to stay in cache, writing each root's values into
// the caller's column buffers.
//
// The front end (package expr) resolves everything NumPy decides before
// data: type promotion (the operands of an arithmetic node already share
// its DType, Cast nodes are explicit), axis numbers (non-negative, of the
// operand), index arithmetic of views (a View node gives strides), the
// matmul and einsum rules (lowered to MatMul, View, Binary and Reduce
// nodes). The engine checks the graph's consistency and fails Compile on
// a malformed one; it never re-derives NumPy's rules.
//
// # Evaluation
//
// Run splits the rows into blocks of Options.BlockBytes: the rows of a
// block are as many as let the block's inputs, outputs and the
// intermediates alive at once fit the budget. Within a block every node
// runs in topological order over all the block's rows; an intermediate
// buffer is released to the next node as soon as its last consumer ran.
// A dense input is read in place from its column and a root's values are
// written straight into its output column, so a reduction feeding
// element-wise work (x / norm(x, axis=-1, keepdims=True), standardizing,
// softmax) re-reads the block while it is in cache: each input byte
// crosses memory once, each output byte once. A row larger than the
// budget is evaluated one row per block, its intermediates then full
// size. A program with no intermediate buffer (a view, a reduction of an
// input) takes blocks of 4 MiB by default, since nothing it keeps in
// cache is read again. Workers split the rows into contiguous ranges of
// blocks.
//
// A View node copies each block through one layout.Plan built at Compile
// (the blocked transposes, the run copies and, into an output column,
// the non-temporal stores of expr's Plan.Eval). A reduction reads its
// operand in memory order: each row's results from numeric's row
// kernels when the reduced axes are trailing (numeric.RowsF32), by
// accumulation when they lead (bytes by numeric.SumU8Periodic and AccU8,
// exactly; float32 rows by numeric.AccRowsF32). A reduction of 8- or
// 16-bit integers cast to a float type reads the integers (the same
// values, in float64), and the cast is computed only where another node
// needs it.
//
// Element-wise nodes broadcast by NumPy's rules through one strided loop
// over runs of the innermost dimensions after coalescing; a broadcast
// value is the scalar of a kernel (the keepdims norm of a row), an
// operand repeated along the outer axes (a per-channel constant over an
// image) is tiled once per call. float32 + - * /, maximum and minimum
// with one number (clip), comparisons, where, the unary functions sqrt,
// abs, floor, ceil, round, negative and square, and uint8 + - * min max
// and the bitwise operations run numeric's AVX2 kernels (a float32
// division by a broadcast value through its reciprocal, with division's
// bits); a float32 + - * / root writes its output column with
// non-temporal stores and prefetches the next block's inputs meanwhile,
// so that reading them overlaps the writing (a division by a row's value,
// as in a normalization, prefetches a line each line it stores, which
// keeps the prefetches from stalling the stores). A root that is a chain of + - * / by such
// constants over a float32 node, or over a uint8 input cast to float32
// ((x.astype(float32) - mean) / std, x * 2 + 1), runs as one
// numeric.ChainU8F32 or ChainF32 pass. A node whose one consumer
// computes element by element at the same positions writes into the
// consumer's buffer, which the consumer overwrites in place. MatMul of
// float32 and float64 runs linalg's kernels: a constant right operand is
// packed once at Compile, and a block of rows of (m, k) tensors is one
// (rows*m, k) x (k, n) product.
//
// # Numbers
//
// Floats are computed in their type, float16 in float32 rounded to
// float16 after each operation; exp, log, tanh and the other functions
// through Go's math in float64, rounded, but float32 exp through
// numeric.ExpF32 (AVX2 and FMA: a float64 polynomial within 2^-50 of
// e^x, rounded: math.Exp's bits except within that distance of the
// midpoint of two float32 values, one ULP from them there). Integer arithmetic wraps
// around. Reductions follow package expr: sums of floats accumulate in
// float64, pairwise (numeric.SumF32); min and max propagate NaN, argmax
// and argmin return the first NaN; Var and Std are two passes in
// float64; a float16 reduction is rounded from float64 once. Similarities
// use package search's kernels (numeric.Dot...), so they give the bits
// the search command gives. MatMul sums the products in k order in its
// type (float16 in float32; linalg's float kernels with fused
// multiply-adds, integers wrapping around).
//
// # Memory
//
// Compile copies constants; Nodes are not retained beyond their fields
// read at Compile, and the Program never writes them. Run reads the input
// columns in place (a misaligned or Bool column is copied per block) and
// writes the outputs; nothing else is retained. Buffers come from a pool
// of the Program: a warm Run allocates only its null counts (and, with
// more than one worker, its goroutines).
//
// # Errors
//
// Every error is an *Error, which matches arrow.ErrInvalid: a malformed
// graph at Compile (a front-end bug: the engine never panics on one), a
// buffer of the wrong size at Run, and the one runtime error, an integer
// raised to a negative power, naming the row (a null row is no error).
package engine
