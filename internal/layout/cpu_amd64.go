//go:build !purego

package layout

import "golang.org/x/sys/cpu"

// hasAVX2 and hasFMA are read once from golang.org/x/sys/cpu, which
// checks the operating system's support for the YMM registers too.
var (
	hasAVX2 = cpu.X86.HasAVX2
	hasFMA  = hasAVX2 && cpu.X86.HasFMA
)
