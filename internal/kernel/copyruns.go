package kernel

import (
	"fmt"
	"unsafe"
)

// CopyRuns copies count runs of run bytes from src to dst, back to back:
// run i starts at byte off+i*stride of src (stride of any sign). It is the
// run copy of Plan.Run without a plan, for a caller that copies many small
// views (one per row of a column of variable-shape tensors) and whose
// per-call set-up must stay small. With stream, for a caller whose whole
// job writes at least 1 MiB, it writes with non-temporal stores where the
// build has them (fenced before it returns) and prefetches the runs ahead
// of the copy, as Plan.Run does for one batch of that size; its
// non-temporal stores are then not fenced (a fence per call costs as
// much as a small copy): the caller calls Fence after its last call on the
// same goroutine, before the result is read elsewhere.
//
// It panics if dst is shorter than count*run bytes or if a run reaches
// outside src: callers check bounds first, as with slices.
func CopyRuns(dst, src []byte, off, run, count, stride int, stream bool) {
	if count <= 0 || run == 0 {
		return
	}
	need, ok := mulOK(count, run)
	if run < 0 || !ok || len(dst) < need {
		panic(fmt.Sprintf("kernel: destination of %d bytes for %d runs of %d bytes", len(dst), count, run))
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
		panic(fmt.Sprintf("kernel: source of %d bytes, %d runs of %d bytes from %d at stride %d read past it", len(src), count, run, off, stride))
	}
	d := unsafe.Pointer(unsafe.SliceData(dst))
	s := unsafe.Add(unsafe.Pointer(unsafe.SliceData(src)), off)
	if copyRunsFast(d, s, run, count, stride, stream, true) {
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
