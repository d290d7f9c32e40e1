package engine

import "github.com/fstensor/fstensor/internal/layout"

// The engine holds bool values as bytes, 0 or 1 (any byte other than 0
// reads as true); columns hold them bit-packed, LSB first. packBits and
// unpackBits convert a run of them, whole bytes of bits through
// layout's kernels (32 bools at a time with AVX2).

// packBits sets bits at, at+1, ... of dst to whether the bytes of src
// are not 0. set writes the bits of the bytes of dst the run shares with
// others (its first and last, when the run starts or ends inside them);
// the bytes in between are the run's own and are written whole.
func packBits(dst []byte, at int, src []byte, set func(i int, v bool)) {
	for len(src) > 0 && at&7 != 0 {
		set(at, src[0] != 0)
		at, src = at+1, src[1:]
	}
	whole := len(src) &^ 7
	layout.PackBools(dst[at>>3:], src[:whole])
	at, src = at+whole, src[whole:]
	for j, v := range src {
		set(at+j, v != 0)
	}
}

// unpackBits writes bits at, at+1, ... of src to the bytes of d, 0 or 1.
func unpackBits(d []byte, src []byte, at int) {
	for len(d) > 0 && at&7 != 0 {
		d[0] = b2u(bit(src, at))
		at, d = at+1, d[1:]
	}
	whole := len(d) &^ 7
	layout.UnpackBools(d[:whole], src[at>>3:])
	at, d = at+whole, d[whole:]
	for j := range d {
		d[j] = b2u(bit(src, at+j))
	}
}
