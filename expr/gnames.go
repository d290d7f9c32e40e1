package expr

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/varshape"
)

// Dimension names of graph results. A graph's result names its axes as a
// chain's does: names follow their axes through views and reductions (by
// the chain constructors' own rules), element-wise operations keep their
// operands' names, and an axis takes a name only where every operand
// that has the axis at the result's size agrees on it (constants name
// nothing). Matrix products keep the names of the batch axes, of the
// left operand's rows and of the right operand's columns; concatenate
// and stack keep the names their operands agree on, stack's new axis
// unnamed; similarities and einsum results are unnamed.

// dimNames returns the names of the axes of g's lowered result, "" for
// an unnamed axis, or nil when no axis has a name. g must have been
// lowered by l.
func (l *lowerer) dimNames(g *gnode) []string {
	names := l.namesOf(g, map[*gnode][]string{})
	if slices.ContainsFunc(names, func(s string) bool { return s != "" }) {
		return names
	}
	return nil
}

// shapeOf returns the shape of g's lowered value ([] for a Python
// scalar).
func (l *lowerer) shapeOf(g *gnode) []int {
	if v, ok := l.memo[g]; ok && v.n != nil {
		return v.n.Shape
	}
	return []int{}
}

// namesOf returns the names of g's axes, one per axis of its shape, ""
// where unnamed.
func (l *lowerer) namesOf(g *gnode, memo map[*gnode][]string) []string {
	if v, ok := memo[g]; ok {
		return v
	}
	v := l.namesOfNode(g, memo)
	if nd := len(l.shapeOf(g)); len(v) != nd {
		v = make([]string, nd)
	}
	memo[g] = v
	return v
}

func (l *lowerer) namesOfNode(g *gnode, memo map[*gnode][]string) []string {
	shape := l.shapeOf(g)
	args := make([][]string, len(g.args))
	for i, a := range g.args {
		args[i] = l.namesOf(a, memo)
	}
	switch g.op {
	case gX, gCol:
		return l.columnNames(g)
	case gUnary, gAstype, gClip:
		return args[0]
	case gBinary, gWhere:
		return l.mergeNames(shape, g.args, args)
	case gIndex, gTranspose, gReshape, gReduce:
		return viewNames(g, l.shapeOf(g.args[0]), args[0])
	case gMatMul:
		return l.matmulNames(g, args)
	case gConcat, gStack:
		return l.joinNames(g, shape, args)
	}
	return nil // constants, similarities, einsum
}

// columnNames returns the logical dimension names of the fixed-shape
// column g reads, or nil.
func (l *lowerer) columnNames(g *gnode) []string {
	i := l.x
	if g.op == gCol {
		ix := l.schema.FieldIndices(g.name)
		if len(ix) == 0 {
			return nil
		}
		i = ix[0]
	}
	if i < 0 {
		return nil
	}
	if t, ok := l.schema.Field(i).Type.(*fixedshape.Type); ok {
		return t.DimNames()
	}
	if t, ok := varshape.TypeOf(l.schema.Field(i).Type); ok {
		return t.DimNames()
	}
	return nil
}

// mergeNames returns the names of a result of shape broadcast from
// operands gs (names ns) by NumPy's rules.
func (l *lowerer) mergeNames(shape []int, gs []*gnode, ns [][]string) []string {
	ss := make([][]int, len(gs))
	for k, g := range gs {
		ss[k] = l.shapeOf(g)
	}
	return mergeAligned(shape, ss, ns)
}

// viewNames returns the names of an index, transpose, reshape or
// reduction g of an operand of shape and names, by the chain
// constructors' rules; nil when the operand has no names or the chain
// refuses the view.
func viewNames(g *gnode, shape []int, names []string) []string {
	if !slices.ContainsFunc(names, func(s string) bool { return s != "" }) {
		return nil
	}
	m, err := metadata.New(shape, names, nil)
	if err != nil {
		return nil
	}
	e := chainView(g, InputOf(arrow.PrimitiveTypes.Float32, m))
	if Check(e) != nil {
		return nil
	}
	return e.Metadata().DimNames()
}

// matmulNames returns the names of a @ b: the batch axes' merged, then
// a's rows (unless a is 1-D) and b's columns (unless b is 1-D).
func (l *lowerer) matmulNames(g *gnode, ns [][]string) []string {
	sa, sb := l.shapeOf(g.args[0]), l.shapeOf(g.args[1])
	shape := l.shapeOf(g)
	out := make([]string, len(shape))
	tail := 0
	if len(sb) >= 2 {
		tail++
		out[len(out)-1] = ns[1][len(sb)-1]
	}
	if len(sa) >= 2 {
		tail++
		out[len(out)-tail] = ns[0][len(sa)-2]
	}
	batch := len(shape) - tail
	if batch > 0 {
		// The batch axes: each operand's axes before its last two.
		trim := func(s []int, n []string) ([]int, []string) {
			if len(s) < 2 {
				return nil, nil
			}
			return s[:len(s)-2], n[:len(n)-2]
		}
		ba, na := trim(sa, ns[0])
		bb, nb := trim(sb, ns[1])
		copy(out, mergeAligned(shape[:batch], [][]int{ba, bb}, [][]string{na, nb}))
	}
	return out
}

// mergeAligned returns the names of a result of shape broadcast from
// operands of shapes ss and names ns, aligned on their last axes: each
// axis takes the name that the operands having it at the result's size
// agree on.
func mergeAligned(shape []int, ss [][]int, ns [][]string) []string {
	out := make([]string, len(shape))
	for i := range shape {
		var cands []string
		for k, s := range ss {
			if j := i - len(shape) + len(s); j >= 0 && s[j] == shape[i] {
				cands = append(cands, ns[k][j])
			}
		}
		out[i] = agreed(cands)
	}
	return out
}

// agreed returns the name the nonempty names of cands agree on, or "" when
// there is none or they differ.
func agreed(cands []string) string {
	name := ""
	for _, c := range cands {
		switch {
		case c == "":
		case name == "":
			name = c
		case name != c:
			return ""
		}
	}
	return name
}

// joinNames returns the names of concatenate or stack g: the operands'
// agreed names, stack's new axis unnamed.
func (l *lowerer) joinNames(g *gnode, shape []int, ns [][]string) []string {
	nd := len(shape)
	axis := g.axis
	if axis < 0 {
		axis += nd
	}
	if axis < 0 || axis >= nd {
		return nil
	}
	out := make([]string, nd)
	for i := range out {
		if g.op == gStack && i == axis {
			continue
		}
		j := i
		if g.op == gStack && i > axis {
			j = i - 1
		}
		var cands []string
		for _, n := range ns {
			if j < len(n) {
				cands = append(cands, n[j])
			}
		}
		out[i] = agreed(cands)
	}
	return out
}
