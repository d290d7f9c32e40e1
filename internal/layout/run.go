package layout

import (
	"fmt"
	"runtime"
	"sync"
	"unsafe"
)

// Tuning constants. A work unit is one run of the innermost axis (or a
// piece of it) for the contiguous and gather kernels, and one band of tile
// rows for the transpose kernel.
const (
	chunkBytes    = 256 << 10 // longest piece of one run handled as a unit
	parallelBytes = 1 << 20   // do not start goroutines below this many bytes per worker
	// A batch that writes at least streamBytes in all writes its
	// contiguous runs of at least streamMin bytes, and its 3-channel
	// interleaves of 4-byte elements, with non-temporal stores (where
	// the build has them), as copy() does for one copy of at least 1 MiB:
	// the destination is written once, in order, and is too large to
	// stay in cache.
	streamBytes = 1 << 20
	streamMin   = 1 << 10
)

// Tuning of the run-copy kernel (variables so that tests can vary them):
// the prefetch distance in bytes of run data, and the shortest run written
// with non-temporal stores.
var (
	runsAhead = 4096
	runsNTMin = 32
)

// Run copies n tensors: tensor i of the source starts at element
// i*srcStride of src and its view (the plan's shape, strides and offset) is
// written densely to dst at element i*Size(). Run uses up to workers
// goroutines (at most GOMAXPROCS; workers <= 1 runs on the calling
// goroutine) and does not allocate when it runs on one.
//
// It panics if dst is shorter than n*Size() elements or if some tensor's
// view reaches outside src: callers check bounds first, as with slices.
func (p *Plan) Run(dst, src []byte, n, srcStride, workers int) {
	p.runChecked(dst, src, n, srcStride, workers, false)
}

// RunStream is Run on the calling goroutine for a caller whose whole job
// (many calls, such as one per row of a column of variable-shape tensors)
// writes at least 1 MiB: it writes with non-temporal stores and prefetches
// as Run does for one batch of that size, whatever this call's size. The
// stores are fenced before it returns.
func (p *Plan) RunStream(dst, src []byte, n, srcStride int) {
	p.runChecked(dst, src, n, srcStride, 1, true)
}

func (p *Plan) runChecked(dst, src []byte, n, srcStride, workers int, stream bool) {
	if n <= 0 || p.size == 0 {
		return
	}
	if p.factor > 1 {
		s, ok := mulOK(srcStride, p.factor)
		if !ok {
			panic(fmt.Sprintf("layout: source stride %d overflows", srcStride))
		}
		srcStride = s
	}
	w := p.width
	// The bounds are the only guard of the unsafe loops, so their
	// arithmetic is checked: a product that wrapped around (easily on a
	// 32-bit platform) would pass them.
	elems, ok := mulOK(n, p.size)
	need, ok2 := mulOK(elems, w)
	if !ok || !ok2 || len(dst) < need {
		panic(fmt.Sprintf("layout: destination of %d bytes for %d tensors of %d %d-byte elements", len(dst), n, p.size, w))
	}
	if srcStride < 0 {
		panic("layout: negative source stride")
	}
	reach, ok := mulOK(n-1, srcStride)
	if !ok || reach > len(src)/w-1-p.maxOff {
		panic(fmt.Sprintf("layout: source of %d bytes, view of tensor %d at stride %d reads past it", len(src), n-1, srcStride))
	}
	if uintptr(unsafe.Pointer(unsafe.SliceData(src)))%uintptr(w) != 0 || uintptr(unsafe.Pointer(unsafe.SliceData(dst)))%uintptr(w) != 0 {
		// Misaligned buffers (never produced by Arrow or Go slices of
		// the element type) go through the byte-array element types.
		p.run(dst, src, n, srcStride, workers, false, stream)
		return
	}
	p.run(dst, src, n, srcStride, workers, true, stream)
}

// job is one batch copy split into units.
type job struct {
	d       dims
	k       kind
	ax      int  // transpose: the stride-1 source axis
	units   int  // total work units
	perRow  int  // units per outer row (chunks or bands)
	band    int  // transpose: rows of the stride-1 source axis per band
	inner   int  // contiguous/gather: elements per chunk
	stream  bool // large: write with non-temporal stores where the loops can
	width   int
	aligned bool
	dst     unsafe.Pointer
	src     unsafe.Pointer
	// outer axes (all but the kernel's inner axes), outermost first
	orank   int
	oshape  [MaxRank]int
	osrc    [MaxRank]int
	odst    [MaxRank]int
	ssrcOff int // element offset of the first tensor's view
}

func (p *Plan) run(dst, src []byte, n, srcStride, workers int, aligned, stream bool) {
	var j job
	j.width, j.aligned = p.width, aligned
	j.dst = unsafe.Pointer(unsafe.SliceData(dst))
	j.src = unsafe.Pointer(unsafe.SliceData(src))
	j.ssrcOff = p.offset
	// Prepend the batch axis and merge it when contiguous.
	d := &j.d
	if n > 1 {
		if p.d.rank > 0 && srcStride == p.d.shape[0]*p.d.src[0] {
			*d = p.d
			d.shape[0] *= n
		} else if p.d.rank == 0 && srcStride == 1 {
			d.rank, d.shape[0], d.src[0] = 1, n, 1
		} else {
			d.rank = p.d.rank + 1
			d.shape[0], d.src[0] = n, srcStride
			copy(d.shape[1:d.rank], p.d.shape[:p.d.rank])
			copy(d.src[1:d.rank], p.d.src[:p.d.rank])
		}
	} else {
		*d = p.d
	}
	d.fillDst()
	if d.rank == 0 { // one element per tensor, one tensor
		d.rank, d.shape[0], d.src[0], d.dst[0] = 1, 1, 1, 1
	}
	j.k = d.kind()
	r := d.rank
	total := 1
	for i := 0; i < r; i++ {
		total *= d.shape[i]
	}
	switch j.k {
	case kindTranspose:
		j.ax = d.unitAxis()
		j.band = bandRows(j.width)
		j.perRow = (d.shape[j.ax] + j.band - 1) / j.band
		for i := 0; i < r; i++ {
			if i != j.ax && i != r-1 {
				j.addOuter(d.shape[i], d.src[i], d.dst[i])
			}
		}
	default:
		inner := d.shape[r-1]
		j.inner = max(1, chunkBytes/j.width)
		if inner <= j.inner {
			j.inner = inner
		}
		j.perRow = (inner + j.inner - 1) / j.inner
		for i := 0; i < r-1; i++ {
			j.addOuter(d.shape[i], d.src[i], d.dst[i])
		}
	}
	j.stream = stream || total*j.width >= streamBytes
	j.units = j.perRow
	for i := 0; i < j.orank; i++ {
		j.units *= j.oshape[i]
	}
	workers = min(workers, runtime.GOMAXPROCS(0), j.units, total*j.width/parallelBytes)
	if workers <= 1 {
		j.do(0, j.units)
		return
	}
	// The goroutines share a heap copy: j itself stays on the stack, so
	// that a run on one goroutine allocates nothing.
	jp := new(job)
	*jp = j
	jp.parallel(workers)
}

// parallel splits the units of j into workers contiguous ranges, runs all
// but the last on new goroutines and the last on the caller's, and waits.
func (j *job) parallel(workers int) {
	var wg sync.WaitGroup
	per, extra := j.units/workers, j.units%workers
	lo := 0
	for i := range workers {
		hi := lo + per
		if i < extra {
			hi++
		}
		if i == workers-1 {
			j.do(lo, hi)
			break
		}
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			j.do(lo, hi)
		}(lo, hi)
		lo = hi
	}
	wg.Wait()
}

func (j *job) addOuter(n, s, d int) {
	j.oshape[j.orank], j.osrc[j.orank], j.odst[j.orank] = n, s, d
	j.orank++
}

// copyRun copies n bytes of a contiguous run from s to t, with
// non-temporal stores for a large batch.
func (j *job) copyRun(t, s unsafe.Pointer, n int) {
	if j.stream {
		streamCopy(t, s, n)
	} else {
		copy(unsafe.Slice((*byte)(t), n), unsafe.Slice((*byte)(s), n))
	}
}

// do runs units [lo, hi).
func (j *job) do(lo, hi int) {
	switch {
	case j.width == 1:
		doT[uint8](j, lo, hi)
	case j.width == 2 && j.aligned:
		doT[uint16](j, lo, hi)
	case j.width == 4 && j.aligned:
		doT[uint32](j, lo, hi)
	case j.width == 8 && j.aligned:
		doT[uint64](j, lo, hi)
	case j.width == 2:
		doT[[2]byte](j, lo, hi)
	case j.width == 4:
		doT[[4]byte](j, lo, hi)
	default:
		doT[[8]byte](j, lo, hi)
	}
}

// elem is the set of element types the loops move: one per width, plus
// byte arrays (alignment 1) for misaligned buffers.
type elem interface {
	uint8 | uint16 | uint32 | uint64 | [2]byte | [4]byte | [8]byte
}

// alongLast runs units [lo, hi) of a job of one unit per outer row
// (perRow 1), the odometer idx at lo and so and do its source and
// destination offsets: f(so, do, cnt) handles cnt units along the
// innermost outer axis from offsets so and do, a call per row of runs.
func (j *job) alongLast(lo, hi int, idx *[MaxRank]int, so, do int, f func(so, do, cnt int)) {
	last := j.orank - 1
	for u := lo; u < hi; {
		cnt := min(hi-u, j.oshape[last]-idx[last])
		f(so, do, cnt)
		u += cnt
		idx[last] += cnt
		so += cnt * j.osrc[last]
		do += cnt * j.odst[last]
		for i := last; i >= 0 && idx[i] == j.oshape[i]; i-- {
			so -= idx[i] * j.osrc[i]
			do -= idx[i] * j.odst[i]
			idx[i] = 0
			if i > 0 {
				idx[i-1]++
				so += j.osrc[i-1]
				do += j.odst[i-1]
			}
		}
	}
}

// doT runs units [lo, hi) of j with elements of type E: an odometer over
// the outer axes, started once at lo and advanced unit by unit.
func doT[E elem](j *job, lo, hi int) {
	if lo >= hi {
		return
	}
	var idx [MaxRank]int
	row, part := lo/j.perRow, lo%j.perRow
	so, do := j.ssrcOff, 0
	for i := j.orank - 1; i >= 0; i-- {
		n := j.oshape[i]
		idx[i] = row % n
		row /= n
		so += idx[i] * j.osrc[i]
		do += idx[i] * j.odst[i]
	}
	d := &j.d
	r := d.rank
	var esz E
	w := int(unsafe.Sizeof(esz))
	if j.k == kindContig && j.perRow == 1 && j.orank > 0 {
		// Whole runs (a row, an index, a slice of rows): a tight loop
		// along the innermost outer axis, the odometer once per row of
		// runs.
		last := j.orank - 1
		m := d.shape[r-1] * w
		j.alongLast(lo, hi, &idx, so, do, func(so, do, cnt int) {
			if !copyRunsFast(unsafe.Add(j.dst, do*w), unsafe.Add(j.src, so*w), m, cnt, j.osrc[last]*w, j.stream, false) {
				for c := range cnt {
					j.copyRun(unsafe.Add(j.dst, (do+c*j.odst[last])*w), unsafe.Add(j.src, (so+c*j.osrc[last])*w), m)
				}
			}
		})
		return
	}
	if j.k == kindGather && j.perRow == 1 && j.orank > 0 && d.shape[r-1] >= 2 && d.shape[r-1] <= smallGather {
		// Short strided runs (the channels of a pixel reversed, every
		// other element of a pair): one call per row of runs.
		last := j.orank - 1
		m, ss := d.shape[r-1], d.src[r-1]
		j.alongLast(lo, hi, &idx, so, do, func(so, do, cnt int) {
			gatherShort[E](unsafe.Add(j.dst, do*w), unsafe.Add(j.src, so*w), m, ss, cnt, j.odst[last], j.osrc[last])
		})
		return
	}
	for u := lo; u < hi; u++ {
		switch j.k {
		case kindContig:
			a := part * j.inner
			m := min(j.inner, d.shape[r-1]-a)
			s := unsafe.Add(j.src, (so+a)*w)
			t := unsafe.Add(j.dst, (do+a)*w)
			j.copyRun(t, s, m*w)
		case kindGather:
			a := part * j.inner
			m := min(j.inner, d.shape[r-1]-a)
			ss := d.src[r-1]
			gather[E](unsafe.Add(j.dst, (do+a)*w), unsafe.Add(j.src, (so+a*ss)*w), m, ss)
		case kindTranspose:
			a := part * j.band
			m := min(j.band, d.shape[j.ax]-a)
			transpose[E](unsafe.Add(j.dst, (do+a*d.dst[j.ax])*w), unsafe.Add(j.src, (so+a)*w),
				m, d.shape[r-1], d.dst[j.ax], d.src[r-1], j.stream)
		}
		part++
		if part == j.perRow {
			part = 0
			for i := j.orank - 1; i >= 0; i-- {
				idx[i]++
				so += j.osrc[i]
				do += j.odst[i]
				if idx[i] < j.oshape[i] {
					break
				}
				so -= idx[i] * j.osrc[i]
				do -= idx[i] * j.odst[i]
				idx[i] = 0
			}
		}
	}
}
