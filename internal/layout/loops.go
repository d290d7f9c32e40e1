package layout

import (
	"encoding/binary"
	"unsafe"
)

// The loops below address memory through unsafe.Pointer arithmetic: Plan.Run
// has checked that every offset a plan reaches lies inside both buffers, and
// the Go slices keep the buffers alive for the duration of the call.

// gather writes n elements to the contiguous dst from src read with a
// stride of ss elements (any sign).
func gather[E elem](dst, src unsafe.Pointer, n, ss int) {
	var z E
	w := int(unsafe.Sizeof(z))
	d := unsafe.Slice((*E)(dst), n)
	step := ss * w
	i := 0
	if w == 4 && ss == 2 && n > 8 {
		i = gatherEvenFast(dst, src, n)
	}
	// Pointers are formed only for elements that exist: Go forbids
	// arithmetic that leaves the allocation, even transiently. Four
	// independent loads per iteration let the CPU overlap them.
	for ; i+4 <= n; i += 4 {
		a := *(*E)(unsafe.Add(src, i*step))
		b := *(*E)(unsafe.Add(src, (i+1)*step))
		c := *(*E)(unsafe.Add(src, (i+2)*step))
		e := *(*E)(unsafe.Add(src, (i+3)*step))
		d[i], d[i+1], d[i+2], d[i+3] = a, b, c, e
	}
	for ; i < n; i++ {
		d[i] = *(*E)(unsafe.Add(src, i*step))
	}
}

// smallGather is the longest strided run gatherShort takes.
const smallGather = 4

// gatherShort copies cnt strided runs of n (2 to smallGather)
// elements, run c from src + c*srcStep elements (its elements ss apart)
// to dst + c*dstStep (contiguous): the channels of cnt pixels reversed,
// for one, unrolled.
func gatherShort[E elem](dst, src unsafe.Pointer, n, ss, cnt, dstStep, srcStep int) {
	var z E
	w := int(unsafe.Sizeof(z))
	at := func(p unsafe.Pointer, i int) *E { return (*E)(unsafe.Add(p, i*w)) }
	switch n {
	case 2:
		for c := range cnt {
			s, t := c*srcStep, c*dstStep
			a, b := *at(src, s), *at(src, s+ss)
			*at(dst, t), *at(dst, t+1) = a, b
		}
	case 3:
		for c := range cnt {
			s, t := c*srcStep, c*dstStep
			a, b, e := *at(src, s), *at(src, s+ss), *at(src, s+2*ss)
			*at(dst, t), *at(dst, t+1), *at(dst, t+2) = a, b, e
		}
	case 4:
		for c := range cnt {
			s, t := c*srcStep, c*dstStep
			a, b, e, f := *at(src, s), *at(src, s+ss), *at(src, s+2*ss), *at(src, s+3*ss)
			*at(dst, t), *at(dst, t+1), *at(dst, t+2), *at(dst, t+3) = a, b, e, f
		}
	}
}

// transpose copies an a x b block whose source is contiguous along a
// (stride 1) and strided along b (stride sb), into a destination contiguous
// along b with rows dstRow elements apart: dst[i*dstRow+k] = src[i+k*sb].
// The b axis is walked in tiles of tileSide source lines, which stay in
// cache while they are read in strips of 4 columns.
// With stream, a destination written in order (3 channels of 4 bytes)
// takes non-temporal stores.
func transpose[E elem](dst, src unsafe.Pointer, a, b, dstRow, sb int, stream bool) {
	var z E
	w := int(unsafe.Sizeof(z))
	switch b {
	case 3: // NCHW -> NHWC with 3 channels: three source streams
		s1, s2 := sb*w, 2*sb*w
		i := 0
		if w == 1 && dstRow == 3 {
			i = interleaveU8(dst, src, a, 3, s1, stream)
		} else if w == 4 && unsafe.Alignof(z) == 4 && dstRow == 3 {
			if stream {
				i = interleave3Stream(dst, src, a, s1)
			} else {
				i = interleave3x32(dst, src, a, s1)
			}
		}
		for ; i < a; i++ {
			s := unsafe.Add(src, i*w)
			d := (*[3]E)(unsafe.Add(dst, i*dstRow*w))
			d[0], d[1], d[2] = *(*E)(s), *(*E)(unsafe.Add(s, s1)), *(*E)(unsafe.Add(s, s2))
		}
		return
	case 4:
		s1, s2, s3 := sb*w, 2*sb*w, 3*sb*w
		i := 0
		if w == 1 && dstRow == 4 {
			i = interleaveU8(dst, src, a, 4, s1, stream)
		}
		for ; i < a; i++ {
			s := unsafe.Add(src, i*w)
			d := (*[4]E)(unsafe.Add(dst, i*dstRow*w))
			d[0], d[1], d[2], d[3] = *(*E)(s), *(*E)(unsafe.Add(s, s1)), *(*E)(unsafe.Add(s, s2)), *(*E)(unsafe.Add(s, s3))
		}
		return
	}
	if a <= 4 {
		// Few source-contiguous rows (NHWC -> NCHW): one destination row
		// at a time; the source lines are shared by the a passes.
		if w == 1 && (a == 3 || a == 4) && sb == a {
			k := deinterleaveU8(dst, src, b, a, dstRow, stream)
			if k == b {
				return
			}
			dst, src, b = unsafe.Add(dst, k), unsafe.Add(src, k*sb), b-k
		}
		if a == 3 && sb == 3 && w == 4 && unsafe.Alignof(z) == 4 {
			// Pointers are advanced only while pixels remain: Go forbids
			// arithmetic that leaves the allocation.
			k := deinterleave3(dst, src, b, dstRow, stream)
			if k == b {
				return
			}
			dst, src, b = unsafe.Add(dst, k*w), unsafe.Add(src, k*sb*w), b-k
			k = deinterleave3x32(dst, src, b, dstRow)
			if k == b {
				return
			}
			dst, src, b = unsafe.Add(dst, k*w), unsafe.Add(src, k*sb*w), b-k
		}
		for i := range a {
			gather[E](unsafe.Add(dst, i*dstRow*w), unsafe.Add(src, i*w), b, sb)
		}
		return
	}
	if unsafe.Alignof(z) == uintptr(w) {
		// Whole blocks through the assembly kernels, where there are
		// some; the loops below copy the right and bottom remainders.
		ai, bk := transposeBlocks(w, dst, src, a, b, dstRow, sb, stream)
		if ai > 0 {
			if bk < b {
				tiles[E](unsafe.Add(dst, bk*w), unsafe.Add(src, bk*sb*w), ai, b-bk, dstRow, sb)
			}
			if ai < a {
				tiles[E](unsafe.Add(dst, ai*dstRow*w), unsafe.Add(src, ai*w), a-ai, b, dstRow, sb)
			}
			return
		}
	}
	tiles[E](dst, src, a, b, dstRow, sb)
}

// tiles copies an a x b block as transpose does, in tiles of a x side
// elements (tileSide) copied in strips of 4 columns: each step reads four
// elements from each of two or four source lines and writes them to four
// destination rows.
func tiles[E elem](dst, src unsafe.Pointer, a, b, dstRow, sb int) {
	var z E
	w := int(unsafe.Sizeof(z))
	side := tileSide(w, b)
	for k0 := 0; k0 < b; k0 += side {
		kn := min(side, b-k0)
		for i0 := 0; i0 < a; {
			s := unsafe.Add(src, (i0+k0*sb)*w)
			d := unsafe.Add(dst, (i0*dstRow+k0)*w)
			switch in := a - i0; {
			case in >= 4:
				block4[E](d, s, kn, dstRow, sb)
				i0 += 4
			default:
				for i := range in {
					strip[E](unsafe.Add(d, i*dstRow*w), unsafe.Add(s, i*w), kn, sb)
				}
				i0 = a
			}
		}
	}
}

// strip writes n elements to the contiguous dst from src read with a
// stride of ss elements.
func strip[E elem](dst, src unsafe.Pointer, n, ss int) {
	var z E
	w := int(unsafe.Sizeof(z))
	o := 0
	for k := range n {
		*(*E)(unsafe.Add(dst, k*w)) = *(*E)(unsafe.Add(src, o))
		o += ss * w
	}
}

// block4 transposes a 4 x n strip: dst[i*dstRow+k] = src[i+k*sb] for i < 4,
// k < n, four source lines (k) at a time.
func block4[E elem](dst, src unsafe.Pointer, n, dstRow, sb int) {
	var z E
	w := int(unsafe.Sizeof(z))
	if w == 4 && unsafe.Alignof(z) == 4 {
		block4x32(dst, src, n, dstRow, sb)
		return
	}
	ss, ds := sb*w, dstRow*w
	d0, d1, d2, d3 := dst, unsafe.Add(dst, ds), unsafe.Add(dst, 2*ds), unsafe.Add(dst, 3*ds)
	k := 0
	for ; k+4 <= n; k += 4 {
		s0 := unsafe.Add(src, k*ss)
		s1 := unsafe.Add(s0, ss)
		s2 := unsafe.Add(s1, ss)
		s3 := unsafe.Add(s2, ss)
		o := k * w
		*(*E)(unsafe.Add(d0, o)) = *(*E)(s0)
		*(*E)(unsafe.Add(d0, o+w)) = *(*E)(s1)
		*(*E)(unsafe.Add(d0, o+2*w)) = *(*E)(s2)
		*(*E)(unsafe.Add(d0, o+3*w)) = *(*E)(s3)
		*(*E)(unsafe.Add(d1, o)) = *(*E)(unsafe.Add(s0, w))
		*(*E)(unsafe.Add(d1, o+w)) = *(*E)(unsafe.Add(s1, w))
		*(*E)(unsafe.Add(d1, o+2*w)) = *(*E)(unsafe.Add(s2, w))
		*(*E)(unsafe.Add(d1, o+3*w)) = *(*E)(unsafe.Add(s3, w))
		*(*E)(unsafe.Add(d2, o)) = *(*E)(unsafe.Add(s0, 2*w))
		*(*E)(unsafe.Add(d2, o+w)) = *(*E)(unsafe.Add(s1, 2*w))
		*(*E)(unsafe.Add(d2, o+2*w)) = *(*E)(unsafe.Add(s2, 2*w))
		*(*E)(unsafe.Add(d2, o+3*w)) = *(*E)(unsafe.Add(s3, 2*w))
		*(*E)(unsafe.Add(d3, o)) = *(*E)(unsafe.Add(s0, 3*w))
		*(*E)(unsafe.Add(d3, o+w)) = *(*E)(unsafe.Add(s1, 3*w))
		*(*E)(unsafe.Add(d3, o+2*w)) = *(*E)(unsafe.Add(s2, 3*w))
		*(*E)(unsafe.Add(d3, o+3*w)) = *(*E)(unsafe.Add(s3, 3*w))
	}
	if k < n {
		s := unsafe.Add(src, k*ss)
		o := k * w
		strip[E](unsafe.Add(d0, o), s, n-k, sb)
		strip[E](unsafe.Add(d1, o), unsafe.Add(s, w), n-k, sb)
		strip[E](unsafe.Add(d2, o), unsafe.Add(s, 2*w), n-k, sb)
		strip[E](unsafe.Add(d3, o), unsafe.Add(s, 3*w), n-k, sb)
	}
}

// block4x32 is block4 for aligned 4-byte elements: pairs of elements move
// as uint64 words (little-endian: the first element is the low half), so
// a 2x2 sub-block takes two loads, two stores and a few register
// operations.
func block4x32(dst, src unsafe.Pointer, n, dstRow, sb int) {
	const lo, hi = 0x00000000ffffffff, 0xffffffff00000000
	ss, ds := sb*4, dstRow*4
	d0, d1, d2, d3 := dst, unsafe.Add(dst, ds), unsafe.Add(dst, 2*ds), unsafe.Add(dst, 3*ds)
	k := 0
	for ; k+2 <= n; k += 2 {
		s0 := unsafe.Add(src, k*ss)
		s1 := unsafe.Add(s0, ss)
		o := k * 4
		// Rows k and k+1 of the source, columns 0-1 and 2-3.
		a01, a23 := load64(s0), load64(unsafe.Add(s0, 8))
		b01, b23 := load64(s1), load64(unsafe.Add(s1, 8))
		store64(unsafe.Add(d0, o), a01&lo|b01<<32)
		store64(unsafe.Add(d1, o), a01>>32|b01&hi)
		store64(unsafe.Add(d2, o), a23&lo|b23<<32)
		store64(unsafe.Add(d3, o), a23>>32|b23&hi)
	}
	if k < n {
		s := unsafe.Add(src, k*ss)
		o := k * 4
		*(*uint32)(unsafe.Add(d0, o)) = *(*uint32)(s)
		*(*uint32)(unsafe.Add(d1, o)) = *(*uint32)(unsafe.Add(s, 4))
		*(*uint32)(unsafe.Add(d2, o)) = *(*uint32)(unsafe.Add(s, 8))
		*(*uint32)(unsafe.Add(d3, o)) = *(*uint32)(unsafe.Add(s, 12))
	}
}

// tileSide returns the number of source lines (elements along the
// strided axis) of one tile of transpose for elements of w bytes and rows
// of b elements: the whole row when it is short (at most 256 bytes), else
// half a cache line of destination elements. Eight source lines per tile
// stay in an 8-way L1 cache even when their stride is a multiple of 4 KiB
// (which maps them all to one set) while they are read in 4-column strips
// across a band of bandRows columns; each destination line is then written
// in two passes. Measured on the shapes, wider tiles that write
// whole destination lines in one pass lose more to those set conflicts.
func tileSide(w, b int) int {
	if b*w <= 256 {
		return b // small rows: the whole block is one tile
	}
	return max(4, 32/w)
}

// bandRows returns the rows of the stride-1 source axis that one work unit
// of a transpose copies: 2 KiB of each source line.
func bandRows(w int) int { return 2048 / w }

// load64 and store64 access 8 bytes at p as a little-endian word; p needs
// no alignment.
func load64(p unsafe.Pointer) uint64 { return binary.LittleEndian.Uint64((*[8]byte)(p)[:]) }

func store64(p unsafe.Pointer, v uint64) { binary.LittleEndian.PutUint64((*[8]byte)(p)[:], v) }

// interleave3x32 writes pixels [0, n&^1) of three planes of aligned 4-byte
// elements, ss bytes apart from src, to dst as (c0, c1, c2) triples, two
// pixels (three words) at a time, and returns the number written.
func interleave3x32(dst, src unsafe.Pointer, n, ss int) int {
	const lo, hi = 0x00000000ffffffff, 0xffffffff00000000
	s1, s2 := unsafe.Add(src, ss), unsafe.Add(src, 2*ss)
	i := 0
	for ; i+2 <= n; i += 2 {
		c0, c1, c2 := load64(unsafe.Add(src, i*4)), load64(unsafe.Add(s1, i*4)), load64(unsafe.Add(s2, i*4))
		d := unsafe.Add(dst, i*12)
		store64(d, c0&lo|c1<<32)
		store64(unsafe.Add(d, 8), c2&lo|c0&hi)
		store64(unsafe.Add(d, 16), c1>>32|c2&hi)
	}
	return i
}

// deinterleave3x32 is the inverse of interleave3x32: it splits pixels
// [0, n&^1) of (c0, c1, c2) triples of aligned 4-byte elements at src into
// three planes, dstRow elements apart from dst, and returns the number
// split.
func deinterleave3x32(dst, src unsafe.Pointer, n, dstRow int) int {
	const lo, hi = 0x00000000ffffffff, 0xffffffff00000000
	d1, d2 := unsafe.Add(dst, dstRow*4), unsafe.Add(dst, 2*dstRow*4)
	k := 0
	for ; k+2 <= n; k += 2 {
		s := unsafe.Add(src, k*12)
		w0, w1, w2 := load64(s), load64(unsafe.Add(s, 8)), load64(unsafe.Add(s, 16))
		store64(unsafe.Add(dst, k*4), w0&lo|w1&hi)
		store64(unsafe.Add(d1, k*4), w0>>32|w2<<32)
		store64(unsafe.Add(d2, k*4), w1&lo|w2&hi)
	}
	return k
}
