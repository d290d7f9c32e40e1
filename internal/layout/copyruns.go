package layout

import (
	"fmt"
	"unsafe"
)

// Runs is Count runs of Run bytes of a source, the first at byte Off and
// each Stride bytes (of any sign) after the one before.
type Runs struct {
	Off, Run, Count, Stride int
}

// CopyRuns copies the runs r of src to dst, back to back. It is the run
// copy of Plan.Run without a plan, for a caller that copies many small
// views (one per row of a column of variable-shape tensors) and whose
// per-call set-up must stay small. With stream, for a caller whose whole
// job writes at least 1 MiB, it writes with non-temporal stores where the
// build has them, as Plan.Run does for one batch of that size; these
// stores are then not fenced (a fence per call costs as much as a small
// copy): the caller calls Fence after its last call on the same goroutine,
// before the result is read elsewhere.
//
// While it copies, it prefetches the lines of next, the runs of src the
// caller copies next (Count 0 for none; next need not lie in src), one
// line per line copied: the hardware prefetchers do not follow the jump
// from one small view to the next.
//
// It panics if dst is shorter than r.Count*r.Run bytes or if a run of r
// reaches outside src: callers check bounds first, as with slices.
func CopyRuns(dst, src []byte, r, next Runs, stream bool) {
	off, run, count, stride := r.Off, r.Run, r.Count, r.Stride
	if count <= 0 || run == 0 {
		return
	}
	need, ok := mulOK(count, run)
	if run < 0 || !ok || len(dst) < need {
		panic(fmt.Sprintf("layout: destination of %d bytes for %d runs of %d bytes", len(dst), count, run))
	}
	// The span of the run starts, checked against overflow: both ends
	// must lie in [0, len(src)-run].
	reach, ok := mulOK(count-1, abs(stride))
	lo, hi := off, off
	if stride < 0 {
		lo -= reach
	} else {
		hi += reach
	}
	if !ok || run > len(src) || off < 0 || off > len(src) || reach > len(src) || lo < 0 || hi > len(src)-run {
		panic(fmt.Sprintf("layout: source of %d bytes, %d runs of %d bytes from %d at stride %d read past it", len(src), count, run, off, stride))
	}
	d := unsafe.Pointer(unsafe.SliceData(dst))
	s := unsafe.Add(unsafe.Pointer(unsafe.SliceData(src)), off)
	// Addresses only prefetched, perhaps outside src: not pointers.
	pf := uintptr(unsafe.Pointer(unsafe.SliceData(src))) + uintptr(next.Off)
	if copyRunsNext(d, s, run, count, stride, pf, next.Run, next.Count, next.Stride, stream) {
		return
	}
	for i := range count {
		t, u := unsafe.Add(d, i*run), unsafe.Add(s, i*stride)
		if stream {
			streamCopy(t, u, run)
		} else {
			copy(unsafe.Slice((*byte)(t), run), unsafe.Slice((*byte)(u), run))
		}
	}
}
