package linalg

import "github.com/fstensor/fstensor/internal/layout"

// The assembly kernels run when the one CPU-feature check of the kernel
// layers, in internal/layout, reports AVX2 and FMA.
var (
	// hasFMA is the CPU's (and the build's) support, which tests may not
	// exceed.
	hasFMA = layout.HasFMA()
	// useAsm selects the assembly kernels; tests turn it off to cover the
	// Go kernel.
	useAsm = hasFMA
)
