package expr

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/fstensor/fstensor/expr/internal/engine"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

// graphProgram is a Program of graph expressions: their engine graph
// over the input columns cols, one root per result column.
type graphProgram struct {
	cols    []int            // the schema's column of each engine input
	inputs  []engine.Input   // their engine types and shapes
	inTypes []arrow.DataType // their types
	roots   []*engine.Node
	prog    *engine.Program
	src     []varRoot // the graphs of roots, for Fuse with graphs over variable-shape columns
}

// compileGraph compiles graph g (parsed from text, "" when built in Go)
// for schema, x naming the column of x (-1: none).
func compileGraph(text string, g *gnode, schema *arrow.Schema, x int, o options, opts []Option) (*Program, error) {
	if readsVar(g, schema, x) {
		return compileVarGraph(text, g, schema, x, o, opts)
	}
	if err := refuseResultType(o); err != nil {
		return nil, err
	}
	l := newLowerer(text, schema, x, o)
	root, err := l.node(g)
	if err != nil {
		return nil, err
	}
	if len(l.cols) == 0 {
		return nil, l.errorf(&gnode{pos: 0}, "the expression reads no column")
	}
	dt, err := resultType(root, l.dimNames(g))
	if err != nil {
		return nil, err
	}
	if len(root.Shape) == 0 && tensorsOnly(g, schema, x, map[*gnode]bool{}) {
		// as a chain's: element-wise work on tensors keeps a 0-D tensor
		if dt, err = fixedshape.NewType(dt, metadata.MustNew([]int{}, nil, nil)); err != nil {
			return nil, err
		}
	}
	gp := &graphProgram{cols: l.cols, inputs: l.inputs, roots: []*engine.Node{root},
		src: []varRoot{{text: text, g: g, x: x, load: o.load, dt: dt}}}
	for _, c := range l.cols {
		gp.inTypes = append(gp.inTypes, schema.Field(c).Type)
	}
	if err := gp.compile(o); err != nil {
		return nil, err
	}
	p := graphResult(g, schema, x, l.cols[0], dt, o, opts)
	p.graph = gp
	return p, nil
}

// graphResult returns the Program of graph g over schema, its result of
// type dt, without its evaluator: its input column (x when g reads x,
// else first, the first column it reads) and its result's name (WithName,
// else x's name when g reads x, else "result").
func graphResult(g *gnode, schema *arrow.Schema, x, first int, dt arrow.DataType, o options, opts []Option) *Program {
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
		col = first
	}
	return &Program{in: schema, col: col, inType: schema.Field(col).Type, viaX: viaX, opts: opts,
		schema: arrow.NewSchema([]arrow.Field{{Name: name, Type: dt, Nullable: true}}, nil)}
}

// tensorsOnly reports whether g reads fixed-shape tensor columns only
// and neither reduces nor multiplies matrices: its 0-D result is a 0-D
// tensor column, as a chain's is, rather than a plain column.
func tensorsOnly(g *gnode, schema *arrow.Schema, x int, seen map[*gnode]bool) bool {
	if seen[g] {
		return true
	}
	seen[g] = true
	switch g.op {
	case gReduce, gSim, gMatMul, gEinsum:
		return false
	case gX, gCol:
		i := x
		if g.op == gCol {
			i = schema.FieldIndices(g.name)[0]
		}
		_, ok := fixedshape.TypeOf(schema.Field(i).Type)
		return ok
	}
	for _, a := range g.args {
		if !tensorsOnly(a, schema, x, seen) {
			return false
		}
	}
	return true
}

// readsX reports whether g reads x.
func readsX(g *gnode) bool {
	if g.op == gX {
		return true
	}
	for _, a := range g.args {
		if readsX(a) {
			return true
		}
	}
	return false
}

// evalBatch is Eval of a graph program.
func (p *Program) evalBatch(rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, len(p.graph.cols))
	for i, c := range p.graph.cols {
		if int(rec.NumCols()) <= c {
			return nil, errorf("a batch of %d columns has no column %d (%q)", rec.NumCols(), c, p.in.Field(c).Name)
		}
		cols[i] = rec.Column(c)
	}
	res, err := p.evalGraph(cols, int(rec.NumRows()))
	if err != nil {
		return nil, err
	}
	defer func() {
		for _, a := range res {
			a.Release()
		}
	}()
	return array.NewRecordBatch(p.schema, res, rec.NumRows()), nil
}

// evalOne is EvalColumn of a graph program, which must read one column.
func (p *Program) evalOne(arr arrow.Array) (arrow.Array, error) {
	if len(p.graph.cols) != 1 || len(p.graph.roots) != 1 {
		return nil, errorf("the program reads %d columns: evaluate it on a record batch (Eval)", len(p.graph.cols))
	}
	res, err := p.evalGraph([]arrow.Array{arr}, arr.Len())
	if err != nil {
		return nil, err
	}
	return res[0], nil
}

// Graph reports whether p evaluates its expression in the engine,
// rather than through Plans (see Compile).
func (p *Program) Graph() bool { return p.graph != nil || p.vgraph != nil }

// Fuse returns one Program that evaluates the graph programs progs,
// compiled for one schema, in one pass: its Schema has their result
// fields, in order, and its Eval reads each input column once per batch
// and computes a sub-expression common to several programs once. It
// takes the evaluation options of progs[0] (WithAllocator, WithWorkers).
// Its EvalColumn takes a program that reads one column and has one
// result only. Fuse fails with an error wrapping arrow.ErrInvalid when
// progs is empty, a program is not a graph (Graph), or the programs were
// compiled for schemas that differ.
func Fuse(progs ...*Program) (*Program, error) {
	if len(progs) == 0 {
		return nil, errorf("Fuse: no program")
	}
	o, err := config(progs[0].opts)
	if err != nil {
		return nil, err
	}
	for k, p := range progs {
		if p.vgraph != nil {
			return fuseVar(progs, o)
		}
		if p.graph == nil {
			return nil, errorf("Fuse: program %d evaluates a chain, not a graph", k)
		}
	}
	gp := &graphProgram{}
	index := map[int]int{} // schema column -> fused input
	var fields []arrow.Field
	for k, p := range progs {
		if p.graph == nil {
			return nil, errorf("Fuse: program %d evaluates a chain, not a graph", k)
		}
		if !p.in.Equal(progs[0].in) {
			return nil, errorf("Fuse: program %d was compiled for another schema", k)
		}
		remap := make([]int, len(p.graph.cols))
		for i, c := range p.graph.cols {
			j, ok := index[c]
			if !ok {
				j = len(gp.cols)
				index[c] = j
				gp.cols = append(gp.cols, c)
				gp.inputs = append(gp.inputs, p.graph.inputs[i])
				gp.inTypes = append(gp.inTypes, p.graph.inTypes[i])
			}
			remap[i] = j
		}
		memo := map[*engine.Node]*engine.Node{}
		for _, r := range p.graph.roots {
			gp.roots = append(gp.roots, renumber(r, remap, memo))
		}
		gp.src = append(gp.src, p.graph.src...)
		fields = append(fields, p.schema.Fields()...)
	}
	if err := gp.compile(o); err != nil {
		return nil, err
	}
	first := progs[0]
	return &Program{in: first.in, col: first.col, inType: first.inType, viaX: first.viaX, graph: gp, opts: first.opts,
		schema: arrow.NewSchema(fields, nil)}, nil
}

// renumber returns n with the inputs it reads renumbered by remap
// (copies of the nodes above an input; others shared).
func renumber(n *engine.Node, remap []int, memo map[*engine.Node]*engine.Node) *engine.Node {
	if m, ok := memo[n]; ok {
		return m
	}
	m := n
	if n.Op == engine.OpInput {
		if remap[n.Input] != n.Input {
			c := *n
			c.Input = remap[n.Input]
			m = &c
		}
	} else {
		var args []*engine.Node
		for i, a := range n.Args {
			if b := renumber(a, remap, memo); b != a {
				if args == nil {
					args = slices.Clone(n.Args)
				}
				args[i] = b
			}
		}
		if args != nil {
			c := *n
			c.Args = args
			m = &c
		}
	}
	memo[n] = m
	return m
}
