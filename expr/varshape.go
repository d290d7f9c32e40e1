package expr

import (
	"encoding/binary"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/varshape"
)

// VarPlan evaluates one expression over variable-shape columns: the
// expression is rebuilt for each distinct row shape and compiled once per
// shape into a [Plan], kept in a cache. It is safe for concurrent use.
type VarPlan struct {
	build func(x Expr) (Expr, error)
	typ   *varshape.Type
	mu    sync.Mutex
	plans map[string]*Plan // by physical row shape
}

// CompileVar returns the plan of e over columns of typ. e is built on any
// input with typ's element type and number of dimensions (its input shape
// is only a template): each row evaluates the same chain of operations on
// an input of the row's shape, names and permutation, so `x[:224, :224]`
// crops every row and `x[17]` fails on the rows with 17 rows or fewer.
// It fails with an error wrapping arrow.ErrInvalid when e's input has
// another element type or number of dimensions.
func CompileVar(e Expr, typ *varshape.Type) (*VarPlan, error) {
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

// ParseVar returns the plan of the index text (Parse's form, for example
// `x[:224, :224]` or `x.transpose(2, 0, 1)`) over columns of typ. The text
// is parsed for each distinct row shape, so a syntax error is reported at
// the first row evaluated.
func ParseVar(text string, typ *varshape.Type) *VarPlan {
	return newVarPlan(typ, func(x Expr) (Expr, error) { return Parse(text, x) })
}

func newVarPlan(typ *varshape.Type, build func(Expr) (Expr, error)) *VarPlan {
	return &VarPlan{build: build, typ: typ, plans: make(map[string]*Plan)}
}

// EvalVar compiles e for in's type and evaluates it; see VarPlan.Eval.
func EvalVar(e Expr, in *varshape.Array, opts ...Option) (arrow.Array, error) {
	p, err := CompileVar(e, in.TensorType())
	if err != nil {
		return nil, err
	}
	return p.Eval(in, opts...)
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
func (p *VarPlan) Plan(physicalShape []int) (*Plan, error) {
	s32 := make([]int32, len(physicalShape))
	for i, d := range physicalShape {
		if d < 0 || d > math.MaxInt32 {
			return nil, errorf("shape %s is not a tensor shape", metadata.FormatShape(physicalShape))
		}
		s32[i] = int32(d)
	}
	return p.plan(shapeKey(nil, s32), s32)
}

func (p *VarPlan) plan(key []byte, shape []int32) (*Plan, error) {
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
	if pl, err = Compile(e); err != nil {
		return nil, err
	}
	p.mu.Lock()
	p.plans[string(key)] = pl
	p.mu.Unlock()
	return pl, nil
}

// Plans returns the number of distinct row shapes compiled so far.
func (p *VarPlan) Plans() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.plans)
}

// Eval evaluates the plan over every row of in, which must be of the
// plan's type (its names and uniform shape may differ), and returns a new
// column allocated from the option's allocator; the caller releases it.
// The result is a *fixedshape.Array when every valid row's result has the
// same shape with at least one element (a center crop of images that are
// all large enough), and a *varshape.Array of dense row-major rows
// otherwise. Null rows stay null (zero-filled in a fixed-shape result,
// empty in a variable-shape one). An error wraps arrow.ErrInvalid and names
// the row, out of how many, with the expression's error for that row's
// shape (for an index, NumPy's wording names the axis).
//
// A column whose rows are all null has no row to infer the result shape
// from: the result is then computed for the uniform shape when the type
// has a complete one, and is an error otherwise.
func (p *VarPlan) Eval(in *varshape.Array, opts ...Option) (arrow.Array, error) {
	o := config(opts)
	t := in.TensorType()
	if t.NDim() != p.typ.NDim() || !arrow.TypeEqual(t.ElemType(), p.typ.ElemType()) ||
		!slices.Equal(t.Permutation(), p.typ.Permutation()) {
		return nil, errorf("column of %v for a plan of %v", t, p.typ)
	}
	raw, err := in.Raw()
	if err != nil {
		return nil, err
	}
	n, nd := in.Len(), raw.NDim
	plans := make([]*Plan, n)
	var key []byte
	var last *Plan
	var lastShape []int32
	var common *Plan // the plan whose result shape every row shares, if any
	uniform := true
	total := 0
	for i := range n {
		if in.IsNull(i) {
			continue
		}
		shape := raw.Shapes[i*nd : (i+1)*nd]
		pl := last
		if last == nil || !slices.Equal(shape, lastShape) {
			key = shapeKey(key[:0], shape)
			if pl, err = p.plan(key, shape); err != nil {
				return nil, errorf("row %d of %d: %v", i, n, trim(err))
			}
			last, lastShape = pl, shape
		}
		plans[i] = pl
		if common == nil {
			common = pl
		} else if uniform && common != pl && !sameShape(common.out, pl.out) {
			uniform = false
		}
		if total += pl.out.Size(); total > math.MaxInt32 {
			return nil, errorf("the result has more than %d elements", math.MaxInt32)
		}
	}
	if common == nil {
		u := t.PhysicalUniformShape()
		if u == nil || slices.Contains(u, varshape.Varies) {
			return nil, errorf("no valid row and no complete uniform shape to infer the result shape from")
		}
		if common, err = p.Plan(u); err != nil {
			return nil, err
		}
	}
	width := common.width
	if uniform && common.out.Size() > 0 {
		return p.evalFixed(in, raw, plans, common, o)
	}
	values := memory.NewResizableBuffer(o.mem)
	defer values.Release()
	values.Resize(total * width)
	offsets := memory.NewResizableBuffer(o.mem)
	defer offsets.Release()
	offsets.Resize(4 * (n + 1))
	offs := arrow.Int32Traits.CastFromBytes(offsets.Bytes())
	ond := common.out.NDim()
	shapes := memory.NewResizableBuffer(o.mem)
	defer shapes.Release()
	shapes.Resize(4 * n * ond)
	sh := arrow.Int32Traits.CastFromBytes(shapes.Bytes())
	clear(sh)
	offs[0] = 0
	for i, pl := range plans {
		size := 0
		if pl != nil {
			size = pl.out.Size()
			for k := range ond {
				sh[i*ond+k] = int32(pl.out.Dim(k))
			}
		}
		offs[i+1] = offs[i] + int32(size)
	}
	dst := values.Bytes()
	runRows(o.workers, n, func(i int) {
		if pl := plans[i]; pl != nil {
			pl.runRow(dst[int(offs[i])*width:int(offs[i+1])*width], raw.Values[int(raw.Offsets[i])*width:int(raw.Offsets[i+1])*width])
		}
	})
	names := common.out.DimNames()
	for _, pl := range plans {
		if pl != nil && !slices.Equal(pl.out.DimNames(), names) {
			names = nil
			break
		}
	}
	if ond == 0 {
		return nil, errorf("the 0-D results have no elements and a 0-D variable-shape column cannot be represented")
	}
	typ, err := varshape.NewType(common.elem, ond, varshape.Options{DimNames: names})
	if err != nil {
		return nil, err
	}
	valid := validity(in, o.mem)
	if valid != nil {
		defer valid.Release()
	}
	return varshape.NewArrayFromBuffers(typ, n, valid, offsets, values, shapes, in.NullN())
}

// evalFixed writes every row's result, all of the shape of common's, into
// a fixed-shape column.
func (p *VarPlan) evalFixed(in *varshape.Array, raw varshape.Raw, plans []*Plan, common *Plan, o options) (*fixedshape.Array, error) {
	typ, err := common.Type()
	if err != nil {
		return nil, err
	}
	n, w := in.Len(), common.width
	size := common.out.Size() * w
	values := memory.NewResizableBuffer(o.mem)
	defer values.Release()
	values.Resize(n * size)
	dst := values.Bytes()
	runRows(o.workers, n, func(i int) {
		d := dst[i*size : (i+1)*size]
		if pl := plans[i]; pl != nil {
			pl.runRow(d, raw.Values[int(raw.Offsets[i])*w:int(raw.Offsets[i+1])*w])
		} else {
			clear(d)
		}
	})
	valid := validity(in, o.mem)
	if valid != nil {
		defer valid.Release()
	}
	child := array.NewData(common.elem, n*common.out.Size(), []*memory.Buffer{nil, values}, nil, 0, 0)
	defer child.Release()
	data := array.NewData(typ, n, []*memory.Buffer{valid}, []arrow.ArrayData{child}, in.NullN(), 0)
	defer data.Release()
	return array.MakeFromData(data).(*fixedshape.Array), nil
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

// runRow writes the dense result of one tensor of the plan's input shape.
func (p *Plan) runRow(dst, src []byte) {
	if len(p.kernels) == 1 {
		p.kernels[0].Run(dst, src, 1, p.inSize, 1)
	} else {
		p.runStaged(dst, src, 1, 1)
	}
}

// runRows calls f for rows 0..n-1, split into contiguous ranges across at
// most workers goroutines.
func runRows(workers, n int, f func(i int)) {
	workers = max(1, min(workers, runtime.GOMAXPROCS(0), n))
	if workers == 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var wg sync.WaitGroup
	per := (n + workers - 1) / workers
	for lo := 0; lo < n; lo += per {
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			for i := lo; i < hi; i++ {
				f(i)
			}
		}(lo, min(n, lo+per))
	}
	wg.Wait()
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
