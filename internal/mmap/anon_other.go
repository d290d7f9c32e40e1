//go:build !linux

package mmap

// HugePage is the size and alignment of the mappings of MapHuge (2 MiB).
const HugePage = 2 << 20

// MapHuge returns nil: huge pages are asked for on Linux only.
func MapHuge(size int) []byte { return nil }

// UnmapHuge is never called with a mapping: MapHuge makes none here.
func UnmapHuge(m []byte) {}
