package numeric

import "github.com/fstensor/fstensor/internal/layout"

// The assembly kernels run when the one CPU-feature check of the kernel
// layers, in internal/layout, allows them.
var (
	// hasAVX2 is the CPU's (and the build's) support, which tests may
	// not exceed.
	hasAVX2 = layout.HasAVX2()
	// useAVX2 selects the AVX2 kernels; tests turn it off to cover the Go
	// loops.
	useAVX2 = hasAVX2
	// useFMA selects the kernels that also need FMA: the sums of
	// squares, the squared deviations and every similarity kernel.
	useFMA = layout.HasFMA()
	// useAVX512 selects, where the CPU has AVX-512F, the AVX-512 kernels
	// of exp, the similarity rows, the float32 extremes and the
	// prefetching division, which give the AVX2 kernels' bits. Tests
	// turn it off to cover the AVX2 ones.
	useAVX512 = hasAVX512
)
