package expr

import (
	"errors"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/fstensor/fstensor/expr/internal/engine"
)

// graphProgram is a Program of graph expressions: their engine graph
// over the input columns cols, one root per result column.
type graphProgram struct {
	cols    []int            // the schema's column of each engine input
	inputs  []engine.Input   // their engine types and shapes
	inTypes []arrow.DataType // their types
	roots   []*engine.Node
	prog    *engine.Program
}

// compileGraph compiles graph g (parsed from text, "" when built in Go)
// for schema, x naming the column of x (-1: none).
func compileGraph(text string, g *gnode, schema *arrow.Schema, x int, o options, opts []Option) (*Program, error) {
	l := newLowerer(text, schema, x, o)
	root, err := l.node(g)
	if err != nil {
		return nil, err
	}
	dt, err := resultType(root)
	if err != nil {
		return nil, err
	}
	gp := &graphProgram{cols: l.cols, inputs: l.inputs, roots: []*engine.Node{root}}
	for _, c := range l.cols {
		gp.inTypes = append(gp.inTypes, schema.Field(c).Type)
	}
	if err := gp.compile(o); err != nil {
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
		col = l.cols[0]
	}
	return &Program{in: schema, col: col, inType: schema.Field(col).Type, viaX: viaX, graph: gp, opts: opts,
		schema: arrow.NewSchema([]arrow.Field{{Name: name, Type: dt, Nullable: true}}, nil)}, nil
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

// pickError returns the syntax error to report when both the chain
// parser (old) and the graph parser (gerr) refuse a text: the graph's
// when the chain parser refused what it does not support or stopped
// earlier in the text, the chain parser's otherwise.
func pickError(old, gerr error) error {
	if errors.Is(old, arrow.ErrNotImplemented) {
		return gerr
	}
	var a, b *Error
	if errors.As(old, &a) && errors.As(gerr, &b) && b.Pos > a.Pos {
		return gerr
	}
	return old
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
