package expr

import (
	"math"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/stride"
	"github.com/fstensor/fstensor/varshape"
)

// ResultType returns the type of the column [varPlan.EvalAs] makes for
// every column of the plan's type, decided from the expression and the
// type alone, before any row is seen (a writer's schema is fixed before
// its first batch): a *fixedshape.Type when the result shape is the same
// for every input shape the type allows, and a *varshape.Type otherwise,
// whose uniform shape fixes the result axes that do not depend on the
// input's free sizes.
//
// An axis of the result is fixed when it comes from a fixed axis of the
// type's uniform shape (sliced, indexed or moved), from a new axis, or
// from a reshape that names its size; an axis sliced from a free one is
// not, whatever the slice (`x[:224, :224]` of images of any size has
// fewer rows for a smaller image), and neither is the -1 of a reshape of
// an input with a free size. Results of no element (a size-0 fixed axis)
// make a variable-shape type, as a FixedSizeList of size 0 cannot be a
// column type.
//
// A computing expression has its element type whatever the shapes. A
// result with no axes left (a full reduction such as x.mean(), a
// similarity) is one value per row: the plain Arrow type of that
// element, as [Plan.ResultType] gives for fixed-shape columns. Otherwise
// element-wise operations keep their operand's axes, a reduction removes
// its axes (or keeps them with size 1 under keepdims), and a constant
// broadcast against the tensor keeps the tensor's axes, with the
// constant's size on the axes where it has one other than 1 and on the
// axes it adds: x.astype(float32).mean(axis=(0, 1)) of HWC images of any
// height and width is a fixed-shape (3) column.
//
// The expression's structure is taken from one input shape on which it
// is valid: a template whose free sizes are large, or of size 1 (where a
// constant broadcasts), or else any row shape compiled before (by [varPlan.Plan] or an evaluation). Errors wrap
// arrow.ErrInvalid: a syntax error, or an error the expression has on
// every input (an index out of bounds of a fixed axis).
func (p *varPlan) ResultType() (arrow.DataType, error) {
	e, err := p.template()
	if err != nil {
		return nil, err
	}
	res := e.node()
	var chain []*node
	for n := res; n.x != nil; n = n.x {
		chain = append(chain, n)
	}
	slices.Reverse(chain)
	shape := p.typ.UniformShape()
	if shape == nil {
		shape = slices.Repeat([]int{varshape.Varies}, p.typ.NDim())
	}
	stable := true // names do not depend on the free sizes
	for _, n := range chain {
		shape, stable = resultAxes(n, shape, stable)
	}
	if res.reduced && len(shape) == 0 {
		// One value per row (Plan.Scalar): a plain column.
		return res.elem, nil
	}
	var names []string
	if stable && res.meta.HasDimNames() && res.meta.NDim() > 0 {
		names = res.meta.DimNames()
	}
	fixed := !slices.Contains(shape, varshape.Varies)
	if fixed && res.meta.Size() > 0 {
		m, err := metadata.New(shape, names, nil)
		if err != nil {
			return nil, errorf("%v", err)
		}
		t, err := fixedshape.NewType(res.elem, m)
		if err != nil {
			return nil, errorf("%v", err)
		}
		return t, nil
	}
	if len(shape) == 0 {
		return nil, errorf("0-D results of no element cannot make a column")
	}
	uniform := shape
	if !slices.ContainsFunc(shape, func(d int) bool { return d != varshape.Varies }) {
		uniform = nil
	}
	t, err := varshape.NewType(res.elem, len(shape), varshape.Options{DimNames: names, UniformShape: uniform})
	if err != nil {
		return nil, errorf("%v", err)
	}
	return t, nil
}

// resultAxes returns the sizes of n's result axes, [varshape.Varies] for
// those that depend on the input's free sizes, from those of its
// operand's (in), and whether the result's names are still independent
// of the free sizes. n was built on an input where it is valid.
func resultAxes(n *node, in []int, stable bool) ([]int, bool) {
	allFixed := !slices.Contains(in, varshape.Varies)
	switch n.op {
	case opIndex:
		sels, err := resolve(n.items, n.x.meta.Shape())
		if err != nil { // not reached: n is valid
			break
		}
		var out []int
		for _, s := range sels {
			switch {
			case s.count < 0: // an integer index drops the axis
			case s.axis < 0:
				out = append(out, 1)
			case in[s.axis] == varshape.Varies:
				out = append(out, varshape.Varies)
			default:
				out = append(out, s.count)
			}
		}
		return out, stable
	case opTranspose:
		perm, err := resolvePerm(n.ints, len(in))
		if err != nil {
			break
		}
		return stride.Gather(nil, in, perm), stable
	case opReshape:
		if allFixed {
			return n.meta.Shape(), stable
		}
		// Names survive a reshape only by the sizes of the axes.
		out := slices.Clone(n.ints)
		return out, false
	default:
		if n.op > opReshape {
			return computeAxes(n, in, stable)
		}
	}
	// Not reached.
	if allFixed {
		return n.meta.Shape(), stable
	}
	return slices.Repeat([]int{varshape.Varies}, n.meta.NDim()), false
}

// template returns the expression built on one input shape where it is
// valid: the type's uniform shape with large free sizes, else a shape
// compiled before.
func (p *varPlan) template() (Expr, error) {
	u := p.typ.PhysicalUniformShape()
	if u == nil {
		u = slices.Repeat([]int{varshape.Varies}, p.typ.NDim())
	}
	free, fixedSize := 0, 1
	for _, d := range u {
		if d == varshape.Varies {
			free++
		} else {
			fixedSize *= max(d, 1)
		}
	}
	// Free sizes as large as a row's element count (2^30 in all) allows.
	big := 2
	if free > 0 && fixedSize < 1<<30 {
		big = max(2, int(math.Pow(float64(int(1<<30)/fixedSize), 1/float64(free))))
	}
	var m metadata.Metadata
	var err error
	for ; ; big /= 2 {
		phys := make([]int, len(u))
		for i, d := range u {
			phys[i] = d
			if d == varshape.Varies {
				phys[i] = big
			}
		}
		if m, err = p.typ.RowMetadata(phys); err == nil || big <= 2 {
			break
		}
	}
	if err != nil {
		return nil, errorf("%v", err)
	}
	e, terr := p.build(InputOf(p.typ.ElemType(), m))
	if terr == nil {
		return e, nil
	}
	if free > 0 {
		// Free sizes of 1, which broadcast against a constant's axes
		// (x - float32([1, 2, 3]) over a free last axis).
		phys := make([]int, len(u))
		for i, d := range u {
			phys[i] = max(d, 1)
		}
		if m, err := p.typ.RowMetadata(phys); err == nil {
			if e, err := p.build(InputOf(p.typ.ElemType(), m)); err == nil {
				return e, nil
			}
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, pl := range p.plans {
		return pl.Plan.Expr(), nil
	}
	return nil, terr
}
