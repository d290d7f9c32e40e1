//go:build !purego

package numeric

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// Implemented in exp_amd64.s.
//
//go:noescape
func expF32x8(d, a unsafe.Pointer, n int)

//go:noescape
func expF32x16(d, a unsafe.Pointer, n int)

// hasAVX512 is the CPU's (and the system's) support of AVX-512F.
var hasAVX512 = cpu.X86.HasAVX512F

// expF32 runs expF32x16 (or expF32x8) over the leading elements, a
// multiple of 16 (or 8), and returns their number (0 without AVX2 and
// FMA).
func expF32(d, a []float32) int {
	if !useAVX2 || !useFMA || len(d) < 8 {
		return 0
	}
	n := 0
	if m := len(d) &^ 15; useAVX512 && m > 0 {
		expF32x16(unsafe.Pointer(&d[0]), unsafe.Pointer(&a[0]), m)
		n = m
	}
	if m := len(d) &^ 7; m > n {
		expF32x8(unsafe.Pointer(&d[n]), unsafe.Pointer(&a[n]), m-n)
		n = m
	}
	return n
}
