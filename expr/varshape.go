package expr

import (
	"encoding/binary"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/layout"
	"github.com/fstensor/fstensor/internal/unsafeslice"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/stride"
	"github.com/fstensor/fstensor/varshape"
)

// varPlan evaluates one expression over variable-shape columns: the
// expression is rebuilt for each distinct row shape and compiled once per
// shape into a [Plan], kept in a cache. Views and computing expressions
// alike: each row's result is that of the row alone as a fixed-shape
// column. It is safe for concurrent use.
type varPlan struct {
	build func(x Expr) (Expr, error)
	typ   *varshape.Type
	mu    sync.Mutex
	plans map[string]*rowPlan // by physical row shape
	// slots caches the plans of up to 4-D shapes, direct-mapped by a hash
	// of the shape, read without the lock: a row finds its plan without a
	// lock, a map or an allocation.
	slots *[planSlots]atomic.Pointer[planSlot]
}

// planSlot is one entry of varPlan.slots, immutable once stored.
type planSlot struct {
	shape [4]int32
	pl    *rowPlan
}

// rowPlan is the compiled plan of one row shape, with its run-copy fast
// path when it has one.
type rowPlan struct {
	// The fields read for every row come first, on two cache lines: the
	// plans of a large column are read with its data streaming through
	// the caches.
	inSize   int         // elements of one input row
	inBytes  int         // bytes of one input row
	outBytes int         // bytes of one result
	outSize  int         // elements of one result
	outWidth int         // bytes per result element
	sruns    layout.Runs // runs of a row from its first byte, when streams
	streams  bool        // runs.streams(): a streamed row is one CopyRuns
	outND    int         // the result's number of axes, -1 when more than 4
	outShape [4]int32    // its shape when it has at most 4 axes
	entry    planSlot    // this plan's entry of varPlan.slots
	*Plan
	runs *runCopy // nil: use the plan's kernels
	// The result's metadata and element type: the view's, or the
	// computing operations' (Plan.Metadata).
	res     metadata.Metadata
	resElem arrow.DataType
}

// sameOut reports whether p's and q's results have the same shape.
func (p *rowPlan) sameOut(q *rowPlan) bool {
	if p.outND >= 0 && q.outND >= 0 {
		return p.outND == q.outND && p.outShape == q.outShape
	}
	return sameShape(p.res, q.res)
}

// compileVar returns the plan of e over columns of typ. e is built on any
// input with typ's element type and number of dimensions (its input shape
// is only a template): each row evaluates the same chain of operations on
// an input of the row's shape, names and permutation, so `x[:224, :224]`
// crops every row and `x[17]` fails on the rows with 17 rows or fewer.
// It fails with an error wrapping arrow.ErrInvalid when e's input has
// another element type or number of dimensions.
func compileVar(e Expr, typ *varshape.Type) (*varPlan, error) {
	if e.node().g != nil {
		return nil, errGraphPlan
	}
	in := e.node()
	for in.x != nil {
		in = in.x
	}
	if !arrow.TypeEqual(in.elem, typ.ElemType()) || in.in.NDim() != typ.NDim() {
		return nil, errorf("expression over %d-D %v tensors for a column of %d-D %v tensors", in.in.NDim(), in.elem, typ.NDim(), typ.ElemType())
	}
	n := e.node()
	return newVarPlan(typ, func(x Expr) (Expr, error) {
		y := rebind(n, x)
		return y, Check(y)
	}), nil
}

func newVarPlan(typ *varshape.Type, build func(Expr) (Expr, error)) *varPlan {
	return &varPlan{build: build, typ: typ, plans: make(map[string]*rowPlan), slots: new([planSlots]atomic.Pointer[planSlot])}
}

// planSlots is the size of varPlan's direct-mapped plan cache.
const planSlots = 4093

// hashShape mixes a shape of up to 4 dimensions into a cache slot hash.
func hashShape(k [4]int32) uint32 {
	h := uint32(k[0])*0x9E3779B1 ^ uint32(k[1])*0x85EBCA77 ^ uint32(k[2])*0xC2B2AE3D ^ uint32(k[3])*0x27D4EB2F
	return h ^ h>>15
}

// shapeKey appends the cache key of a physical shape to dst.
func shapeKey(dst []byte, shape []int32) []byte {
	for _, d := range shape {
		dst = binary.LittleEndian.AppendUint32(dst, uint32(d))
	}
	return dst
}

// Plan returns the plan of rows of the given physical shape (as stored in
// the column's shape child), compiling it on first use. Errors wrap
// arrow.ErrInvalid: a shape the type refuses, or the expression's error on
// that shape (an index out of bounds, an impossible reshape).
func (p *varPlan) Plan(physicalShape []int) (*Plan, error) {
	s32 := make([]int32, len(physicalShape))
	for i, d := range physicalShape {
		if d < 0 || d > math.MaxInt32 {
			return nil, errorf("shape %s is not a tensor shape", metadata.FormatShape(physicalShape))
		}
		s32[i] = int32(d)
	}
	rp, err := p.plan(shapeKey(nil, s32), s32)
	if err != nil {
		return nil, err
	}
	return rp.Plan, nil
}

func (p *varPlan) plan(key []byte, shape []int32) (*rowPlan, error) {
	p.mu.Lock()
	pl, ok := p.plans[string(key)]
	p.mu.Unlock()
	if ok {
		return pl, nil
	}
	phys := make([]int, len(shape))
	for i, d := range shape {
		phys[i] = int(d)
	}
	m, err := p.typ.RowMetadata(phys)
	if err != nil {
		return nil, errorf("%v", err)
	}
	e, err := p.build(InputOf(p.typ.ElemType(), m))
	if err != nil {
		return nil, err
	}
	c, err := CompilePlan(e)
	if err != nil {
		return nil, err
	}
	out, ow, elem := c.out, c.width, c.elem
	var runs *runCopy
	if c.comp != nil {
		out, ow, elem = c.comp.meta, c.comp.elem.width(), c.comp.elem.arrow()
	} else {
		runs = newRunCopy(c)
	}
	pl = &rowPlan{Plan: c, runs: runs, inBytes: c.inSize * c.width, outBytes: out.Size() * ow, outSize: out.Size(), outWidth: ow, res: out, resElem: elem}
	copy(pl.entry.shape[:], shape)
	pl.entry.pl = pl
	pl.inSize = c.inSize
	if pl.streams = pl.runs.streams(); pl.streams {
		pl.sruns = pl.runs.runsAt(0)
	}
	pl.outND = -1
	if nd := out.NDim(); nd <= len(pl.outShape) {
		pl.outND = nd
		for k := range nd {
			pl.outShape[k] = int32(out.Dim(k))
		}
	}
	p.mu.Lock()
	p.plans[string(key)] = pl
	p.mu.Unlock()
	return pl, nil
}

// Eval evaluates the plan over every row of in, which must be of the
// plan's type (its names and uniform shape may differ), and returns a new
// column allocated from the option's allocator; the caller releases it.
// The result is a *fixedshape.Array when every valid row's result has the
// same shape with at least one element (a center crop of images that are
// all large enough), and a *varshape.Array of dense row-major rows
// otherwise. A computing expression whose result has no axes left (a full
// reduction, a similarity: [Plan.Scalar]) gives a plain Arrow array of
// its element type, one value per row. Null rows stay null (zero-filled
// in a fixed-shape or plain result, empty in a variable-shape one). An
// error wraps arrow.ErrInvalid and names the row, out of how many, with
// the expression's error for that row's shape (for an index, NumPy's
// wording names the axis; an empty reduction without identity, a
// constant that does not broadcast) and the row's logical shape.
//
// A column whose rows are all null has no row to infer the result shape
// from: the result is then computed for the uniform shape when the type
// has a complete one, is a column of nulls of [varPlan.ResultType] when
// that is one value per row, and is an error otherwise.
func (p *varPlan) Eval(in *varshape.Array, opts ...Option) (arrow.Array, error) {
	o, err := config(opts)
	if err != nil {
		return nil, err
	}
	rp, err := p.planRows(in, true)
	if err == nil && rp.common == nil {
		// No valid row: one value per row needs no shape.
		if rt, err := p.ResultType(); err == nil && !isTensorType(rt) {
			return p.EvalAs(rt, in, opts...)
		}
		rp, err = p.planRows(in, false)
	}
	if err != nil {
		return nil, err
	}
	common := rp.common
	if common.Scalar() {
		return p.evalScalar(in, rp, common.resElem, o)
	}
	if rp.uniform && common.res.Size() > 0 {
		typ, err := common.tensorType()
		if err != nil {
			return nil, err
		}
		return p.evalFixed(in, rp, typ, o)
	}
	ond := common.res.NDim()
	if ond == 0 { // not reached: 0-D results all have the shape () and one element
		return nil, errorf("0-D results cannot make a variable-shape column")
	}
	names := common.res.DimNames()
	for _, pl := range rp.plans {
		if pl != nil && pl != common && !sameNames(pl.res, common.res) {
			names = nil
			break
		}
	}
	typ, err := varshape.NewType(common.resElem, ond, varshape.Options{DimNames: names})
	if err != nil {
		return nil, err
	}
	return p.evalVar(in, rp, typ, o)
}

// EvalAs is Eval into a column of type typ, chosen beforehand (by
// [varPlan.ResultType], or a fixed shape the caller expects), so that
// every batch of a stream makes columns of one type:
//
//   - a *fixedshape.Type: every valid row's result must have its shape
//     (logical, dense row-major: no permutation) and element type; an
//     error names the first row whose result differs. Null rows are
//     null, zero-filled. typ's dimension names label the result.
//   - a *varshape.Type of the result's element type and number of
//     dimensions, without permutation: rows are stored dense row-major
//     and must fit its uniform shape. It is a variable-shape column even
//     when every row's result has one shape.
//   - the result's element type, for a computing expression whose result
//     has no axes left: a plain column of one value per row.
//
// A column whose rows are all null needs no plan. Errors wrap
// arrow.ErrInvalid and name the row, as Eval's.
func (p *varPlan) EvalAs(typ arrow.DataType, in *varshape.Array, opts ...Option) (arrow.Array, error) {
	o, err := config(opts)
	if err != nil {
		return nil, err
	}
	rp, err := p.planRows(in, true)
	if err != nil {
		return nil, err
	}
	n := in.Len()
	switch t := typ.(type) {
	case *fixedshape.Type:
		if !stride.IsIdentity(t.Permutation()) {
			return nil, errorf("results are dense row-major: the fixed-shape type %v has a permutation", t)
		}
		shape := t.Shape()
		for i, pl := range rp.plans {
			if pl == nil {
				continue
			}
			if !arrow.TypeEqual(pl.resElem, t.ElemType()) {
				return nil, errorf("row %d of %d: the result's elements are %v, not %v", i, n, pl.resElem, t.ElemType())
			}
			if !sameShapeAs(pl.res, shape) {
				return nil, errorf("row %d of %d: the result shape %s differs from the fixed shape %s", i, n, metadata.FormatShape(pl.res.Shape()), metadata.FormatShape(shape))
			}
		}
		return p.evalFixed(in, rp, t, o)
	case *varshape.Type:
		if !stride.IsIdentity(t.Permutation()) {
			return nil, errorf("results are dense row-major: the variable-shape type %v has a permutation", t)
		}
		for i, pl := range rp.plans {
			if pl == nil {
				continue
			}
			if !arrow.TypeEqual(pl.resElem, t.ElemType()) || pl.res.NDim() != t.NDim() {
				return nil, errorf("row %d of %d: the result is %d-D %v, not %d-D %v", i, n, pl.res.NDim(), pl.resElem, t.NDim(), t.ElemType())
			}
		}
		return p.evalVar(in, rp, t, o)
	}
	if rp.common == nil || rp.common.Scalar() {
		return p.evalScalar(in, rp, typ, o)
	}
	return nil, errorf("a result column of %v: want a fixed- or variable-shape tensor type", typ)
}

// evalVar writes every valid row's dense result into a variable-shape
// column of type typ.
func (p *varPlan) evalVar(in *varshape.Array, rp rowPlans, typ *varshape.Type, o options) (arrow.Array, error) {
	plans := rp.plans
	n := in.Len()
	width := typ.ElemWidth()
	ond := typ.NDim()
	values := memory.NewResizableBuffer(o.mem)
	defer values.Release()
	values.Resize(rp.total * width)
	offsets := memory.NewResizableBuffer(o.mem)
	defer offsets.Release()
	offsets.Resize(4 * (n + 1))
	offs := arrow.Int32Traits.CastFromBytes(offsets.Bytes())
	shapes := memory.NewResizableBuffer(o.mem)
	defer shapes.Release()
	shapes.Resize(4 * n * ond)
	sh := arrow.Int32Traits.CastFromBytes(shapes.Bytes())
	clear(sh)
	offs[0] = 0
	for i, pl := range plans {
		size := 0
		if pl != nil {
			size = pl.res.Size()
			for k := range ond {
				sh[i*ond+k] = int32(pl.res.Dim(k))
			}
		}
		offs[i+1] = offs[i] + int32(size)
	}
	dst := values.Bytes()
	runRows(o.workers, n, func(lo, hi int) { rp.run(dst, lo, hi, 0) })
	valid := validity(in, o.mem)
	if valid != nil {
		defer valid.Release()
	}
	return varshape.NewArrayFromBuffers(typ, n, valid, offsets, values, shapes, in.NullN())
}

// rowPlans is the plan of every row of a column.
type rowPlans struct {
	raw     varshape.Raw
	plans   []*rowPlan // nil for null rows
	common  *rowPlan   // the first valid row's plan, or the uniform shape's
	uniform bool       // every valid row's result has common's shape
	total   int        // elements of all valid rows' results
}

// planRows checks in against the plan's type and finds every row's plan.
// Without a valid row, common is the plan of the type's complete uniform
// shape; with allNull it may then be nil, and an error otherwise.
func (p *varPlan) planRows(in *varshape.Array, allNull bool) (rowPlans, error) {
	t := in.TensorType()
	if t.NDim() != p.typ.NDim() || !arrow.TypeEqual(t.ElemType(), p.typ.ElemType()) ||
		!samePerm(t.Permutation(), p.typ.Permutation()) {
		return rowPlans{}, errorf("column of %v for a plan of %v", t, p.typ)
	}
	raw, err := in.Raw()
	if err != nil {
		return rowPlans{}, err
	}
	n, nd := in.Len(), raw.NDim
	rp := rowPlans{raw: raw, plans: make([]*rowPlan, n), uniform: true}
	var key []byte
	var last *rowPlan
	var lastShape []int32
	for i := range n {
		if in.IsNull(i) {
			continue
		}
		shape := raw.Shapes[i*nd : (i+1)*nd]
		pl := last
		if last == nil || !slices.Equal(shape, lastShape) {
			var k [4]int32
			var slot *atomic.Pointer[planSlot]
			pl = nil
			if nd <= len(k) {
				copy(k[:], shape)
				// Two ways: a shape whose slot holds another one
				// goes to the next slot.
				h := hashShape(k) % planSlots
				slot = &p.slots[h]
				if c := slot.Load(); c != nil && c.shape == k {
					pl = c.pl
				} else if c != nil {
					slot = &p.slots[(h+1)%planSlots]
					if c := slot.Load(); c != nil && c.shape == k {
						pl = c.pl
					}
				}
			}
			if pl == nil {
				key = shapeKey(key[:0], shape)
				if pl, err = p.plan(key, shape); err != nil {
					return rowPlans{}, errorf("row %d of %d: %v (the row's shape is %s)", i, n, trim(err), p.rowShape(shape))
				}
				if slot != nil {
					slot.Store(&pl.entry)
				}
			}
			last, lastShape = pl, shape
		}
		rp.plans[i] = pl
		if rp.common == nil {
			rp.common = pl
		} else if rp.uniform && rp.common != pl && !pl.sameOut(rp.common) {
			rp.uniform = false
		}
		if rp.total += pl.outSize; rp.total > math.MaxInt32 {
			return rowPlans{}, errorf("the result has more than %d elements", math.MaxInt32)
		}
	}
	if rp.common == nil && allNull {
		return rp, nil
	}
	if rp.common == nil {
		u := t.PhysicalUniformShape()
		if u == nil || slices.Contains(u, varshape.Varies) {
			return rowPlans{}, errorf("no valid row and no complete uniform shape to infer the result shape from")
		}
		u32 := make([]int32, len(u))
		for i, d := range u {
			u32[i] = int32(d)
		}
		if rp.common, err = p.plan(shapeKey(nil, u32), u32); err != nil {
			return rowPlans{}, err
		}
	}
	if err := rp.checkComputeInput(); err != nil {
		return rowPlans{}, err
	}
	return rp, nil
}

// EvalInto writes the dense row-major result of every valid row of in to
// dst, back to back in row order (null rows take no bytes), and returns
// the number of bytes written: the kernels of Eval without the result
// column, so a caller can reuse one buffer across batches; the results of
// a computing expression are of its element type, to which dst must be
// aligned. It fails like Eval, and when dst is too short.
func (p *varPlan) EvalInto(dst []byte, in *varshape.Array, opts ...Option) (int, error) {
	o, err := config(opts)
	if err != nil {
		return 0, err
	}
	rp, err := p.planRows(in, false)
	if err != nil {
		return 0, err
	}
	w := rp.common.outWidth
	if len(dst) < rp.total*w {
		return 0, errorf("destination of %d bytes for %d bytes", len(dst), rp.total*w)
	}
	if rp.computes() && !unsafeslice.Aligned(dst, w) {
		return 0, errorf("destination is not aligned to its %d-byte elements", w)
	}
	runRows(o.workers, len(rp.plans), func(lo, hi int) { rp.run(dst, lo, hi, 0) })
	return rp.total * w, nil
}

// evalFixed writes every row's result, all of typ's shape, into a
// fixed-shape column of type typ.
func (p *varPlan) evalFixed(in *varshape.Array, rp rowPlans, typ *fixedshape.Type, o options) (*fixedshape.Array, error) {
	n := in.Len()
	w := typ.ElemWidth()
	size := typ.ListSize() * w
	if typ.ElemType().ID() == arrow.BOOL {
		return nil, unsupportedf("results of bool elements from variable-shape columns are not supported")
	}
	values := memory.NewResizableBuffer(o.mem)
	defer values.Release()
	values.Resize(n * size)
	dst := values.Bytes()
	runRows(o.workers, n, func(lo, hi int) { rp.run(dst, lo, hi, size) })
	valid := validity(in, o.mem)
	if valid != nil {
		defer valid.Release()
	}
	child := array.NewData(typ.ElemType(), n*typ.ListSize(), []*memory.Buffer{nil, values}, nil, 0, 0)
	defer child.Release()
	data := array.NewData(typ, n, []*memory.Buffer{valid}, []arrow.ArrayData{child}, in.NullN(), 0)
	defer data.Release()
	return array.MakeFromData(data).(*fixedshape.Array), nil
}

// samePerm reports whether two permutations are equal, an absent one
// being the identity.
func samePerm(a, b []int) bool {
	if a == nil || b == nil {
		return stride.IsIdentity(a) && stride.IsIdentity(b)
	}
	return slices.Equal(a, b)
}

// sameShapeAs reports whether m has the given shape.
func sameShapeAs(m metadata.Metadata, shape []int) bool {
	if m.NDim() != len(shape) {
		return false
	}
	for k, d := range shape {
		if m.Dim(k) != d {
			return false
		}
	}
	return true
}

func sameShape(a, b metadata.Metadata) bool {
	if a.NDim() != b.NDim() {
		return false
	}
	for k := range a.NDim() {
		if a.Dim(k) != b.Dim(k) {
			return false
		}
	}
	return true
}

func sameNames(a, b metadata.Metadata) bool {
	if a.HasDimNames() != b.HasDimNames() || a.NDim() != b.NDim() {
		return false
	}
	for k := range a.NDim() {
		if a.DimName(k) != b.DimName(k) {
			return false
		}
	}
	return true
}

// validity returns a copy of in's validity bitmap from offset 0, nil when
// in has no nulls.
func validity(in arrow.Array, mem memory.Allocator) *memory.Buffer {
	if in.NullN() == 0 {
		return nil
	}
	n := in.Len()
	valid := memory.NewResizableBuffer(mem)
	valid.Resize(int(bitutil.BytesForBits(int64(n))))
	bitutil.CopyBitmap(in.NullBitmapBytes(), in.Data().Offset(), n, valid.Bytes(), 0)
	return valid
}

// trim drops the "expr: " prefix of an error of this package, so that a
// wrapping message does not repeat it.
func trim(err error) string {
	if e, ok := err.(*Error); ok {
		if e.Pos < 0 {
			return e.Msg
		}
	}
	s := err.Error()
	if len(s) > 6 && s[:6] == "expr: " {
		return s[6:]
	}
	return s
}
