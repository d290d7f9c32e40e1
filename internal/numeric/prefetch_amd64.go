//go:build !purego

package numeric

import "unsafe"

// Implemented in prefetch_amd64.s.
//
//go:noescape
func prefetchLines(p unsafe.Pointer, n int)

func prefetch(b []byte) {
	if n := len(b) / 64; n > 0 {
		prefetchLines(unsafe.Pointer(&b[0]), n)
	}
}
