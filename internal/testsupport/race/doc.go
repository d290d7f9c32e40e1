// Package race tells tests whether they run under the race detector
// (go test -race), as the standard library's internal/race does for its
// own packages.
//
// # Overview
//
// The race detector slows Go code 5-20x and checks the memory accesses of
// Go code only: the accesses of assembly kernels are invisible to it. Tests
// use Enabled to keep a race run to what it can check (the concurrent
// paths, in their Go form) and leave exhaustive sweeps of shapes, offsets
// and SIMD paths to the plain run, which CI also makes.
package race
