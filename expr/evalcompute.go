package expr

import (
	"runtime"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/numeric"
	"github.com/fstensor/fstensor/internal/unsafeslice"
)

// Scalar reports whether the plan's result is one value per tensor (a
// reduction that leaves no axes, a similarity): a plain Arrow array
// rather than a tensor column.
func (p *Plan) Scalar() bool { return p.comp != nil && p.comp.scalar }

// ResultType returns the type of the column Plan.Eval returns, before
// any data: the element type itself (float64 for the mean of integers,
// int64 for ArgMax...) when the result is one value per tensor
// (Plan.Scalar), and otherwise a *fixedshape.Type of the result's element
// type and metadata, dense row-major (Plan.Metadata). A tensor result
// with a size-0 dimension fails as fixedshape.NewType does, with
// arrow.ErrNotImplemented.
func (p *Plan) ResultType() (arrow.DataType, error) {
	if p.Scalar() {
		return p.comp.elem.arrow(), nil
	}
	return p.tensorType()
}

// Eval evaluates the plan over every tensor of in and returns a new
// column of Plan.ResultType allocated from the option's allocator (the
// caller releases it): a *fixedshape.Array, dense row-major, for a tensor
// result, and a plain Arrow array (such as *array.Float64) for one value
// per tensor. Null tensors give nulls (zero-filled slots). in may be a
// slice of a larger array. With WithRelabel, a view result that only
// relabels in's elements (Plan.Relabel) shares in's buffers instead,
// under a type whose permutation describes them. A computing expression
// reads each input element of its view once, through the view's strides,
// and allocates only the result and per-worker scratch.
//
// in must have the plan's input element type, logical shape and layout
// (permutation); its dimension names do not matter. Errors wrap
// arrow.ErrInvalid (a mismatched input, an invalid option), or come from
// Plan.ResultType.
func (p *Plan) Eval(in *fixedshape.Array, opts ...Option) (arrow.Array, error) {
	o, err := config(opts)
	if err != nil {
		return nil, err
	}
	if err := p.checkInput(in.TensorType()); err != nil {
		return nil, err
	}
	if p.comp == nil {
		a, err := p.evalView(in, o)
		if err != nil {
			return nil, err // not a typed nil in the interface
		}
		return a, nil
	}
	typ, err := p.ResultType()
	if err != nil {
		return nil, err
	}
	c := p.comp
	n := in.Len()
	size := c.meta.Size()
	width := c.elem.width()
	src := in.ValueBytes()
	if !unsafeslice.Aligned(src, p.width) {
		return nil, errorf("input values are not aligned to their %d-byte elements", p.width)
	}
	values := resultValues(o, n*size*width)
	defer values.Release()
	valid := validity(in, o.mem)
	if valid != nil {
		defer valid.Release()
	}
	p.runCompute(values.Bytes(), src, in, o.workers)
	var data arrow.ArrayData
	if p.Scalar() {
		data = array.NewData(typ, n, []*memory.Buffer{valid, values}, nil, in.NullN(), 0)
	} else {
		child := array.NewData(c.elem.arrow(), n*size, []*memory.Buffer{nil, values}, nil, 0, 0)
		defer child.Release()
		data = array.NewData(typ, n, []*memory.Buffer{valid}, []arrow.ArrayData{child}, in.NullN(), 0)
	}
	defer data.Release()
	return array.MakeFromData(data), nil
}

func (p *Plan) evalComputeInto(dst []byte, in *fixedshape.Array, opts []Option) error {
	o, err := config(opts)
	if err != nil {
		return err
	}
	if err := p.checkInput(in.TensorType()); err != nil {
		return err
	}
	src := in.ValueBytes()
	if !unsafeslice.Aligned(src, p.width) {
		return errorf("input values are not aligned to their %d-byte elements", p.width)
	}
	need := in.Len() * p.comp.meta.Size() * p.comp.elem.width()
	if len(dst) < need {
		return errorf("destination of %d bytes for %d bytes", len(dst), need)
	}
	if !unsafeslice.Aligned(dst, p.comp.elem.width()) {
		return errorf("destination is not aligned to its %d-byte elements", p.comp.elem.width())
	}
	p.runCompute(dst[:need], src, in, o.workers)
	return nil
}

// worker is one goroutine's scratch.
type worker struct {
	f         []float64
	i         []int64
	offs, cnt []int
	acc       *accum
	red       []byte    // the reduced values before the second pass
	sa, sb    []byte    // view stages before the last
	f32       []float32 // a float32 program's chunk
	steps     []numeric.Step
	wf        []float64 // runBlocked's accumulators, one per chunk element
	wi        []int64
	wu        []uint32
	stream    bool // write float32 results with non-temporal stores
}

func (p *Plan) newWorker() *worker {
	c := p.comp
	w := &worker{f: make([]float64, chunk), i: make([]int64, chunk), f32: make([]float32, chunk),
		wf: make([]float64, chunk), wi: make([]int64, chunk), wu: make([]uint32, chunk), steps: make([]numeric.Step, 0, 16)}
	nops, nd := len(c.nest1.st), len(c.nest1.dims)
	if c.second != nil {
		nops, nd = max(nops, len(c.nest2.st)), max(nd, len(c.nest2.dims))
	}
	w.offs, w.cnt = make([]int, nops), make([]int, nd)
	if r := c.first.red; r != nil {
		size := 1
		for _, d := range r.outShape {
			size *= d
		}
		w.acc = newAccum(r, size)
		if c.second != nil {
			w.red = make([]byte, size*r.out.width())
		}
	}
	if len(p.kernels) > 1 {
		w.sa = make([]byte, p.scratch*p.width)
		w.sb = make([]byte, p.scratch*p.width)
	}
	return w
}

// runCompute writes the result of every tensor of in to dst, split
// across workers by tensors.
func (p *Plan) runCompute(dst, src []byte, in *fixedshape.Array, workers int) {
	n := in.Len()
	if n == 0 {
		return
	}
	workers = max(1, min(workers, runtime.GOMAXPROCS(0), n))
	if n*p.inSize*p.width < 1<<20 {
		workers = 1
	}
	rowBytes := p.comp.meta.Size() * p.comp.elem.width()
	work := func(lo, hi int) {
		w, _ := p.comp.workers.Get().(*worker)
		if w == nil {
			w = p.newWorker()
		}
		defer p.comp.workers.Put(w)
		// Results of 1 MiB or more go past the caches, as copy() does.
		w.stream = n*rowBytes >= 1<<20
		if p.runFlat(w, dst, src, in, lo, hi) {
			return
		}
		for t := lo; t < hi; t++ {
			d := dst[t*rowBytes : (t+1)*rowBytes]
			if in.IsNull(t) {
				clear(d)
				continue
			}
			p.computeRow(w, d, src, t)
		}
	}
	runRows(workers, n, work)
}

// runFlat reduces tensors lo to hi of in to one value each when every
// tensor is one contiguous float32 or float64 run (uint8 for sums and
// means) folded by a vector kernel (foldMoments for Var and Std), or a
// float32 run against a float32 constant (a similarity): the loop over the
// tensors without the odometer's per-tensor set-up. It reports false, doing nothing, when the
// plan is not of that form.
func (p *Plan) runFlat(w *worker, dst, src []byte, in *fixedshape.Array, lo, hi int) bool {
	c := p.comp
	ps, nt := &c.first, &c.nest1
	r := ps.red
	if r == nil || c.second != nil || len(p.kernels) > 1 || len(nt.dims) != 1 || len(ps.prog) != 0 ||
		nt.st[opDst][0] != 0 || nt.st[opSrc][0] != 1 || ps.blocked(nt) {
		return false
	}
	n := nt.dims[0]
	kc := opK + len(nt.ks) - 1
	var ks int
	switch {
	case r.sim:
		if !r.c32 || ps.src != dtF32 {
			return false
		}
		if ks = nt.st[kc][0]; ks != 0 && ks != 1 {
			return false
		}
	case (ps.src == dtF32 || ps.src == dtF64) && (r.kind <= Max || r.kind == Norm && ps.src == dtF32 || r.kind == Var || r.kind == Std):
	case ps.src == dtU8 && r.float && (r.kind == Sum || r.kind == Mean):
	default:
		return false
	}
	rowBytes := c.meta.Size() * c.elem.width()
	var x []float32
	if ps.src == dtF32 {
		x = cast[float32](src)
	}
	if r.sim {
		p.flatSim(dst, x, in, lo, hi, n, ks)
		return true
	}
	if p.flatRows(w, dst, x, in, lo, hi, n) {
		return true
	}
	sv := view{b: src, dt: ps.src}
	a := w.acc
	for t := lo; t < hi; t++ {
		d := dst[t*rowBytes : (t+1)*rowBytes]
		if in.IsNull(t) {
			clear(d)
			continue
		}
		off := t*p.inSize + ps.offset
		a.reset(r, ps.val)
		switch {
		case r.kind == Var || r.kind == Std:
			a.foldMoments(0, sv, off, n)
		default:
			a.f[0] = foldRun(r.kind, a.f[0], sv, off, n)
		}
		a.finish(r, view{b: d, dt: c.elem})
	}
	return true
}

// computeRow evaluates tensor t of the input values src into d.
func (p *Plan) computeRow(w *worker, d, src []byte, t int) {
	c := p.comp
	base := t * p.inSize
	if len(p.kernels) > 1 {
		s := src[base*p.width : (base+p.inSize)*p.width]
		for k := range p.kernels[:len(p.kernels)-1] {
			p.kernels[k].Run(w.sa, s, 1, 0, 1)
			s = w.sa
			w.sa, w.sb = w.sb, w.sa
		}
		src, base = s, 0
	}
	out := view{b: d, dt: c.elem}
	if c.first.red == nil {
		c.first.run(&c.nest1, w, view{b: src, dt: c.first.src}, base, out, nil)
		return
	}
	w.acc.reset(c.first.red, c.first.val)
	c.first.run(&c.nest1, w, view{b: src, dt: c.first.src}, base, view{}, w.acc)
	c.finish(w, out)
}

// finish writes the reduction the first pass left in w.acc into out,
// through the second pass when there is one.
func (c *compute) finish(w *worker, out view) {
	r := c.first.red
	if c.second == nil {
		w.acc.finish(r, out)
		return
	}
	red := view{b: w.red, dt: r.out}
	w.acc.finish(r, red)
	c.second.run(&c.nest2, w, red, 0, out, nil)
}

// run sweeps the pass over one tensor: source elements from sbase of
// src, results stored to dst (dense from element 0) or reduced into acc.
func (ps *pass) run(nt *nest, w *worker, src view, sbase int, dst view, acc *accum) {
	nd := len(nt.dims)
	last := nd - 1
	offs, cnt := w.offs[:len(nt.st)], w.cnt[:nd]
	clear(offs)
	clear(cnt)
	offs[opSrc] = sbase + ps.offset
	inner := nt.dims[last]
	st := func(o int) int { return nt.st[o][last] }
	sd := st(opDst)
	r := ps.red
	if ps.blocked(nt) {
		ps.runBlocked(nt, w, src, sbase, acc)
		return
	}
	fast := acc != nil && len(ps.prog) == 0 && sd == 0 && st(opSrc) == 1 && !r.sim &&
		((ps.src == dtF32 || ps.src == dtF64) && (r.kind <= Max || r.kind == Norm && ps.src == dtF32 || r.kind == Var || r.kind == Std) ||
			ps.src == dtU8 && r.float && (r.kind == Sum || r.kind == Mean))
	kc := opK + len(nt.ks) - 1 // the similarity's constant operand
	fastSim := acc != nil && len(ps.prog) == 0 && r.sim && r.c32 && ps.src == dtF32 && st(opSrc) == 1 &&
		(st(kc) == 0 || st(kc) == 1)
	// Short contiguous float32 runs summed into one slot: added element by
	// element into w.wf, folded (pairwise) when the slot changes.
	wideFold := fast && ps.src == dtF32 && (r.kind == Sum || r.kind == Mean) && inner < chunk/4
	slot := -1
	flush := func() {
		if slot >= 0 {
			acc.f[slot] += numeric.SumF64(w.wf[:inner])
			clear(w.wf[:inner])
		}
	}
	// rows: the runs of the dim around the run that wideFold adds at once
	// (their slot is the same; their source stride positive).
	rows := 0
	if wideFold {
		clear(w.wf[:inner])
		if last >= 1 && nt.st[opDst][last-1] == 0 && nt.st[opSrc][last-1] > 0 {
			rows = nt.dims[last-1]
		}
	}
	for {
		if wideFold {
			if offs[opDst] != slot {
				flush()
				slot = offs[opDst]
			}
			if rows > 1 && cnt[last-1] == 0 {
				// The whole dim around the run goes to the same slot: add
				// its runs column by column in one kernel call, and move
				// the odometer to its last run.
				numeric.AccRowsF32(w.wf[:inner], cast[float32](src.b)[offs[opSrc]:], rows, nt.st[opSrc][last-1])
				for o := range offs {
					offs[o] += nt.st[o][last-1] * (rows - 1)
				}
				cnt[last-1] = rows - 1
			} else {
				numeric.AccF32(w.wf[:inner], cast[float32](src.b)[offs[opSrc]:offs[opSrc]+inner])
			}
		} else if fastSim {
			acc.sim.addF32(r, cast[float32](src.b)[offs[opSrc]:offs[opSrc]+inner], offs[kc], st(kc))
		} else if fast && (r.kind == Var || r.kind == Std) {
			acc.foldMoments(offs[opDst], src, offs[opSrc], inner)
		} else if fast {
			o := offs[opDst]
			acc.f[o] = foldRun(r.kind, acc.f[o], src, offs[opSrc], inner)
		} else {
			ps.runChunks(nt, w, src, dst, offs, acc)
		}
		k := last - 1
		for ; k >= 0; k-- {
			cnt[k]++
			for o := range offs {
				offs[o] += nt.st[o][k]
			}
			if cnt[k] < nt.dims[k] {
				break
			}
			for o := range offs {
				offs[o] -= nt.st[o][k] * nt.dims[k]
			}
			cnt[k] = 0
		}
		if k < 0 {
			flush()
			return
		}
	}
}

// runChunks evaluates the run at offs in the general way: through the
// float32 chain kernel when it applies, the rest in chunks of the
// instruction program, then stored into dst or folded into acc.
func (ps *pass) runChunks(nt *nest, w *worker, src view, dst view, offs []int, acc *accum) {
	last := len(nt.dims) - 1
	inner := nt.dims[last]
	st := func(o int) int { return nt.st[o][last] }
	sd := st(opDst)
	r := ps.red
	c0 := 0
	if ps.f32 && sd == 1 {
		// The whole run in one pass of the chain kernel when it
		// applies; the chunks below do the rest.
		o := offs[opDst]
		c0 = ps.chainF32(nt, w, src, cast[float32](dst.b)[o:o+inner], offs, 0)
	}
	for ; c0 < inner; c0 += chunk {
		n := min(chunk, inner-c0)
		if ps.f32 && sd == 1 {
			ps.runF32(nt, w, src, dst, offs, c0, n)
			continue
		}
		f, i := w.f[:n], w.i[:n]
		src.load(f, i, offs[opSrc]+c0*st(opSrc), st(opSrc))
		o := opK
		for k := range ps.prog {
			in := &ps.prog[k]
			ko, ks := 0, 0
			if in.k != nil {
				ko, ks = offs[o]+c0*st(o), st(o)
				o++
			}
			in.exec(f, i, ko, ks)
		}
		if acc == nil {
			dst.store(f, i, offs[opDst]+c0*sd, sd)
			continue
		}
		ko, ks := 0, 0
		if r.c != nil {
			ko, ks = offs[o]+c0*st(o), st(o)
		}
		acc.add(r, ps.val, f, i, offs[opDst]+c0*sd, sd, offs[opArg]+c0*st(opArg), st(opArg), ko, ks)
	}
}

// blocked reports whether a reduction's runs are short scatters (the
// innermost dim is kept, the one around it reduced, such as the channels
// of an image's mean over height and width) that runBlocked handles many
// at a time: contiguous in the source across the two dims, with constants
// that do not vary over them.
func (ps *pass) blocked(nt *nest) bool {
	r, nd := ps.red, len(nt.dims)
	if r == nil || r.sim || r.kind == ArgMax || r.kind == ArgMin || nd < 2 || nt.dims[nd-1] >= chunk/4 {
		return false
	}
	i, j := nd-2, nd-1
	if nt.st[opDst][i] != 0 || nt.st[opDst][j] == 0 || nt.st[opSrc][i] != nt.st[opSrc][j]*nt.dims[j] {
		return false
	}
	for o := opK; o < len(nt.st); o++ {
		if nt.st[o][i] != 0 || nt.st[o][j] != 0 {
			return false
		}
	}
	return true
}

// runBlocked runs a blocked reduction: the dims but the last two by the
// odometer, and the last two as chunks of whole runs, each element added
// to the slot of its position in the run.
func (ps *pass) runBlocked(nt *nest, w *worker, src view, sbase int, acc *accum) {
	nd := len(nt.dims)
	offs, cnt := w.offs[:len(nt.st)], w.cnt[:nd]
	clear(offs)
	clear(cnt)
	offs[opSrc] = sbase + ps.offset
	inner, outer := nt.dims[nd-1], nt.dims[nd-2]
	ss, sd := nt.st[opSrc][nd-1], nt.st[opDst][nd-1]
	per := chunk / inner // runs per chunk
	r := ps.red
	wide := r.kind == Sum || r.kind == Mean || r.kind == Norm
	// Bytes add into 32-bit accumulators (no overflow: a row has fewer
	// than 2^31 elements, so a slot takes fewer than 2^21 bytes).
	bytes := wide && r.kind != Norm && ss == 1 && ps.src == dtU8 && len(ps.prog) == 0
	// Contiguous float32 rows of at least 16 elements add column by column
	// in registers, all the rows at once.
	rowsF32 := wide && ss == 1 && ps.src == dtF32 && len(ps.prog) == 0 && r.float && r.kind != Norm && inner >= 16
	used := min(per, outer) * inner
	for {
		if bytes && inner <= maxU8Channels {
			// The whole run of outer*inner bytes summed by channel at once,
			// the totals folded as the chunks' are below.
			so := offs[opSrc]
			sumU8Channels(w.wi[:inner], src.b[so:so+outer*inner])
			acc.foldWide(r, ps.val, w.wf, w.wi, inner, offs[opDst], sd, inner)
			if !nextOuter(nt, offs, cnt) {
				return
			}
			continue
		}
		if rowsF32 {
			x := cast[float32](src.b)[offs[opSrc]:]
			if o := offs[opDst]; sd == 1 {
				// Straight into the slots.
				numeric.AccRowsF32(acc.f[o:o+inner], x, outer, inner)
			} else {
				clear(w.wf[:inner])
				numeric.AccRowsF32(w.wf[:inner], x, outer, inner)
				acc.foldWide(r, ps.val, w.wf, w.wi, inner, o, sd, inner)
			}
			if !nextOuter(nt, offs, cnt) {
				return
			}
			continue
		}
		if wide {
			clear(w.wf[:used])
			clear(w.wi[:used])
			clear(w.wu[:used])
		}
		for b := 0; b < outer; b += per {
			m := min(per, outer-b) * inner
			if bytes {
				so := offs[opSrc] + b*inner
				numeric.AccU8(w.wu[:m], src.b[so:so+m])
				continue
			}
			if wide && ss == 1 && ps.src == dtF32 && len(ps.prog) == 0 && r.float && r.kind != Norm {
				so := offs[opSrc] + b*inner
				numeric.AccF32(w.wf[:m], cast[float32](src.b)[so:so+m])
				continue
			}
			f, i := w.f[:m], w.i[:m]
			src.load(f, i, offs[opSrc]+b*inner*ss, ss)
			o := opK
			for k := range ps.prog {
				in := &ps.prog[k]
				ko := 0
				if in.k != nil {
					ko = offs[o]
					o++
				}
				in.exec(f, i, ko, 0)
			}
			if wide {
				acc.addWide(r, ps.val, f, i, w.wf, w.wi)
			} else {
				acc.addPeriodic(r, ps.val, f, i, offs[opDst], sd, inner)
			}
		}
		if bytes {
			for j, v := range w.wu[:min(per, outer)*inner] {
				w.wi[j] += int64(v)
			}
		}
		if wide {
			acc.foldWide(r, ps.val, w.wf, w.wi, used, offs[opDst], sd, inner)
		}
		if !nextOuter(nt, offs, cnt) {
			return
		}
	}
}

// nextOuter moves runBlocked's odometer (the dims but the last two) one
// step; it reports false past the end.
func nextOuter(nt *nest, offs, cnt []int) bool {
	for k := len(nt.dims) - 3; k >= 0; k-- {
		cnt[k]++
		for o := range offs {
			offs[o] += nt.st[o][k]
		}
		if cnt[k] < nt.dims[k] {
			return true
		}
		for o := range offs {
			offs[o] -= nt.st[o][k] * nt.dims[k]
		}
		cnt[k] = 0
	}
	return false
}

// foldRun folds a contiguous run of n float32 or float64 source elements
// from element off into the accumulator value a of a Sum, Mean, Min or
// Max, or the squares of a float32 run into a Norm.
func foldRun(kind Reduction, a float64, src view, off, n int) float64 {
	var v float64
	switch {
	case src.dt == dtU8:
		return a + float64(numeric.SumU8(src.b[off:off+n]))
	case kind == Norm:
		return a + numeric.SumSqF32(cast[float32](src.b)[off:off+n])
	case kind == Sum || kind == Mean:
		if src.dt == dtF32 {
			return a + numeric.SumF32(cast[float32](src.b)[off:off+n])
		}
		return a + numeric.SumF64(cast[float64](src.b)[off:off+n])
	case src.dt == dtF32 && kind == Max:
		v = float64(numeric.MaxF32(cast[float32](src.b)[off : off+n]))
	case src.dt == dtF32:
		v = float64(numeric.MinF32(cast[float32](src.b)[off : off+n]))
	case kind == Max:
		v = numeric.MaxF64(cast[float64](src.b)[off : off+n])
	default:
		v = numeric.MinF64(cast[float64](src.b)[off : off+n])
	}
	if v != v || kind == Max && v > a || kind == Min && v < a {
		return v
	}
	return a
}
