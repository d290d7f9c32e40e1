package expr

import (
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/internal/layout"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/stride"
)

// stage is one copy of a Plan: a strided view over the stage's source.
// The first stage reads an input tensor's physical elements; each later
// stage reads the dense row-major result of the stage before it.
type stage struct {
	// Shape is the logical shape the stage produces.
	Shape []int
	// Strides are the element strides of Shape's axes over the source,
	// of any sign (0 for a new axis).
	Strides []int
	// Offset is the element offset of the view's first element.
	Offset int
}

// Plan is a compiled expression: the chain lowered to as few strided copies
// as NumPy's view rules allow (one unless a reshape needs a copy), ready to
// run over columns or single tensors. It is immutable and safe for
// concurrent use; compile once, evaluate many times.
type Plan struct {
	expr    Expr
	elem    arrow.DataType
	width   int  // bytes per element; 0 for bits
	bits    bool // bool elements: stages run bit by bit (evalbits.go)
	in      metadata.Metadata
	inSize  int
	out     metadata.Metadata
	stages  []stage
	kernels []layout.Plan
	inShape []int    // the input's logical shape
	inElem  []int    // the input's logical element strides
	relabel []int    // the zero-copy result's permutation when ok
	ok      bool     // the result is a relabelling of the input's elements
	scratch int      // elements of the largest intermediate result
	comp    *compute // the computing operations after the view; nil for a view expression
}

// CompilePlan checks e and lowers it to a Plan. Slices, integer indexes,
// transposes and new axes compose into one strided view over the input's
// physical elements (the input's permutation included); a reshape stays in
// that view when NumPy's no-copy rule allows (each group of old axes that
// merges into new ones is contiguous), and otherwise ends a stage, whose
// dense result the next stage reads. Stages that copy a whole buffer in
// order are dropped. Errors are Check's.
//
// The plan knows its result before any data: Plan.ResultType is the
// type of the column Plan.Eval returns (for an output schema),
// Plan.Metadata its logical shape and names.
func CompilePlan(e Expr) (*Plan, error) {
	if e.node().g != nil {
		return nil, errGraphPlan
	}
	if err := Check(e); err != nil {
		return nil, err
	}
	top := e.node()
	n := top
	for n.op > opReshape {
		n = n.x // views come first: n is the view's result
	}
	p := &Plan{expr: e, elem: n.elem, in: n.in, out: n.meta, inSize: n.in.Size()}
	p.width = n.elem.(arrow.FixedWidthDataType).BitWidth() / 8
	p.bits = n.elem.ID() == arrow.BOOL
	p.inShape = n.in.Shape()
	p.inElem = n.in.ElemStrides()
	var chain []*node
	for m := n; m.x != nil; m = m.x {
		chain = append(chain, m)
	}
	slices.Reverse(chain)
	v := stage{Shape: n.in.Shape(), Strides: slices.Clone(p.inElem)}
	for _, m := range chain {
		switch m.op {
		case opIndex:
			sels, err := resolve(m.items, v.Shape)
			if err != nil {
				return nil, err
			}
			var s stage
			s.Offset = v.Offset
			for _, sl := range sels {
				if sl.axis < 0 {
					s.Shape = append(s.Shape, 1)
					s.Strides = append(s.Strides, 0)
					continue
				}
				s.Offset += sl.first * v.Strides[sl.axis]
				if sl.count >= 0 {
					s.Shape = append(s.Shape, sl.count)
					s.Strides = append(s.Strides, sl.step*v.Strides[sl.axis])
				}
			}
			v = s
		case opTranspose:
			perm, err := resolvePerm(m.ints, len(v.Shape))
			if err != nil {
				return nil, err
			}
			v.Shape = stride.Gather(nil, v.Shape, perm)
			v.Strides = stride.Gather(nil, v.Strides, perm)
		case opReshape:
			shape := m.meta.Shape()
			if st, ok := nocopyReshape(v.Shape, v.Strides, shape); ok {
				v.Shape, v.Strides = shape, st
				break
			}
			p.stages = append(p.stages, v)
			v = stage{Shape: shape, Strides: stride.RowMajor(nil, shape)}
		}
	}
	p.stages = append(p.stages, v)
	if len(p.stages) == 1 && v.Offset == 0 && p.out.Size() == p.inSize {
		if perm, ok := stride.Dense(v.Shape, v.Strides); ok {
			p.relabel, p.ok = perm, true
		}
	}
	// Drop the stages that copy their whole source in order: the next
	// stage reads the same elements from the stage's source, and the
	// previous stage writes the same bytes for the last one. (A computing
	// expression keeps them: its first pass reads the last stage's view
	// in that stage's shape.)
	srcSize := p.inSize
	for i := 0; i < len(p.stages) && len(p.stages) > 1 && top == n; {
		s := p.stages[i]
		size, _ := stride.NumElements(s.Shape)
		if s.Offset == 0 && size == srcSize && stride.IsRowMajor(s.Shape, s.Strides) {
			p.stages = slices.Delete(p.stages, i, i+1)
			continue
		}
		srcSize = size
		i++
	}
	srcSize = p.inSize
	for i, s := range p.stages {
		// Bool stages are checked as 1-byte plans and run by runBits.
		k, err := layout.NewPlan(max(p.width, 1), s.Shape, s.Strides, s.Offset)
		if err != nil {
			return nil, errorf("planning stage %d: %v", i, err)
		}
		if k.MinSource() > srcSize {
			return nil, errorf("planning stage %d: view reaches element %d of %d", i, k.MinSource()-1, srcSize)
		}
		srcSize = k.Size()
		p.kernels = append(p.kernels, k)
		if i < len(p.stages)-1 {
			p.scratch = max(p.scratch, k.Size())
		}
	}
	if top != n {
		c, err := compileCompute(top, n, p.stages[len(p.stages)-1])
		if err != nil {
			return nil, err
		}
		p.comp = c
		p.ok = false
	}
	return p, nil
}

// nocopyReshape returns the strides of shape as a view of the elements of
// a view (old, strides), or false when that needs a copy: NumPy's
// _attempt_nocopy_reshape for C order. Axes of size 1 of old are ignored;
// new axes of size 1 after the last group take the last stride. A shape
// without elements is always a view, with strides of 1.
func nocopyReshape(old, strides, shape []int) ([]int, bool) {
	ns := make([]int, len(shape))
	for _, d := range old {
		if d == 0 {
			for i := range ns {
				ns[i] = 1
			}
			return ns, true
		}
	}
	var od, os []int
	for i, d := range old {
		if d != 1 {
			od = append(od, d)
			os = append(os, strides[i])
		}
	}
	oi, oj, ni, nj := 0, 1, 0, 1
	for ni < len(shape) && oi < len(od) {
		np, op := shape[ni], od[oi]
		for np != op {
			if np < op {
				np *= shape[nj]
				nj++
			} else {
				op *= od[oj]
				oj++
			}
		}
		for k := oi; k < oj-1; k++ {
			if os[k] != od[k+1]*os[k+1] {
				return nil, false
			}
		}
		ns[nj-1] = os[oj-1]
		for k := nj - 1; k > ni; k-- {
			ns[k-1] = ns[k] * shape[k]
		}
		ni, nj = nj, nj+1
		oi, oj = oj, oj+1
	}
	last := 1
	if ni >= 1 {
		last = ns[ni-1]
	}
	for k := ni; k < len(shape); k++ {
		ns[k] = last
	}
	return ns, true
}

// Expr returns the compiled expression.
func (p *Plan) Expr() Expr { return p.expr }

// Metadata returns the metadata of one result tensor (dense row-major);
// 0-D for one value per tensor (Plan.Scalar).
func (p *Plan) Metadata() metadata.Metadata {
	if p.comp != nil {
		return p.comp.meta
	}
	return p.out
}

// Relabel reports whether the result is a relabelling of the input's
// elements (every element once, at offset 0, in a dense permuted layout)
// and returns the permutation of that zero-copy result, as WithRelabel
// uses it: nil for the identity.
func (p *Plan) Relabel() ([]int, bool) {
	if !p.ok {
		return nil, false
	}
	if stride.IsIdentity(p.relabel) {
		return nil, true
	}
	return slices.Clone(p.relabel), true
}

// String describes the plan for diagnostics: the expression, then one line
// per stage with its shape, strides, offset and kernel, and for a
// computing expression one line per pass: its loops (dims and source
// strides), the element types and instructions, and the reduction.
func (p *Plan) String() string {
	b := []byte(p.expr.String())
	for i, s := range p.stages {
		b = fmt.Appendf(b, "\nstage %d: shape %s strides %v offset %d kernel %s", i, metadata.FormatShape(s.Shape), s.Strides, s.Offset, p.kernels[i].Kind())
	}
	if c := p.comp; c != nil {
		b = c.first.appendText(b, &c.nest1, "pass 0")
		if c.second != nil {
			b = c.second.appendText(b, &c.nest2, "pass 1")
		}
	}
	return string(b)
}

// errGraphPlan refuses a graph expression where a chain is needed.
var errGraphPlan = unsupportedf("a graph expression (over columns by name or X, combining tensors, or computing beyond one chain) is evaluated by a Program of Compile or CompileExpr, over fixed-shape and plain columns only")

// MustCompilePlan is like CompilePlan but panics on error; for tests and examples.
func MustCompilePlan(e Expr) *Plan {
	p, err := CompilePlan(e)
	if err != nil {
		panic(err)
	}
	return p
}
