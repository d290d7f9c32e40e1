package mmap

import (
	"math"
	"unsafe"

	"golang.org/x/sys/unix"
)

// HugePage is the size and alignment of the mappings of MapHuge (2 MiB,
// a transparent huge page on x86-64 and on arm64 with 4 KiB pages).
const HugePage = 2 << 20

// MapHuge returns a zeroed anonymous read-write mapping of size bytes
// rounded up to a multiple of HugePage, starting on a HugePage boundary
// and advised MADV_HUGEPAGE, or nil if the system refuses the mapping or
// size is not positive. The mapping is given back by UnmapHuge.
func MapHuge(size int) []byte {
	if size <= 0 || size > math.MaxInt-2*HugePage {
		return nil
	}
	n := (size + HugePage - 1) &^ (HugePage - 1)
	// Map one huge page more than needed and give back the unaligned head
	// and tail, so that every 2 MiB of the result can be one huge page.
	p, err := unix.MmapPtr(-1, 0, nil, uintptr(n+HugePage), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err != nil {
		return nil
	}
	head := (HugePage - uintptr(p)%HugePage) % HugePage
	if head > 0 {
		_ = unix.MunmapPtr(p, head)
	}
	if tail := uintptr(HugePage) - head; tail > 0 {
		_ = unix.MunmapPtr(unsafe.Add(p, head+uintptr(n)), tail)
	}
	m := unsafe.Slice((*byte)(unsafe.Add(p, head)), n)
	_ = unix.Madvise(m, unix.MADV_HUGEPAGE) // advice only: a refusal leaves 4 KiB pages
	return m
}

// UnmapHuge gives back a whole mapping returned by MapHuge. It panics if
// the system refuses, which only a slice not from MapHuge can cause.
func UnmapHuge(m []byte) {
	if err := unix.MunmapPtr(unsafe.Pointer(unsafe.SliceData(m)), uintptr(len(m))); err != nil {
		panic("mmap: munmap of a MapHuge mapping: " + err.Error())
	}
}
