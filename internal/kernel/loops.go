package kernel

import "unsafe"

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
	// Pointers are formed only for elements that exist: Go forbids
	// arithmetic that leaves the allocation, even transiently. Four
	// independent loads per iteration let the CPU overlap them.
	i := 0
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

// transpose copies an a x b block whose source is contiguous along a
// (stride 1) and strided along b (stride sb), into a destination contiguous
// along b with rows dstRow elements apart: dst[i*dstRow+k] = src[i+k*sb].
// The b axis is walked in tiles so that the a source lines of one tile
// stay in cache while the destination rows are written.
func transpose[E elem](dst, src unsafe.Pointer, a, b, dstRow, sb int) {
	var z E
	w := int(unsafe.Sizeof(z))
	switch b {
	case 3: // NCHW -> NHWC with 3 channels: three source streams
		s1, s2 := sb*w, 2*sb*w
		for i := range a {
			s := unsafe.Add(src, i*w)
			d := (*[3]E)(unsafe.Add(dst, i*dstRow*w))
			d[0], d[1], d[2] = *(*E)(s), *(*E)(unsafe.Add(s, s1)), *(*E)(unsafe.Add(s, s2))
		}
		return
	case 4:
		s1, s2, s3 := sb*w, 2*sb*w, 3*sb*w
		for i := range a {
			s := unsafe.Add(src, i*w)
			d := (*[4]E)(unsafe.Add(dst, i*dstRow*w))
			d[0], d[1], d[2], d[3] = *(*E)(s), *(*E)(unsafe.Add(s, s1)), *(*E)(unsafe.Add(s, s2)), *(*E)(unsafe.Add(s, s3))
		}
		return
	}
	if a <= 4 {
		// Few source-contiguous rows (NHWC -> NCHW): one destination row
		// at a time; the source lines are shared by the a passes.
		for i := range a {
			gather[E](unsafe.Add(dst, i*dstRow*w), unsafe.Add(src, i*w), b, sb)
		}
		return
	}
	// Square tiles of one cache line of elements each way: the tile's
	// source lines stay in L1 even when sb is a multiple of the page size
	// (which maps every line of a wider tile to the same cache set).
	tb := max(8, 64/w)
	ss := sb * w
	for k0 := 0; k0 < b; k0 += tb {
		kn := min(tb, b-k0)
		for i := range a {
			s := unsafe.Add(src, (i+k0*sb)*w)
			d := unsafe.Slice((*E)(unsafe.Add(dst, (i*dstRow+k0)*w)), kn)
			for k := range d {
				d[k] = *(*E)(unsafe.Add(s, k*ss))
			}
		}
	}
}
