package linalg

import "github.com/fstensor/fstensor/internal/layout"

// The assembly kernels run when the one CPU-feature check of the kernel
// layers, in internal/layout, reports AVX2 and FMA; the AVX-512 kernels
// when the CPU and the operating system also support AVX-512F (hasAVX512,
// read in cpu_amd64.go).
var (
	// hasFMA and hasAVX512 are the CPU's (and the build's) support, which
	// tests may not exceed.
	hasFMA = layout.HasFMA()
	// useAsm selects the assembly kernels; tests turn it off to cover the
	// Go kernel.
	useAsm = hasFMA
	// useAVX512 selects the AVX-512 kernels among them; tests turn it off
	// to cover the AVX2 kernels.
	useAVX512 = hasFMA && hasAVX512
)
