package unsafeslice

import "unsafe"

// Within reports whether inner is non-empty and lies wholly inside outer's
// bytes (from outer's first byte to its length), that is whether inner
// is a subslice of outer's memory. It compares addresses only and reads
// neither slice.
func Within(inner, outer []byte) bool {
	if len(inner) == 0 || len(outer) == 0 {
		return false
	}
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(outer)))
	p := uintptr(unsafe.Pointer(unsafe.SliceData(inner)))
	return p >= lo && p-lo < uintptr(len(outer)) && uintptr(len(inner)) <= uintptr(len(outer))-(p-lo)
}
