package expr

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/expr/internal/engine"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/varshape"
)

// The result type of a graph over variable-shape columns, decided
// before data by lowering the graph on probe row shapes.

// types decides each root's result type before data, from the graph
// lowered on probe row shapes (see probes): the number of dimensions and
// the element type of any probe on which the graph is valid, and an axis
// is fixed when every valid probe gives it one size. A result with no
// axis is a plain column, one whose axes are all fixed (of at least one
// element) a fixed-shape column, any other a variable-shape column whose
// uniform shape holds the fixed axes.
func (v *varGraph) types() error {
	var got [][]*engine.Node
	var names [][]string
	var errs []error
	for _, p := range v.probes() {
		roots, _, _, ns, err := v.lowerNamed(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		got = append(got, roots)
		if names == nil {
			names = ns
		}
	}
	if len(got) == 0 {
		return v.noProbe(errs)
	}
	for k := range v.roots {
		first := got[0][k]
		shape := slices.Clone(first.Shape)
		for _, r := range got[1:] {
			if len(r[k].Shape) != len(shape) {
				return errorf("the result's number of dimensions depends on the row shapes (%d and %d)", len(shape), len(r[k].Shape))
			}
			for j, d := range r[k].Shape {
				if shape[j] != d {
					shape[j] = varshape.Varies
				}
			}
		}
		dt, err := varResultType(first.DType, shape, names[k])
		if err != nil {
			return err
		}
		v.roots[k].dt = dt
	}
	return nil
}

// noProbe returns the error of a graph valid on no probe: the error
// itself when it does not depend on the row shape (a type error, an
// unknown column), and that of the first probe, naming its shapes,
// otherwise.
func (v *varGraph) noProbe(errs []error) error {
	if slices.ContainsFunc(errs, func(e error) bool { return errMsg(e) != errMsg(errs[0]) }) {
		p := v.probes()[0]
		var b strings.Builder
		for k, c := range v.vars {
			if k > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "column %q of shape %s", v.schema.Field(v.cols[c]).Name, metadata.FormatShape(p[k]))
		}
		return newErrorOf(errs[0], "", -1, fmt.Sprintf("no row shape was found on which the expression is valid; with rows of %s: %s", b.String(), errMsg(errs[0])))
	}
	return errs[0]
}

// varResultType returns the column type of results of element type t,
// shape (varshape.Varies where it depends on the row shapes) and
// dimension names (nil for none).
func varResultType(t engine.DType, shape []int, names []string) (arrow.DataType, error) {
	if len(shape) == 0 {
		return arrowOf(t), nil
	}
	if !slices.Contains(shape, varshape.Varies) && !slices.Contains(shape, 0) {
		m, err := metadata.New(shape, names, nil)
		if err != nil {
			return nil, errorf("result %s: %v", metadata.FormatShape(shape), err)
		}
		return fixedshape.NewType(arrowOf(t), m)
	}
	var uniform []int
	if slices.ContainsFunc(shape, func(d int) bool { return d != varshape.Varies }) {
		uniform = shape
	}
	vt, err := varshape.NewType(arrowOf(t), len(shape), varshape.Options{UniformShape: uniform, DimNames: names})
	if err != nil {
		return nil, errorf("%v", err)
	}
	return vt, nil
}

// maxProbes bounds the probe shapes types lowers the graph on.
const maxProbes = 64

// probes returns the row shapes (one per variable-shape column) on which
// types lowers the graph: every free size large (two different large
// sizes, so that an axis that follows a free size shows it), every free
// size 1, 2 or 3 (where a constant broadcasts, or a square is needed),
// every free size 0 (x[:1] of a row of no element has none),
// and, for each free size alone (the others large, or 1) and all of
// them, the sizes the expression's constants and fixed-shape columns
// have (x @ W needs x's last size to be W's first; x.reshape(3, 2) a
// row of 6 elements).
func (v *varGraph) probes() [][][]int {
	var slots [][2]int // (column k of vars, axis)
	for k, t := range v.vtypes {
		for i, d := range physUniform(t) {
			if d == varshape.Varies {
				slots = append(slots, [2]int{k, i})
			}
		}
	}
	big1, big2 := v.bigSizes(len(slots))
	fill := func(all int, at, size int) [][]int {
		p := make([][]int, len(v.vtypes))
		for k, t := range v.vtypes {
			p[k] = physUniform(t)
		}
		for s, sl := range slots {
			p[sl[0]][sl[1]] = all
			if s == at {
				p[sl[0]][sl[1]] = size
			}
		}
		return p
	}
	out := [][][]int{fill(big1, -1, 0), fill(big2, -1, 0), fill(1, -1, 0), fill(2, -1, 0), fill(3, -1, 0), fill(0, -1, 0)}
	for _, c := range v.sizes() {
		out = append(out, fill(c, -1, 0))
		for s := range slots {
			out = append(out, fill(big1, s, c), fill(big2, s, c), fill(1, s, c))
		}
		if len(out) >= maxProbes {
			break
		}
	}
	return out[:min(len(out), maxProbes)]
}

// physUniform returns t's physical uniform shape, varshape.Varies for
// every free size.
func physUniform(t *varshape.Type) []int {
	if u := t.PhysicalUniformShape(); u != nil {
		return u
	}
	return slices.Repeat([]int{varshape.Varies}, t.NDim())
}

// bigSizes returns two large free sizes for n free sizes: rows of at
// most 2^30 elements, multiples of 12 when large enough (so that a
// reshape into halves, thirds or quarters holds).
func (v *varGraph) bigSizes(n int) (int, int) {
	fixed := 1
	for _, t := range v.vtypes {
		for _, d := range physUniform(t) {
			if d != varshape.Varies {
				fixed *= max(d, 1)
			}
		}
	}
	big := 24
	if n > 0 && fixed < 1<<30 {
		big = max(24, int(math.Pow(float64(int(1<<30)/fixed), 1/float64(n))))
	}
	b1, b2 := big/12*12, big*2/3/12*12
	if b2 == b1 || b2 == 0 {
		b2 = 12
	}
	return b1, b2
}

// sizes returns the sizes other than 0 and 1 of the constants, loaded
// constants and fixed-shape columns the roots read, and of the products
// of reshapes' sizes, at most 8 of them.
func (v *varGraph) sizes() []int {
	var out []int
	add := func(ds ...int) {
		for _, d := range ds {
			if d > 1 && !slices.Contains(out, d) && len(out) < 8 {
				out = append(out, d)
			}
		}
	}
	seen := map[*gnode]bool{}
	var walk func(g *gnode, r varRoot)
	walk = func(g *gnode, r varRoot) {
		if seen[g] {
			return
		}
		seen[g] = true
		switch g.op {
		case gConst, gClip:
			add(g.c.shape...)
			add(g.c2.shape...)
		case gLoad:
			if r.load != nil {
				if c, err := r.load(g.name); err == nil {
					add(c.shape...)
				}
			}
		case gReshape:
			p := 1
			for _, d := range g.ints {
				p *= max(d, 1)
			}
			add(p)
		}
		for _, a := range g.args {
			walk(a, r)
		}
	}
	for _, r := range v.roots {
		walk(r.g, r)
	}
	for _, c := range v.cols {
		if t, ok := fixedshape.TypeOf(v.schema.Field(c).Type); ok {
			add(t.Shape()...)
		}
	}
	return out
}
