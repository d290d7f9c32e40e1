package layout

// HasAVX2 reports whether the assembly kernels may use AVX2: the CPU and
// the operating system (its support for the YMM registers) have it, and
// the build has assembly (amd64 without the purego tag). It is the one
// CPU-feature check of this package and of internal/numeric.
func HasAVX2() bool { return hasAVX2 }

// HasFMA reports whether the assembly kernels may also use FMA3 (fused
// multiply-add); false wherever HasAVX2 is.
func HasFMA() bool { return hasFMA }

// useAVX2 selects the AVX2 kernels: the transpose blocks, the 3-channel
// split and the 32-byte streaming copy. Tests turn it off to cover the
// pure-Go and SSE2 loops.
var useAVX2 = hasAVX2
