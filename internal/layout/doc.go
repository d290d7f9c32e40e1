// Package layout moves tensor elements in memory without computing on
// them: it copies strided views into dense row-major buffers, transposes
// (blocks, channels and bit matrices) and narrows integers, at memory
// speed. It is the materialization engine of package expr and of the
// codecs, and knows nothing about Arrow, expressions or element types
// beyond their width; the kernels that compute on elements are in
// internal/numeric.
//
// # Overview
//
// NewPlan takes a view of one source tensor (shape, element strides of any
// sign, element offset) and an element width of any number of bytes (an
// element of another width than 1, 2, 4 or 8, such as a 16-byte decimal,
// becomes a run of the widest of those words dividing it, on an extra
// innermost axis, so its views copy as runs of words); it
// drops axes of size 1, merges axes that are contiguous in the source, and
// keeps the result in fixed-size arrays. Plan.Run then copies the view of
// each of n tensors of a batch into a dense destination, picking one of
// three loops, in the spirit of image/draw's fast paths:
//
//   - contiguous: the innermost source stride is 1, so each run is one
//     copy() (the whole batch is one run when the view is the identity);
//     when the batch writes at least 1 MiB, runs of at least 1 KiB are
//     written with non-temporal stores on amd64 (as copy() does for one
//     copy of at least 1 MiB), which skip reading the destination lines.
//     With AVX2, whole runs of at least 32 bytes (the rows of a slice or
//     an index) go through one assembly loop per row of runs: no call per
//     run, 32-byte moves, non-temporal stores for a batch of at least
//     1 MiB, and a software prefetch 4 KiB of run data ahead of the copy,
//     across the jumps between runs that the hardware prefetchers do not
//     follow (an index reads 256 bytes every 16 KiB). A caller whose
//     job is made of many small calls that write at least 1 MiB in all
//     (one per row of a column of variable-shape tensors) gets the same
//     stores from Plan.RunStream, or from CopyRuns, the loop without a
//     plan, which prefetches the runs of the caller's next call and
//     leaves its stores for one Fence after the last call;
//   - transpose: another axis has source stride 1 (a permuted innermost
//     pair, such as NCHW <-> NHWC or a 2-D transpose), so the pair is
//     copied in bands of 2 KiB of each source line. With AVX2, aligned
//     4-byte and 8-byte elements go through assembly kernels in blocks of
//     8 source columns by 16 source lines (4 by 8 for 8 bytes): tiles of
//     source lines are read line by line and each block writes 64 bytes
//     (a whole cache line when the destination is aligned) to each
//     destination row it covers, with non-temporal stores when the batch
//     writes at least 1 MiB. 1- and 2-byte elements go through blocks of
//     16x16 and 8x16 elements (two source lines per register, in-lane
//     unpacks); for a batch of at least 1 MiB, blocks of 8x32 2-byte or
//     16x64 1-byte elements keep the rows of their first source lines on
//     the stack so that each destination row takes one whole line in two
//     adjacent non-temporal stores. Each step of these kernels prefetches
//     what the same step of the next tile of source lines reads: a tile
//     of a 64-column float32 matrix is one 4 KiB page, where the hardware
//     prefetchers start over. Otherwise,
//     and for the remainders, tiles of half a destination cache line (or
//     the whole row when it is short) are copied in strips of 4 columns;
//     aligned 4-byte elements move in pairs as 64-bit words (a 2x2 block is
//     two loads, two stores and a few register operations), and 3 or 4
//     destination-contiguous elements (image channels) have their own
//     loops: for 3 channels of 4 bytes, pixel pairs as words for planes to
//     channels (with non-temporal stores on amd64 when the batch writes at
//     least 1 MiB), and blends and permutes of 16 pixels at a time with
//     AVX2 (pairs as words without it) for channels to planes; 3 or 4
//     channels of 1-byte elements (uint8 images, HWC <-> CHW) move 32
//     pixels a step with AVX2 (VPSHUFB masks for 3 channels, byte and
//     word unpacks or VPSHUFB and VPERMD for 4), with non-temporal stores
//     when the batch writes at least 1 MiB;
//   - gather: anything else (steps, reversed axes), strided reads and
//     contiguous writes.
//
// Bools move between Arrow's bitmaps and one byte each: PackBools and
// UnpackBools, 32 at a time with AVX2 (a compare and VPMOVMSKB one way,
// a broadcast and VPSHUFB the other); TransposeBits8 and TransposeBits64
// transpose bit matrices.
//
// The assembly is in stream_amd64.s (non-temporal copies, SSE2 or AVX),
// pack_amd64.s (bools),
// runs_amd64.s (runs of rows), image_amd64.s (uint8 channels) and
// transpose_amd64.s, transpose_w2_amd64.s and transpose_w1_amd64.s (AVX2
// blocks of 4- and 8-, 2- and 1-byte elements); the AVX2 kernels run only
// when the CPU and the operating system support AVX2
// (golang.org/x/sys/cpu). The purego build tag, or another architecture,
// uses the pure-Go loops throughout.
//
// Element widths share one generic code path instantiated for uint8,
// uint16, uint32 and uint64 (and byte arrays, for buffers that are not
// aligned to the width).
//
// # Layout
//
// Strides and offsets are in elements. The destination is always dense
// row-major in the view's shape; tensor i of a batch starts at element
// i*Plan.Size of the destination and at element i*srcStride of the source.
//
// # Memory
//
// Plans are values without pointers; Run allocates nothing on one
// goroutine. With workers > 1 it splits the batch's rows (runs or tile
// bands) into contiguous ranges across at most GOMAXPROCS goroutines, and
// only when each gets at least 1 MiB to copy.
//
// # Errors
//
// NewPlan's errors match ErrInvalid. Run panics when a buffer is too short
// for the plan, as slice indexing does; it reads and writes through unsafe
// pointers only after that check.
package layout
