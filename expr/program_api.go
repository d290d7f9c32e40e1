package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/expr/internal/engine"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/stride"
	"github.com/fstensor/fstensor/varshape"
)

// Program is an expression compiled for the columns of an input schema:
// it knows the schema of its result before any data (Schema) and
// evaluates record batches (Eval) or single columns (EvalColumn) of that
// input, in the engine, whose buffers it reuses between calls (over
// variable-shape columns, one engine program per combination of row
// shapes, the 64 most recently used kept), or through a Plan (see
// Compile: a relabelling view, views of decimals).
// A Program is safe for concurrent use.
type Program struct {
	in       *arrow.Schema
	col      int              // the input column
	inType   arrow.DataType   // its type
	viaX     bool             // the expression reads it as x
	schema   *arrow.Schema    // the result: one field
	plan     *Plan            // of a fixed-shape or plain input
	scalarIn *fixedshape.Type // a plain input as 0-D tensors; nil otherwise
	plainOut bool             // a 0-D tensor result of a plain input is a plain column
	graph    *graphProgram    // of a graph expression (the engine)
	vgraph   *varGraph        // of a graph reading a variable-shape column
	opts     []Option         // of every evaluation
}

// Compile compiles the expression text for record batches of schema and
// returns its Program. The text is Parse's, in which x is the column
// chosen by WithInput (or the schema's only tensor column), any other
// identifier that is not a function call names a column of the schema,
// and col("a name") names a column whose name is not an identifier (in
// double or single quotes; a backslash escapes the next byte). A column
// may be a fixed-shape tensor column, a variable-shape one, or a plain
// integer or floating-point column, whose value in each row is read as a
// 0-D tensor (so `price * 2` is a plain column again, and a reduction
// of it too).
//
// opts are the evaluation options of every Eval (WithAllocator,
// WithWorkers, WithRelabel, which also sets the result type of a
// relabelling view), WithInput, WithName, WithLoad and WithResultType.
//
// Compile and CompileExpr are two functions rather than one taking an
// interface so that the compiler checks what is passed, as regexp.Compile
// and syntax.Parse do.
//
// Every text runs in the engine, as a graph (see Graph expressions in
// the package doc) typed here against the schema (over variable-shape
// columns, one engine program per combination of row shapes), but for
// two cases, which run through a Plan: a view that only relabels its
// column's elements with WithRelabel, whose Plan shares the column's
// buffers; and views of decimals and other elements the engine does not
// compute on, which a Plan moves as bytes.
//
// Errors wrap arrow.ErrInvalid (a syntax error, an unknown column, whose
// message lists the schema's columns, a column that is not a tensor or
// number, an expression that fails Check, shapes that do not broadcast,
// a result type that cannot be decided before data), with the place in
// the text. A result with a size-0 dimension fails as fixedshape.NewType
// does.
func Compile(text string, schema *arrow.Schema, opts ...Option) (*Program, error) {
	if len(text) > MaxText {
		return nil, &Error{Text: text[:80], Pos: MaxText, Msg: fmt.Sprintf("text of %d bytes exceeds the limit of %d", len(text), MaxText)}
	}
	o, x, err := configSchema(schema, opts)
	if err != nil {
		return nil, err
	}
	g, err := parseGraph(text)
	if err != nil {
		return nil, err
	}
	if prog, ok, err := compileChain(text, g, schema, x, o, opts); ok {
		return prog, err
	}
	return compileGraph(text, g, schema, x, o, opts)
}

// columnOf returns the column of schema that g, x or a column by name,
// reads (-1 for none, or when g reads no column), and whether it reads
// it as x. x stands for column x, or else for a column named x.
func columnOf(g *gnode, schema *arrow.Schema, x int) (int, bool) {
	name := g.name
	switch {
	case g.op == gX && x >= 0:
		return x, true
	case g.op == gX:
		name = "x"
	case g.op != gCol:
		return -1, false
	}
	if ix := schema.FieldIndices(name); len(ix) > 0 {
		return ix[0], false
	}
	return -1, false
}

// compileChain compiles g through a Plan when it is a chain the
// constructors express over a fixed-shape column of elements the engine
// does not hold (movedOnly), or a view that relabels the elements of a
// fixed-shape or plain column compiled with WithRelabel (which a Plan
// evaluates by sharing the column's buffers); it reports false for
// every other graph (the engine's compiler reports its errors).
func compileChain(text string, g *gnode, schema *arrow.Schema, x int, o options, opts []Option) (*Program, bool, error) {
	leaf := chainLeaf(g)
	if leaf == nil {
		return nil, false, nil
	}
	col, viaX := columnOf(leaf, schema, x)
	if col < 0 {
		return nil, false, nil
	}
	f := schema.Field(col)
	moved := movedOnly(f)
	if !moved && !o.relabel {
		return nil, false, nil
	}
	in, err := inputOfField(f)
	if err != nil {
		return nil, false, nil
	}
	e, err := chainOf(g, in, text)
	if err != nil {
		return nil, false, nil
	}
	if !moved && !relabels(e) {
		return nil, false, nil
	}
	prog, err := newProgram(e, schema, col, viaX, o, opts)
	return prog, true, err
}

// movedOnly reports whether f is a fixed-shape column of elements the
// engine does not compute on (decimals, fixed-size binaries), whose
// views a Plan moves as bytes.
func movedOnly(f arrow.Field) bool {
	t, ok := fixedshape.TypeOf(f.Type)
	return ok && etypeOf(t.ElemType()) == engine.Invalid
}

// relabels reports whether chain e is a view that relabels its input's
// elements (Plan.Relabel), which a Plan with WithRelabel evaluates by
// sharing the input's buffers.
func relabels(e Expr) bool {
	pl, err := CompilePlan(e)
	return err == nil && pl.ok && pl.comp == nil
}

// CompileExpr is Compile for an expression built in Go. A graph (built
// on X or Col) compiles as Compile compiles its text, String, its
// constants of any size included. A chain reads x, the column chosen by
// WithInput (or the schema's only tensor column), and must have been
// built on an input of that column's type (Input of a fixed-shape type,
// InputOf of any shape with a variable-shape column's element type and
// number of dimensions); it runs where Compile runs its text. Errors are
// Compile's, and an error wrapping arrow.ErrInvalid when e's input does
// not match the column.
func CompileExpr(e Expr, schema *arrow.Schema, opts ...Option) (*Program, error) {
	o, x, err := configSchema(schema, opts)
	if err != nil {
		return nil, err
	}
	if isGraph(e) {
		if err := Check(e); err != nil {
			return nil, err
		}
		g := e.node().g
		if isChain(g) {
			if text := e.String(); len(text) <= MaxText {
				return Compile(text, schema, opts...) // where its text runs
			}
		}
		return compileGraph("", g, schema, x, o, opts)
	}
	if x < 0 {
		return nil, errorf("no input column for x: the schema has %s; name one with WithInput", columnList(schema))
	}
	if err := Check(e); err != nil {
		return nil, err
	}
	f := schema.Field(x)
	if vt, ok := varshape.TypeOf(f.Type); ok {
		in := chainInput(e.node())
		if !arrow.TypeEqual(in.elem, vt.ElemType()) || in.in.NDim() != vt.NDim() {
			return nil, errorf("expression over %d-D %v tensors for a column of %d-D %v tensors", in.in.NDim(), in.elem, vt.NDim(), vt.ElemType())
		}
		return compileGraph("", chainGraph(e.node()), schema, x, o, opts)
	}
	// The Plan's Program checks e's input against the column; it runs
	// only a relabelling view with WithRelabel, the engine all else.
	prog, err := newProgram(e, schema, x, true, o, opts)
	if err != nil || movedOnly(f) || o.relabel && relabels(e) {
		return prog, err
	}
	return compileGraph("", chainGraph(e.node()), schema, x, o, opts)
}

// configSchema checks the schema and options of Compile and CompileExpr
// and returns the options and the column x reads (-1 for none).
func configSchema(schema *arrow.Schema, opts []Option) (options, int, error) {
	if schema == nil {
		return options{}, -1, errorf("no schema")
	}
	o, err := config(opts)
	if err != nil {
		return options{}, -1, err
	}
	x, err := inputColumn(schema, o)
	if err != nil {
		return options{}, -1, err
	}
	return o, x, nil
}

// newProgram compiles e over the fixed-shape or plain column col.
func newProgram(e Expr, schema *arrow.Schema, col int, viaX bool, o options, opts []Option) (*Program, error) {
	if err := refuseResultType(o); err != nil {
		return nil, err
	}
	f := schema.Field(col)
	in, err := inputOfField(f)
	if err != nil {
		return nil, errorf("column %q: %v", f.Name, err)
	}
	pl, err := CompilePlan(e)
	if err != nil {
		return nil, err
	}
	t, _ := fixedshape.TypeOf(f.Type)
	if t == nil {
		t, _ = scalarType(f.Type)
	}
	if err := pl.checkInput(t); err != nil {
		return nil, fmt.Errorf("%w (column %q is %v)", err, f.Name, in.Metadata())
	}
	dt, err := planType(pl, o.relabel)
	if err != nil {
		return nil, err
	}
	prog := &Program{in: schema, col: col, inType: f.Type, viaX: viaX, plan: pl, opts: opts}
	if _, ok := fixedshape.TypeOf(f.Type); !ok {
		prog.scalarIn = t
		if ft, ok := dt.(*fixedshape.Type); ok && len(ft.Shape()) == 0 {
			dt, prog.plainOut = ft.ElemType(), true
		}
	}
	prog.schema = resultSchema(f, dt, viaX, o)
	return prog, nil
}

// asResultType checks t, the type of WithResultType, against dt, the
// result type decided from the column's type, and returns t.
func asResultType(t, dt arrow.DataType) (arrow.DataType, error) {
	if arrow.TypeEqual(t, dt) {
		return t, nil
	}
	elem, nd := dt, 0
	if ft, ok := dt.(*fixedshape.Type); ok {
		elem, nd = ft.ElemType(), ft.NDim()
	} else if vt, ok := varshape.TypeOf(dt); ok {
		elem, nd = vt.ElemType(), vt.NDim()
	} else {
		return nil, errorf("WithResultType(%v): the result is one %v per row", t, dt)
	}
	switch u := t.(type) {
	case *fixedshape.Type:
		if arrow.TypeEqual(u.ElemType(), elem) && u.NDim() == nd && stride.IsIdentity(u.Permutation()) {
			return t, nil
		}
	case *varshape.Type:
		if arrow.TypeEqual(u.ElemType(), elem) && u.NDim() == nd && stride.IsIdentity(u.Permutation()) {
			return t, nil
		}
	}
	return nil, errorf("WithResultType(%v): the result is %d-D %v, dense row-major", t, nd, elem)
}

// refuseResultType fails when WithResultType is given for a program that
// is not a chain over a variable-shape column.
func refuseResultType(o options) error {
	if o.resultType == nil {
		return nil
	}
	return errorf("WithResultType(%v) takes an expression that reads a variable-shape column", o.resultType)
}

// planType returns the type of the column pl's Eval returns: with
// relabel, the permuted type of a relabelling view.
func planType(pl *Plan, relabel bool) (arrow.DataType, error) {
	if !relabel || pl.comp != nil || !pl.ok {
		return pl.ResultType()
	}
	perm := pl.relabel
	if stride.IsIdentity(perm) {
		perm = nil
	}
	m, err := metadata.New(pl.out.Shape(), pl.out.DimNames(), perm)
	if err != nil {
		return nil, errorf("relabelled result: %v", err)
	}
	return fixedshape.NewType(pl.elem, m)
}

// resultSchema is the schema of one result column of type dt.
func resultSchema(in arrow.Field, dt arrow.DataType, viaX bool, o options) *arrow.Schema {
	name := "result"
	switch {
	case o.nameSet:
		name = o.name
	case viaX:
		name = in.Name
	}
	return arrow.NewSchema([]arrow.Field{{Name: name, Type: dt, Nullable: true}}, nil)
}

// Schema returns the schema of the record batches Eval returns: one
// column, named by WithName (or see there), of the result's type: a
// *fixedshape.Type, a *varshape.Type (for a variable-shape input whose
// result shape varies with the rows: see Variable-shape columns in the
// package doc, and WithResultType), or a plain Arrow type when each row
// gives one value (a full reduction, a similarity, arithmetic on a plain
// column).
func (p *Program) Schema() *arrow.Schema { return p.schema }

// Input returns the name of the input column the program reads: for a
// graph reading several columns, x's column when it reads x and the
// first column it reads otherwise.
func (p *Program) Input() string { return p.in.Field(p.col).Name }

// UsesX reports whether the expression reads its input as x, rather than
// by the column's name.
func (p *Program) UsesX() bool { return p.viaX }

// Eval evaluates the program over the rows of rec, whose schema must
// have the input column, at the same place and of the same type as the
// schema Compile was given (other columns may differ), and returns a
// record batch of Schema with as many rows; the caller releases it. A
// null input row gives a null result row. Errors wrap arrow.ErrInvalid:
// a mismatched batch, or a row the expression fails on (a variable-shape
// row on which an index is out of bounds: the error names the row).
func (p *Program) Eval(rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	if p.graph != nil {
		return p.evalBatch(rec)
	}
	if p.vgraph != nil {
		return p.evalVarBatch(rec)
	}
	if int(rec.NumCols()) <= p.col {
		return nil, errorf("a batch of %d columns has no column %d (%q)", rec.NumCols(), p.col, p.Input())
	}
	out, err := p.EvalColumn(rec.Column(p.col))
	if err != nil {
		return nil, err
	}
	defer out.Release()
	return array.NewRecordBatch(p.schema, []arrow.Array{out}, rec.NumRows()), nil
}

// EvalColumn evaluates the program over arr, a column of the input
// column's type (a graph reading several columns needs Eval), and returns
// a column of Schema's type with one row per row of arr, allocated from WithAllocator's allocator (or sharing arr's
// buffers for a relabelling view with WithRelabel); the caller releases
// it. Errors are Eval's.
func (p *Program) EvalColumn(arr arrow.Array) (arrow.Array, error) {
	if p.graph != nil {
		return p.evalOne(arr)
	}
	if p.vgraph != nil {
		return p.evalVarOne(arr)
	}
	if !arrow.TypeEqual(arr.DataType(), p.inType) {
		return nil, errorf("column %q: a column of %v, not %v", p.Input(), arr.DataType(), p.inType)
	}
	switch {
	case p.scalarIn != nil:
		return p.evalPlain(arr)
	}
	a, ok := arr.(*fixedshape.Array)
	if !ok {
		return nil, errorf("column %q: a %T, not a fixed-shape array", p.Input(), arr)
	}
	return p.plan.Eval(a, p.opts...)
}

// evalPlain evaluates the plan over a plain column read as 0-D tensors
// (sharing its buffers) and returns a 0-D result as a plain column.
func (p *Program) evalPlain(arr arrow.Array) (arrow.Array, error) {
	d := arr.Data()
	if len(d.Buffers()) != 2 {
		return nil, errorf("column %q: %d buffers in a column of %v", p.Input(), len(d.Buffers()), arr.DataType())
	}
	// The child starts where the buffers start; the list's offset is the
	// column's, which its validity bitmap counts from.
	nulls := array.UnknownNullCount
	if d.Buffers()[0] == nil {
		nulls = 0
	}
	child := array.NewData(d.DataType(), d.Offset()+d.Len(), d.Buffers(), nil, nulls, 0)
	defer child.Release()
	st := array.NewData(p.scalarIn.StorageType(), d.Len(), []*memory.Buffer{d.Buffers()[0]}, []arrow.ArrayData{child}, d.NullN(), d.Offset())
	defer st.Release()
	sa := array.MakeFromData(st)
	defer sa.Release()
	in, err := fixedshape.NewArray(p.scalarIn, sa)
	if err != nil {
		return nil, err
	}
	defer in.Release()
	res, err := p.plan.Eval(in, p.opts...)
	if err != nil || !p.plainOut {
		return res, err
	}
	defer res.Release()
	rd := res.Data()
	vals := rd.Children()[0]
	if rd.Offset() != 0 || vals.Offset() != 0 {
		return nil, errorf("column %q: unexpected layout of a 0-D result", p.Input())
	}
	out := array.NewData(p.schema.Field(0).Type, rd.Len(), []*memory.Buffer{rd.Buffers()[0], vals.Buffers()[1]}, nil, rd.NullN(), 0)
	defer out.Release()
	return array.MakeFromData(out), nil
}

// chainInput returns the input node a chain is built on.
func chainInput(n *node) *node {
	for n.x != nil {
		n = n.x
	}
	return n
}
