package mmap

import "unsafe"

// Contains reports whether b is non-empty and lies wholly inside the
// mapping's bytes, that is whether b aliases the mapping. It compares
// addresses only and never reads b.
func (m *Mapping) Contains(b []byte) bool {
	if len(b) == 0 || len(m.data) == 0 {
		return false
	}
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(m.data)))
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return p >= lo && p-lo <= uintptr(len(m.data)) && uintptr(len(b)) <= uintptr(len(m.data))-(p-lo)
}
