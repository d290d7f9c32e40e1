// Package unsafeslice reinterprets byte slices as slices of fixed-width
// elements and back, with the length and alignment checks that make the
// conversion safe, and tells whether a byte slice lies in another's
// memory (Within). It is the only place of the module that uses unsafe for
// slice casts and address comparisons.
package unsafeslice

import (
	"fmt"
	"unsafe"
)

// Cast returns the bytes of b viewed as elements of T, sharing b's memory.
// It fails when len(b) is not a multiple of the size of T or when b's
// first byte is not aligned for T; an empty b gives an empty slice.
func Cast[T any](b []byte) ([]T, error) {
	var zero T
	size := int(unsafe.Sizeof(zero))
	if len(b) == 0 {
		return []T{}, nil
	}
	if size == 0 || len(b)%size != 0 {
		return nil, fmt.Errorf("unsafeslice: %d bytes are not a whole number of %d-byte elements", len(b), size)
	}
	p := unsafe.Pointer(unsafe.SliceData(b))
	if uintptr(p)%unsafe.Alignof(zero) != 0 {
		return nil, fmt.Errorf("unsafeslice: buffer at %p is not aligned to %d bytes", p, unsafe.Alignof(zero))
	}
	return unsafe.Slice((*T)(p), len(b)/size), nil
}

// Bytes returns the memory of s as bytes, sharing it.
func Bytes[T any](s []T) []byte {
	if len(s) == 0 {
		return []byte{}
	}
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(zero)))
}

// Aligned reports whether b's first byte is aligned to n bytes (true for
// an empty b).
func Aligned(b []byte, n int) bool {
	return len(b) == 0 || uintptr(unsafe.Pointer(unsafe.SliceData(b)))%uintptr(n) == 0
}
