package expr

import (
	"container/list"
	"fmt"
	"slices"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/expr/internal/engine"
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
	if o.resultType != nil {
		if v.roots[0].dt, err = asResultType(o.resultType, v.roots[0].dt); err != nil {
			return nil, err
		}
	}
	p := graphResult(g, schema, x, v.cols[0], v.roots[0].dt, o, opts)
	p.vgraph = v
	return p, nil
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
	roots, inputs, cols, _, err := v.lowerNamed(shapes)
	return roots, inputs, cols, err
}

// lowerNamed is lower that also returns the dimension names of each
// root's result (nil for none).
func (v *varGraph) lowerNamed(shapes [][]int) ([]*engine.Node, []engine.Input, []int, [][]string, error) {
	l := newLowerer("", v.schema, -1, options{})
	l.rows = map[int]rowInput{}
	for k, c := range v.vars {
		r, err := rowInputOf(v.vtypes[k], shapes[k])
		if err != nil {
			return nil, nil, nil, nil, err
		}
		l.rows[v.cols[c]] = r
	}
	roots := make([]*engine.Node, len(v.roots))
	names := make([][]string, len(v.roots))
	for k, r := range v.roots {
		l.text, l.x, l.load = r.text, r.x, r.load
		n, err := l.node(r.g)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		roots[k], names[k] = n, l.dimNames(r.g)
	}
	return roots, l.inputs, l.cols, names, nil
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
