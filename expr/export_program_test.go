package expr

import "github.com/apache/arrow-go/v18/arrow"

// ProgramExpr returns the expression of a program over a fixed-shape or
// plain column: its Plan's chain, or the graph of its one root; nil for
// a variable-shape one.
func ProgramExpr(p *Program) Expr {
	switch {
	case p.plan != nil:
		return p.plan.Expr()
	case p.graph != nil && len(p.graph.src) == 1:
		return graphNode(p.graph.src[0].g)
	}
	return nil
}

// CompileGraph compiles text as a graph for the engine even when it is
// a chain that Compile runs through a Plan, for the tests that compare
// the two.
func CompileGraph(text string, schema *arrow.Schema, opts ...Option) (*Program, error) {
	o, x, err := configSchema(schema, opts)
	if err != nil {
		return nil, err
	}
	g, err := parseGraph(text)
	if err != nil {
		return nil, err
	}
	return compileGraph(text, g, schema, x, o, opts)
}
