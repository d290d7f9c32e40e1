package expr

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/unsafeslice"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/varshape"
)

// Computing expressions over variable-shape columns: each row goes
// through the computing plan of its shape (the fixed-shape machinery of
// evalcompute.go, one tensor at a time), into a plain column of one value
// per row, a fixed-shape column or a variable-shape one.

// computeAxes is resultAxes for the computing operations: the sizes of
// n's result axes, [varshape.Varies] for those that depend on the input's
// free sizes, from those of its operand (in), and whether the result's
// names are still independent of the free sizes.
func computeAxes(n *node, in []int, stable bool) ([]int, bool) {
	switch n.op {
	case opArith:
		if n.c.scalar() {
			return in, stable
		}
		out := broadcastVar(in, n.c.shape)
		// The names stay only when the shape does (keepNames): a free
		// axis broadcast to the constant's size keeps them on the rows
		// of that size and not on those of size 1.
		return out, stable && slices.Equal(out, in)
	case opReduce:
		red, err := reducedAxes(n.axes, len(in))
		if err != nil { // not reached: n is valid
			break
		}
		out := []int{}
		for ax, d := range in {
			switch {
			case !red[ax]:
				out = append(out, d)
			case n.keep:
				out = append(out, 1)
			}
		}
		return out, stable
	case opSim:
		return []int{}, stable
	case opAstype, opClip, opAbs, opSqrt:
		return in, stable
	}
	// Not reached.
	return slices.Repeat([]int{varshape.Varies}, n.meta.NDim()), false
}

// broadcastVar is broadcast for a shape a whose free axes are
// varshape.Varies against a constant's shape c (n was valid on a
// template, so the fixed axes broadcast): a free axis against a size
// other than 1 takes that size (a row of another size fails).
func broadcastVar(a, c []int) []int {
	nd := max(len(a), len(c))
	out := make([]int, nd)
	for k := range nd {
		i, j := k-(nd-len(a)), k-(nd-len(c))
		switch {
		case i < 0:
			out[k] = c[j]
		case j < 0 || c[j] == 1:
			out[k] = a[i]
		default:
			out[k] = c[j]
		}
	}
	return out
}

// computes reports whether the rows' plans compute.
func (rp *rowPlans) computes() bool { return rp.common != nil && rp.common.comp != nil }

// checkComputeInput checks that the values of a computing plan's column
// are aligned to their elements, as the computing kernels read them.
func (rp *rowPlans) checkComputeInput() error {
	if rp.computes() && !unsafeslice.Aligned(rp.raw.Values, rp.raw.Width) {
		return errorf("input values are not aligned to their %d-byte elements", rp.raw.Width)
	}
	return nil
}

// runComputed is rowPlans.run for computing plans: rows lo..hi-1 into
// dst, where the results lie back to back from row 0 on, a null row
// taking nullBytes (zeroed). Consecutive rows of one plan share a worker.
func (rp *rowPlans) runComputed(dst []byte, lo, hi, nullBytes int) {
	off := rp.offset(lo, nullBytes)
	w, offs, vals := rp.raw.Width, rp.raw.Offsets, rp.raw.Values
	var cur *rowPlan
	var wk *worker
	defer func() {
		if wk != nil {
			cur.comp.workers.Put(wk)
		}
	}()
	for i := lo; i < hi; i++ {
		pl := rp.plans[i]
		if pl == nil {
			clear(dst[off : off+nullBytes])
			off += nullBytes
			continue
		}
		if pl != cur {
			if wk != nil {
				cur.comp.workers.Put(wk)
			}
			cur, wk = pl, pl.worker()
		}
		s := int(offs[i]) * w
		pl.computeTensor(wk, dst[off:off+pl.outBytes], vals[s:s+pl.inBytes])
		off += pl.outBytes
	}
}

// worker returns a worker of p's computing plan, from its pool when it
// has one; the caller puts it back.
func (p *Plan) worker() *worker {
	w, _ := p.comp.workers.Get().(*worker)
	if w == nil {
		w = p.newWorker()
	}
	// Rows are written a few at a time, through the caches.
	w.stream = false
	return w
}

// computeTensor evaluates the computing plan p over the one tensor src
// (its input elements) into d. A view of no element reduces nothing: an
// empty sum is 0, an empty mean NaN (the reductions without identity
// fail when the plan is built).
func (p *Plan) computeTensor(w *worker, d, src []byte) {
	c := p.comp
	if len(d) == 0 {
		return
	}
	if !emptyShape(c.first.shape) {
		p.computeRow(w, d, src, 0)
		return
	}
	r := c.first.red
	if r == nil { // not reached: an element-wise result of no element is empty
		clear(d)
		return
	}
	w.acc.reset(r, c.first.val)
	c.finish(w, view{b: d, dt: c.elem})
}

func emptyShape(shape []int) bool { return slices.Contains(shape, 0) }

// evalScalar writes every row's one value into a plain column of type
// typ (the result element type); null rows are null, zero-filled.
func (p *varPlan) evalScalar(in *varshape.Array, rp rowPlans, typ arrow.DataType, o options) (arrow.Array, error) {
	n := in.Len()
	for i, pl := range rp.plans {
		if pl == nil {
			continue
		}
		if !pl.Scalar() || !arrow.TypeEqual(pl.resElem, typ) {
			return nil, errorf("row %d of %d: the result is %s %v, not one %v per row", i, n, metadata.FormatShape(pl.res.Shape()), pl.resElem, typ)
		}
	}
	ft, ok := typ.(arrow.FixedWidthDataType)
	if !ok || ft.BitWidth() < 8 {
		return nil, errorf("a result column of %v: want a tensor type or a numeric type", typ)
	}
	width := ft.BitWidth() / 8
	values := memory.NewResizableBuffer(o.mem)
	defer values.Release()
	values.Resize(n * width)
	dst := values.Bytes()
	runRows(o.workers, n, func(lo, hi int) { rp.run(dst, lo, hi, width) })
	valid := validity(in, o.mem)
	if valid != nil {
		defer valid.Release()
	}
	data := array.NewData(typ, n, []*memory.Buffer{valid, values}, nil, in.NullN(), 0)
	defer data.Release()
	return array.MakeFromData(data), nil
}

// rowShape formats a row's logical shape from its physical one, for
// errors.
func (p *varPlan) rowShape(phys []int32) string {
	s := make([]int, len(phys))
	for i, d := range phys {
		s[i] = int(d)
	}
	if m, err := p.typ.RowMetadata(s); err == nil {
		return metadata.FormatShape(m.Shape())
	}
	return metadata.FormatShape(s)
}

// isTensorType reports whether dt is a fixed- or variable-shape tensor
// type, rather than the plain type of one value per row.
func isTensorType(dt arrow.DataType) bool {
	if _, ok := dt.(*fixedshape.Type); ok {
		return true
	}
	_, ok := varshape.TypeOf(dt)
	return ok
}
