// Package bench holds fstensor's cross-package benchmarks and the case
// definitions its peer comparisons share.
//
// # Overview
//
// The benchmarks (go test -run '^$' -bench . ./bench) cover what users run:
// building a column from a slice, reading tensors, materializing
// expressions (BenchmarkMaterialize: slices, an index, transposes,
// NCHW<->NHWC, a reshape, a fused chain), converting to and from arrow-go
// tensors, IPC (file, stream, memory-mapped; uncompressed, LZ4, ZSTD),
// Parquet and .npy, scaling with batch size, tensor size and GOMAXPROCS,
// and the machine's copy() bandwidth on one and two goroutines. Names are
// key=value paths (op=, dtype=, shape=, impl=, ...); every benchmark that
// copies data has an impl=copy sibling that copy()s the same number of
// bytes, and reports throughput through b.SetBytes (the bytes produced).
//
// The -size flag picks the batch sizes: small (about 1 MiB, in cache),
// large (about 128 MiB, streamed from memory) or all (the default);
// -short means small. Nothing large is allocated unless a benchmark runs.
//
// Cases, MatrixCases and Pattern define the materialization cases and
// their input values, so that the NumPy script (numpy_bench.py) and the
// Go peers (the module in peers/: gonum, gorgonia) time the same shapes on
// the same values; TestNumPy checks that fstensor computes NumPy's values
// for every case. run.sh runs everything and writes the results, a
// Markdown table and an SVG chart under out/.
//
// # Layout
//
// Benchmark inputs are dense row-major columns whose element i (physical
// order, batch axis first) is Pattern(i). Shapes in names put the batch
// first: shape=8192x64x64 is 8192 tensors of shape (64, 64).
//
// # Memory
//
// A large benchmark holds its input and output, a few hundred MiB, while
// it runs; inputs are made inside each benchmark function and dropped when
// it returns.
//
// # Errors
//
// ParseSize returns an error for an unknown size name; the benchmarks fail
// (b.Fatal) on any error of the code they measure.
package bench
