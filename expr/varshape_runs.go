package expr

import "github.com/fstensor/fstensor/internal/layout"

// runCopy is the fast path of a one-stage plan whose view is made of
// contiguous runs of at least minRun bytes (a crop of images, a slice of
// rows), or of at most maxShortRuns runs: one copy() per run. The
// kernels' per-call set-up and unit loop cost more than such a copy when
// a row is small.
type runCopy struct {
	run     int   // bytes per run
	off     int   // byte offset of the first run in the source
	shape   []int // outer axes, outermost first
	strides []int // their byte strides in the source, of any sign
}

// minRun is the shortest run (bytes) copied run by run, unless the
// result has at most maxShortRuns runs: for a tiny result one copy() per
// run costs less than a kernel call. Results over maxRunCopy bytes go to
// the kernel, whose run copy prefetches ahead of the source (measured on a
// shared machine, uint8 images: 224x224 crops 0.58-0.76x copy() against
// 0.35-0.60x run by run; 96x96 crops, 27 KiB, better run by run: median
// 0.58x against 0.38x). A column whose whole result has at least
// streamBytes is written with non-temporal stores, as copy() writes one
// copy that large: rows of one outer axis of runs or fewer by
// layout.CopyRuns, one call per row prefetching the next row, and rows
// over maxRunCopy by Plan.RunStream (10,000 images of 32 to 64 pixels a
// side, 32x32 crops: 0.40x copy() against 0.23x; 96x96 crops of 96 to
// 160: 0.60x against 0.41x; 1,000 224x224 crops: 0.86x against 0.57x).
const (
	minRun       = 64
	streamBytes  = 1 << 20 // results of at least this many bytes are streamed
	maxShortRuns = 8
	maxRunCopy   = 64 << 10
)

func newRunCopy(p *Plan) *runCopy {
	if len(p.stages) != 1 || p.out.Size() == 0 {
		return nil
	}
	s, w := p.stages[0], p.width
	k, run := len(s.Shape), 1
	for k > 0 {
		d := s.Shape[k-1]
		if d != 1 && s.Strides[k-1] != run {
			break
		}
		run *= d
		k--
	}
	if run*w < minRun && p.out.Size()/run > maxShortRuns {
		return nil
	}
	if p.out.Size()*w > maxRunCopy {
		return nil
	}
	c := &runCopy{run: run * w, off: s.Offset * w}
	for i := range k {
		if s.Shape[i] != 1 {
			c.shape = append(c.shape, s.Shape[i])
			c.strides = append(c.strides, s.Strides[i]*w)
		}
	}
	return c
}

// run copies the runs of one row; the plan's kernel checked at compile
// time that the view stays inside the source, and copy() checks again.
func (c *runCopy) copyRuns(dst, src []byte) {
	switch len(c.shape) {
	case 0:
		copy(dst, src[c.off:c.off+c.run])
		return
	case 1:
		run, off, st := c.run, c.off, c.strides[0]
		for range c.shape[0] {
			copy(dst[:run], src[off:off+run])
			dst = dst[run:]
			off += st
		}
		return
	}
	var idx [16]int
	if len(c.shape) > len(idx) {
		panic("expr: too many outer axes")
	}
	nd := len(c.shape)
	off, o := c.off, 0
	for {
		copy(dst[o:o+c.run], src[off:off+c.run])
		o += c.run
		k := nd - 1
		for ; k >= 0; k-- {
			idx[k]++
			off += c.strides[k]
			if idx[k] < c.shape[k] {
				break
			}
			off -= idx[k] * c.strides[k]
			idx[k] = 0
		}
		if k < 0 {
			return
		}
	}
}

// streams reports whether copyRunsStream copies the runs of a row: at
// most one outer axis.
func (c *runCopy) streams() bool { return c != nil && len(c.shape) <= 1 }

// runsAt returns the runs of the row whose elements start at byte at of
// the source; c.streams() must hold.
func (c *runCopy) runsAt(at int) layout.Runs {
	r := layout.Runs{Off: at + c.off, Run: c.run, Count: 1}
	if len(c.shape) == 1 {
		r.Count, r.Stride = c.shape[0], c.strides[0]
	}
	return r
}

// streamAhead is how many rows ahead a streamed row copy prefetches (1
// to 4 measured alike on 32x32 crops).
const streamAhead = 1

// offset is the byte offset of row lo's result in a destination where the
// results lie back to back from row 0 on, a null row taking nullBytes.
func (rp *rowPlans) offset(lo, nullBytes int) int {
	off := 0
	for _, pl := range rp.plans[:lo] {
		if pl != nil {
			off += pl.outBytes
		} else {
			off += nullBytes
		}
	}
	return off
}

// run evaluates rows lo..hi-1 into dst, where the results lie back to
// back from row 0 on, a null row taking nullBytes (zeroed). Consecutive
// rows of one plan whose elements lie back to back in the column go to
// the plan in one call.
func (rp *rowPlans) run(dst []byte, lo, hi, nullBytes int) {
	if rp.computes() {
		rp.runComputed(dst, lo, hi, nullBytes)
		return
	}
	off := rp.offset(lo, nullBytes)
	w, offs, vals := rp.raw.Width, rp.raw.Offsets, rp.raw.Values
	// A result too large to stay in cache is written with non-temporal
	// stores, as copy() writes one copy of that size, though each call
	// below writes one row or a few.
	stream := rp.common != nil && rp.total*rp.common.outWidth >= streamBytes
	for i := lo; i < hi; {
		pl := rp.plans[i]
		if pl == nil {
			clear(dst[off : off+nullBytes])
			off += nullBytes
			i++
			continue
		}
		if stream && pl.streams {
			// One row with the kernel's run copy, prefetching the runs
			// of a row further on when it copies the same way.
			r := pl.sruns
			r.Off += int(offs[i]) * w
			var next layout.Runs
			if a := i + streamAhead; a < hi && rp.plans[a] != nil && rp.plans[a].streams {
				next = rp.plans[a].sruns
				next.Off += int(offs[a]) * w
			}
			layout.CopyRuns(dst[off:off+pl.outBytes], vals, r, next, true)
			off += pl.outBytes
			i++
			continue
		}
		s, in := int(offs[i]), pl.inSize
		j := i + 1
		for j < hi && rp.plans[j] == pl && int(offs[j]) == s+(j-i)*in {
			j++
		}
		k := j - i
		pl.runN(dst[off:off+k*pl.outBytes], vals[s*w:(s+k*in)*w], k, stream)
		off += k * pl.outBytes
		i = j
	}
	if stream {
		// The run copies leave their non-temporal stores unfenced.
		layout.Fence()
	}
}

// runN writes the dense results of n tensors of the plan's input shape,
// back to back in src, with non-temporal stores where the kernels allow
// when stream.
func (p *rowPlan) runN(dst, src []byte, n int, stream bool) {
	switch {
	case p.runs != nil:
		for k := range n {
			p.runs.copyRuns(dst[k*p.outBytes:(k+1)*p.outBytes], src[k*p.inBytes:(k+1)*p.inBytes])
		}
	case len(p.kernels) == 1 && stream:
		p.kernels[0].RunStream(dst, src, n, p.inSize)
	case len(p.kernels) == 1:
		p.kernels[0].Run(dst, src, n, p.inSize, 1)
	default:
		p.runStaged(dst, src, n, 1)
	}
}
