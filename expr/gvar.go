package expr

import (
	"container/list"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/expr/internal/engine"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/stride"
	"github.com/fstensor/fstensor/varshape"
)

// Graphs over variable-shape columns: the graph is lowered to an engine
// program once per distinct combination of the row shapes of the
// variable-shape columns it reads (each column read, for that program, as
// a fixed-shape column of its row's shape), and each run of consecutive
// rows of one combination goes through that program. The result type is
// decided before data by lowering the graph on probe shapes (see
// varGraph.types).

// maxVarPrograms bounds the engine programs a varGraph keeps: the most
// recently used combinations of row shapes.
const maxVarPrograms = 64

// varGraph is a Program of graph expressions reading variable-shape
// columns.
type varGraph struct {
	schema  *arrow.Schema
	roots   []varRoot
	cols    []int            // the schema's columns read
	inTypes []arrow.DataType // their types
	vars    []int            // the positions in cols of the variable-shape ones
	vtypes  []*varshape.Type // their types
	workers int
	cache   varCache
	// groups, of a fused program whose roots read different columns,
	// evaluate each set of roots reading the same columns (so that a row
	// is null in a result when a column its root reads is null there);
	// nil otherwise.
	groups []varGroup
}

// varGroup is the varGraph of some roots of a fused program, at the
// positions roots of its results (nil: one group of all).
type varGroup struct {
	v     *varGraph
	roots []int
}

// varRoot is one result of a varGraph: a graph, the text it was parsed
// from ("" when built in Go), the column x names (-1: none), the
// constants it may load and its result type.
type varRoot struct {
	text string
	g    *gnode
	x    int
	load func(string) (Const, error)
	dt   arrow.DataType
}

// rowInput is a variable-shape column read as a fixed-shape column of
// one row shape: its dense physical shape, and the logical shape and
// element strides of its permutation.
type rowInput struct {
	phys, logical, strides []int
}

// graphCols appends to dst the schema's columns g reads (unknown names
// are left to the lowering, which reports them).
func graphCols(dst []int, g *gnode, schema *arrow.Schema, x int, seen map[*gnode]bool) []int {
	if seen[g] {
		return dst
	}
	seen[g] = true
	i := -1
	switch g.op {
	case gX:
		i = x
	case gCol:
		if ix := schema.FieldIndices(g.name); len(ix) > 0 {
			i = ix[0]
		}
	}
	if i >= 0 && !slices.Contains(dst, i) {
		dst = append(dst, i)
	}
	for _, a := range g.args {
		dst = graphCols(dst, a, schema, x, seen)
	}
	return dst
}

// readsVar reports whether g reads a variable-shape column of schema.
func readsVar(g *gnode, schema *arrow.Schema, x int) bool {
	for _, c := range graphCols(nil, g, schema, x, map[*gnode]bool{}) {
		if _, ok := varshape.TypeOf(schema.Field(c).Type); ok {
			return true
		}
	}
	return false
}

// compileVarGraph compiles graph g (parsed from text, "" when built in
// Go), which reads a variable-shape column of schema.
func compileVarGraph(text string, g *gnode, schema *arrow.Schema, x int, o options, opts []Option) (*Program, error) {
	v, err := newVarGraph(schema, []varRoot{{text: text, g: g, x: x, load: memoLoad(o.load)}}, o.workers)
	if err != nil {
		return nil, err
	}
	if err := v.types(); err != nil {
		return nil, err
	}
	viaX := readsX(g)
	name := "result"
	switch {
	case o.nameSet:
		name = o.name
	case viaX && x >= 0:
		name = schema.Field(x).Name
	}
	col := x
	if !viaX || col < 0 {
		col = v.cols[0]
	}
	return &Program{in: schema, col: col, inType: schema.Field(col).Type, viaX: viaX, vgraph: v, opts: opts,
		schema: arrow.NewSchema([]arrow.Field{{Name: name, Type: v.roots[0].dt, Nullable: true}}, nil)}, nil
}

// newVarGraph returns the varGraph of roots over schema, their types
// not yet decided.
func newVarGraph(schema *arrow.Schema, roots []varRoot, workers int) (*varGraph, error) {
	v := &varGraph{schema: schema, roots: roots, workers: workers}
	for _, r := range roots {
		v.cols = graphCols(v.cols, r.g, schema, r.x, map[*gnode]bool{})
	}
	if len(v.cols) == 0 {
		return nil, errorf("the expression reads no column")
	}
	for k, c := range v.cols {
		t := schema.Field(c).Type
		v.inTypes = append(v.inTypes, t)
		if vt, ok := varshape.TypeOf(t); ok {
			v.vars, v.vtypes = append(v.vars, k), append(v.vtypes, vt)
		}
	}
	return v, nil
}

// memoLoad returns load remembering each constant it read.
func memoLoad(load func(string) (Const, error)) func(string) (Const, error) {
	if load == nil {
		return nil
	}
	var mu sync.Mutex
	seen := map[string]Const{}
	return func(name string) (Const, error) {
		mu.Lock()
		defer mu.Unlock()
		if c, ok := seen[name]; ok {
			return c, nil
		}
		c, err := load(name)
		if err == nil {
			seen[name] = c
		}
		return c, err
	}
}

// lower lowers the roots for the physical row shapes of the variable-shape
// columns (one per v.vars) and returns their nodes, the engine inputs and
// the schema's column of each input.
func (v *varGraph) lower(shapes [][]int) ([]*engine.Node, []engine.Input, []int, error) {
	l := newLowerer("", v.schema, -1, options{})
	l.rows = map[int]rowInput{}
	for k, c := range v.vars {
		r, err := rowInputOf(v.vtypes[k], shapes[k])
		if err != nil {
			return nil, nil, nil, err
		}
		l.rows[v.cols[c]] = r
	}
	roots := make([]*engine.Node, len(v.roots))
	for k, r := range v.roots {
		l.text, l.x, l.load = r.text, r.x, r.load
		n, err := l.node(r.g)
		if err != nil {
			return nil, nil, nil, err
		}
		roots[k] = n
	}
	return roots, l.inputs, l.cols, nil
}

// rowInputOf returns the input of a row of physical shape phys of a
// column of type t.
func rowInputOf(t *varshape.Type, phys []int) (rowInput, error) {
	if _, err := stride.NumElements(phys); err != nil {
		return rowInput{}, errorf("row shape %s: %v", metadata.FormatShape(phys), err)
	}
	rm := stride.RowMajor(nil, phys)
	perm := t.Permutation()
	r := rowInput{phys: slices.Clone(phys), logical: slices.Clone(phys), strides: rm}
	if perm != nil {
		r.logical, r.strides = stride.Gather(nil, phys, perm), stride.Gather(nil, rm, perm)
	}
	return r, nil
}

// types decides each root's result type before data, from the graph
// lowered on probe row shapes (see probes): the number of dimensions and
// the element type of any probe on which the graph is valid, and an axis
// is fixed when every valid probe gives it one size. A result with no
// axis is a plain column, one whose axes are all fixed (of at least one
// element) a fixed-shape column, any other a variable-shape column whose
// uniform shape holds the fixed axes.
func (v *varGraph) types() error {
	var got [][]*engine.Node
	var errs []error
	for _, p := range v.probes() {
		roots, _, _, err := v.lower(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		got = append(got, roots)
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
		dt, err := varResultType(first.DType, shape)
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

// varResultType returns the column type of results of element type t
// and shape (varshape.Varies where it depends on the row shapes).
func varResultType(t engine.DType, shape []int) (arrow.DataType, error) {
	if len(shape) == 0 {
		return arrowOf(t), nil
	}
	if !slices.Contains(shape, varshape.Varies) && !slices.Contains(shape, 0) {
		m, err := metadata.New(shape, nil, nil)
		if err != nil {
			return nil, errorf("result %s: %v", metadata.FormatShape(shape), err)
		}
		return fixedshape.NewType(arrowOf(t), m)
	}
	if t == engine.Bool {
		return nil, newErrorOf(arrow.ErrNotImplemented, "", -1, "a result of bool tensors whose shape depends on the row shapes: a variable-shape column holds numbers only (take .astype(uint8))")
	}
	var uniform []int
	if slices.ContainsFunc(shape, func(d int) bool { return d != varshape.Varies }) {
		uniform = shape
	}
	vt, err := varshape.NewType(arrowOf(t), len(shape), varshape.Options{UniformShape: uniform})
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
// and, for each free size alone and all of them, the sizes the
// expression's constants and fixed-shape columns have (x @ W needs x's
// last size to be W's first).
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
	out := [][][]int{fill(big1, -1, 0), fill(big2, -1, 0), fill(1, -1, 0), fill(2, -1, 0), fill(3, -1, 0)}
	for _, c := range v.sizes() {
		out = append(out, fill(c, -1, 0))
		for s := range slots {
			out = append(out, fill(big1, s, c), fill(big2, s, c))
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

// varEntry is the engine program of one combination of row shapes.
type varEntry struct {
	key    string
	prog   *engine.Program
	ins    []int   // the position in varGraph.cols of each engine input
	shapes [][]int // each root's result shape for a row
	sizes  []int   // and its elements
}

// entry returns the program of the row shapes (one per v.vars, key their
// encoding), compiled on first use and kept among the most recently used.
func (v *varGraph) entry(key []byte, shapes [][]int) (*varEntry, error) {
	if e := v.cache.get(key); e != nil {
		return e, nil
	}
	roots, inputs, cols, err := v.lower(shapes)
	if err != nil {
		return nil, err
	}
	p, err := engine.Compile(inputs, roots, engine.Options{Workers: v.workers})
	if err != nil {
		return nil, newErrorOf(err, "", -1, "engine: "+errMsg(err))
	}
	e := &varEntry{key: string(key), prog: p}
	for _, c := range cols {
		e.ins = append(e.ins, slices.Index(v.cols, c))
	}
	for _, r := range roots {
		n, _ := stride.NumElements(r.Shape)
		e.shapes, e.sizes = append(e.shapes, slices.Clone(r.Shape)), append(e.sizes, n)
	}
	v.cache.put(e)
	return e, nil
}

// varCache is a least-recently-used set of at most maxVarPrograms
// entries, safe for concurrent use.
type varCache struct {
	mu  sync.Mutex
	m   map[string]*list.Element
	lru list.List // of *varEntry, most recent first
}

func (c *varCache) get(key []byte) *varEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.m[string(key)]
	if !ok {
		return nil
	}
	c.lru.MoveToFront(el)
	return el.Value.(*varEntry)
}

func (c *varCache) put(e *varEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]*list.Element{}
	}
	if el, ok := c.m[e.key]; ok {
		c.lru.MoveToFront(el)
		return
	}
	c.m[e.key] = c.lru.PushFront(e)
	if c.lru.Len() > maxVarPrograms {
		last := c.lru.Back()
		c.lru.Remove(last)
		delete(c.m, last.Value.(*varEntry).key)
	}
}

// len returns the number of programs kept.
func (c *varCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Len()
}

// fuseVar is Fuse of programs of which one at least reads a
// variable-shape column: one varGraph of all their roots, whose result
// types they decided.
func fuseVar(progs []*Program, o options) (*Program, error) {
	var roots []varRoot
	var fields []arrow.Field
	for k, p := range progs {
		if !p.in.Equal(progs[0].in) {
			return nil, errorf("Fuse: program %d was compiled for another schema", k)
		}
		if p.vgraph != nil {
			roots = append(roots, p.vgraph.roots...)
		} else {
			roots = append(roots, p.graph.src...)
		}
		fields = append(fields, p.schema.Fields()...)
	}
	v, err := newVarGraph(progs[0].in, slices.Clone(roots), o.workers)
	if err != nil {
		return nil, err
	}
	// Roots reading different columns have different null rows.
	bySet := map[string]int{} // the columns read -> group
	for k, r := range roots {
		cols := graphCols(nil, r.g, v.schema, r.x, map[*gnode]bool{})
		slices.Sort(cols)
		key := fmt.Sprint(cols)
		gi, ok := bySet[key]
		if !ok {
			gi = len(v.groups)
			bySet[key] = gi
			v.groups = append(v.groups, varGroup{})
		}
		v.groups[gi].roots = append(v.groups[gi].roots, k)
	}
	if len(v.groups) == 1 {
		v.groups = nil
	}
	for gi, g := range v.groups {
		var rs []varRoot
		for _, k := range g.roots {
			rs = append(rs, roots[k])
		}
		if v.groups[gi].v, err = newVarGraph(v.schema, rs, o.workers); err != nil {
			return nil, err
		}
	}
	first := progs[0]
	return &Program{in: first.in, col: first.col, inType: first.inType, viaX: first.viaX, vgraph: v, opts: first.opts,
		schema: arrow.NewSchema(fields, nil)}, nil
}
