//go:build !purego

package linalg

import "golang.org/x/sys/cpu"

// hasAVX512 is read once from golang.org/x/sys/cpu, which checks the
// operating system's support for the ZMM and mask registers too.
var hasAVX512 = cpu.X86.HasAVX512F
