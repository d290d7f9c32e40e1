package main

import (
	"fmt"
	"io"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/varshape"
)

// evalPlan is what eval does to each batch of its input: the columns it
// writes, in order, each passed through or computed by a Program.
type evalPlan struct {
	in          *arrow.Schema
	cols        []evalCol
	out         *arrow.Schema // set by schema
	opts        []expr.Option // of every Program
	fixed       bool          // --fixed
	tensorsOnly bool          // the output format holds tensor columns only
	stderr      io.Writer     // where each column's result type is reported
	// fused evaluates the graph programs of the added columns in one
	// pass when there are several (see fuse).
	fused *expr.Program
}

// evalCol is one output column: input column src passed through (prog
// nil), or prog's result, replacing src (x-based) or added (added).
type evalCol struct {
	field arrow.Field
	src   int
	prog  *expr.Program
	added bool // prog reads the whole batch: a new column
	// gfixed, with --fixed, converts a variable-shape result to the
	// fixed-shape type of the first valid row's result (field.Type).
	gfixed bool
	zeroD  bool // a plain result written as 0-D tensors
	fused  int  // 1 + prog's result column in evalPlan.fused; 0: none
}

// evalOutput is an expression and the name of the column it adds (-e
// NAME=EXPR, or EXPR with --as NAME).
type evalOutput struct{ name, text string }

// newEvalPlan plans eval of text for the columns of schema that columns
// names (every tensor column when empty) when text reads x, and as a
// column named as otherwise; then adds the columns of outputs.
func newEvalPlan(text, as string, outputs []evalOutput, schema *arrow.Schema, columns []string, tensorsOnly, fixed bool, opts []expr.Option, stderr io.Writer) (*evalPlan, error) {
	ep := &evalPlan{in: schema, opts: opts, fixed: fixed, tensorsOnly: tensorsOnly, stderr: stderr}
	for i, f := range schema.Fields() {
		ep.cols = append(ep.cols, evalCol{field: f, src: i})
	}
	targets, err := selectColumns(schema, columns)
	if err != nil {
		return nil, err
	}
	if text != "" {
		if err := ep.planText(text, as, targets, len(columns) > 0); err != nil {
			return nil, err
		}
	}
	var xopts []expr.Option
	if len(columns) == 1 {
		xopts = append(xopts, expr.WithInput(columns[0]))
	}
	for _, o := range outputs {
		p, err := expr.Compile(o.text, schema, append(slices.Clip(ep.opts), append(xopts, expr.WithName(o.name))...)...)
		if err != nil {
			return nil, fmt.Errorf("-e %s: %w", o.name, err)
		}
		if err := ep.add(p); err != nil {
			return nil, err
		}
	}
	if err := ep.fuse(); err != nil {
		return nil, err
	}
	if tensorsOnly {
		// Formats of tensor columns alone keep the computed columns only.
		ep.cols = slices.DeleteFunc(ep.cols, func(c evalCol) bool { return c.prog == nil })
	}
	return ep, nil
}

// planText plans text: for each target column when it reads x, as one
// added column named as when it names its columns.
func (ep *evalPlan) planText(text, as string, targets []int, named bool) error {
	tensors := 0
	for _, i := range targets {
		fld := ep.in.Field(i)
		if err := tensorColumn(fld, named, ep.stderr); err != nil {
			return err
		} else if !isTensorColumn(fld) {
			continue
		}
		tensors++
		p, err := expr.Compile(text, ep.in, append(slices.Clip(ep.opts), expr.WithInput(fld.Name))...)
		if err != nil {
			return fmt.Errorf("column %q: %w", fld.Name, err)
		}
		if !p.UsesX() {
			break // names its columns: added below
		}
		if err := ep.replace(i, p); err != nil {
			return err
		}
	}
	if ep.any() {
		return nil
	}
	p, err := expr.Compile(text, ep.in, append(slices.Clip(ep.opts), expr.WithName(as))...)
	if err != nil && tensors == 0 {
		return fmt.Errorf("%w: no tensor column to transform (plain lists of numbers become tensors with --shape), and %w", errUsage, err)
	}
	if err != nil {
		return err
	}
	return ep.add(p)
}

// tensorColumn checks the column fld to evaluate: named says --column
// named it, which makes a column that cannot be transformed an error; an
// unsupported tensor column is reported and kept otherwise.
func tensorColumn(fld arrow.Field, named bool, stderr io.Writer) error {
	if u, bad := fixedshape.UnsupportedOf(fld.Type); bad {
		if named {
			return fmt.Errorf("%w: column %q is a tensor column that cannot be transformed: %w", errUsage, fld.Name, u.Reason())
		}
		fmt.Fprintf(stderr, "%s: kept as it is: %v\n", printable(fld.Name), u.Reason())
		return nil
	}
	if !isTensorColumn(fld) && named {
		return fmt.Errorf("%w: column %q is %v, not a tensor column", errUsage, fld.Name, fld.Type)
	}
	return nil
}

// isTensorColumn reports whether fld is a fixed- or variable-shape tensor
// column eval can transform.
func isTensorColumn(fld arrow.Field) bool {
	if _, ok := varshape.TypeOf(fld.Type); ok {
		return true
	}
	_, ok := fixedshape.TypeOfField(fld)
	return ok
}

// replace makes p, which reads column i as x, write column i.
func (ep *evalPlan) replace(i int, p *expr.Program) error {
	c := &ep.cols[i]
	c.prog = p
	c.field.Type = p.Schema().Field(0).Type
	if _, ok := varshape.TypeOf(ep.in.Field(i).Type); ok && ep.fixed {
		if _, ok := c.field.Type.(*varshape.Type); ok {
			c.gfixed = true // typed by schema from the first batch
			return nil
		}
	}
	return ep.finish(c)
}

// fuse makes the graph programs of the added columns (-e NAME=EXPR
// among them), when there are several, the roots of one program: each
// batch's columns are then read once for all of them, and what they have
// in common computed once.
func (ep *evalPlan) fuse() error {
	var progs []*expr.Program
	var ks []int
	for k, c := range ep.cols {
		if c.added && c.prog != nil && c.prog.Graph() {
			progs, ks = append(progs, c.prog), append(ks, k)
		}
	}
	if len(progs) < 2 {
		return nil
	}
	f, err := expr.Fuse(progs...)
	if err != nil {
		return err
	}
	ep.fused = f
	for i, k := range ks {
		ep.cols[k].fused = i + 1
	}
	return nil
}

// add appends p's result as a new column, or replaces the column of its
// name.
func (ep *evalPlan) add(p *expr.Program) error {
	f := p.Schema().Field(0)
	c := evalCol{field: f, src: -1, prog: p, added: true}
	k := slices.IndexFunc(ep.cols, func(c evalCol) bool { return c.field.Name == f.Name })
	if k < 0 {
		ep.cols = append(ep.cols, c)
		k = len(ep.cols) - 1
	} else {
		ep.cols[k] = c
	}
	return ep.finish(&ep.cols[k])
}

// finish reports c's result type and, for formats of tensors only,
// writes a plain result as 0-D tensors.
func (ep *evalPlan) finish(c *evalCol) error {
	in := ep.in.Field(ep.in.FieldIndices(c.prog.Input())[0])
	from := in.Type.String()
	var inElem arrow.DataType
	if ft, ok := fixedshape.TypeOf(in.Type); ok {
		from, inElem = fmt.Sprintf("%s %s", ft.ElemType(), metadata.FormatShape(ft.Shape())), ft.ElemType()
	} else if vt, ok := varshape.TypeOf(in.Type); ok {
		from, inElem = fmt.Sprintf("%s %s", vt.ElemType(), formatUniform(vt.UniformShape(), vt.NDim())), vt.ElemType()
	}
	label := c.field.Name
	if c.added {
		label = fmt.Sprintf("%s (from %s)", c.field.Name, in.Name)
	}
	shown := c.field.Type
	if !isTensorType(c.field.Type) && ep.tensorsOnly {
		rt, err := fixedshape.NewType(c.field.Type, metadata.MustNew([]int{}, nil, nil))
		if err != nil {
			return fmt.Errorf("column %q: %w", c.field.Name, err)
		}
		c.field.Type, c.zeroD = rt, true
		if _, ok := fixedshape.TypeOf(in.Type); ok {
			shown = rt // as before for fixed-shape inputs: a 0-D shape
		}
	}
	to := typeShape(shown)
	var outElem arrow.DataType
	if ft, ok := shown.(*fixedshape.Type); ok {
		outElem = ft.ElemType()
	} else if vt, ok := varshape.TypeOf(shown); ok {
		outElem = vt.ElemType()
	}
	if outElem != nil && inElem != nil && !arrow.TypeEqual(outElem, inElem) {
		to = fmt.Sprintf("%s %s", outElem, to) // the element type changed
	}
	fmt.Fprintf(ep.stderr, "%s: %s -> %s\n", label, from, to)
	return nil
}

// isTensorType reports whether dt is a fixed- or variable-shape tensor
// type.
func isTensorType(dt arrow.DataType) bool {
	if _, ok := varshape.TypeOf(dt); ok {
		return true
	}
	_, ok := fixedshape.TypeOf(dt)
	return ok
}

// any reports whether some column is computed.
func (ep *evalPlan) any() bool {
	return slices.ContainsFunc(ep.cols, func(c evalCol) bool { return c.prog != nil })
}

// schema returns the output schema once the first batch (nil: none) is
// read, which gives the result shapes of variable-shape columns under
// --fixed.
func (ep *evalPlan) schema(first arrow.RecordBatch) (*arrow.Schema, error) {
	fields := make([]arrow.Field, len(ep.cols))
	for k := range ep.cols {
		c := &ep.cols[k]
		if _, ok := varshape.TypeOf(c.field.Type); ok && c.gfixed {
			rt, err := graphFixedType(c.prog, first)
			if err != nil {
				return nil, fmt.Errorf("column %q: %w", c.field.Name, err)
			}
			c.field.Type = rt
			if err := ep.finish(c); err != nil {
				return nil, err
			}
		}
		fields[k] = c.field
	}
	md := ep.in.Metadata()
	ep.out = arrow.NewSchema(fields, &md)
	return ep.out, nil
}

// apply evaluates the programs on rec, batch number batch holding the
// rows [first, first+rec.NumRows()) of the input, and returns the output
// batch, which the caller releases.
func (ep *evalPlan) apply(rec arrow.RecordBatch, batch int, first int64) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, len(ep.cols))
	defer func() {
		for k, c := range cols {
			if c != nil && ep.cols[k].prog != nil {
				c.Release()
			}
		}
	}()
	var fused arrow.RecordBatch
	if ep.fused != nil {
		var err error
		if fused, err = ep.fused.Eval(rec); err != nil {
			return nil, err
		}
		defer fused.Release()
	}
	for k := range ep.cols {
		c := &ep.cols[k]
		if c.prog == nil {
			cols[k] = rec.Column(c.src)
			continue
		}
		res, err := c.eval(rec, fused)
		if err != nil {
			if _, ok := rec.Column(rec.Schema().FieldIndices(c.prog.Input())[0]).(*varshape.Array); ok {
				err = fmt.Errorf("batch %d (rows %d to %d): %w", batch, first, first+rec.NumRows()-1, err)
			}
			return nil, fmt.Errorf("column %q: %w", c.field.Name, err)
		}
		cols[k] = res
	}
	return array.NewRecordBatch(ep.out, cols, rec.NumRows()), nil
}

// eval computes column c of rec (taking it from fused, the batch of
// evalPlan.fused, for a fused program).
func (c *evalCol) eval(rec, fused arrow.RecordBatch) (arrow.Array, error) {
	var res arrow.Array
	var err error
	switch {
	case c.fused > 0:
		res = fused.Column(c.fused - 1)
		res.Retain()
	default:
		// Eval rather than EvalColumn: an expression of x may read other
		// columns of the batch too.
		var out arrow.RecordBatch
		if out, err = c.prog.Eval(rec); err == nil {
			res = out.Column(0)
			res.Retain()
			out.Release()
		}
	}
	if err == nil && c.gfixed {
		res, err = toFixed(res, c.field.Type)
	}
	if err == nil && c.zeroD {
		res, err = asTensors(res, c.field.Type)
	}
	return res, err
}

// graphFixedType returns, for --fixed, the fixed-shape type of the
// result of p, a graph whose result is variable-shape, on the first
// valid row of first (nil: none).
func graphFixedType(p *expr.Program, first arrow.RecordBatch) (arrow.DataType, error) {
	if first == nil {
		return nil, fmt.Errorf("%w: --fixed takes the result shape from the first valid row of the first batch, and there is none", errUsage)
	}
	// Rows are evaluated a few at a time until one gives a valid result,
	// rather than the whole batch, which apply evaluates again.
	const step = 64
	for lo := int64(0); lo < first.NumRows(); lo += step {
		rows := first.NewSlice(lo, min(lo+step, first.NumRows()))
		out, err := p.Eval(rows)
		rows.Release()
		if err != nil {
			return nil, err
		}
		dt, err := firstFixedType(out.Column(0), lo)
		out.Release()
		if dt != nil || err != nil {
			return dt, err
		}
	}
	return nil, fmt.Errorf("%w: --fixed takes the result shape from the first valid row of the first batch, and there is none", errUsage)
}

// firstFixedType returns the fixed-shape type of the first valid row of
// res, a graph's variable-shape result for the rows from first, or nil
// when no row is valid.
func firstFixedType(res arrow.Array, first int64) (arrow.DataType, error) {
	a, ok := res.(*varshape.Array)
	if !ok {
		return nil, fmt.Errorf("--fixed: a %T result", res)
	}
	for r := range a.Len() {
		if a.IsValid(r) {
			m, err := metadata.New(a.Shape(nil, r), a.TensorType().DimNames(), nil)
			if err != nil {
				return nil, err
			}
			if m.Size() == 0 {
				return nil, fmt.Errorf("--fixed: the result of row %d has shape %s, no element, and a fixed-shape column cannot hold that", first+int64(r), metadata.FormatShape(m.Shape()))
			}
			return fixedshape.NewType(a.TensorType().ElemType(), m)
		}
	}
	return nil, nil
}

// toFixed converts a graph's variable-shape result to the fixed-shape
// type dt of --fixed, releasing it.
func toFixed(res arrow.Array, dt arrow.DataType) (arrow.Array, error) {
	defer res.Release()
	a, ok := res.(*varshape.Array)
	if !ok {
		return nil, fmt.Errorf("--fixed: a %T result", res)
	}
	want := dt.(*fixedshape.Type)
	for r := range a.Len() {
		if a.IsValid(r) && !slices.Equal(a.Shape(nil, r), want.Shape()) {
			return nil, fmt.Errorf("row %d of %d: the result shape %s differs from the fixed shape %s", r, a.Len(), metadata.FormatShape(a.Shape(nil, r)), metadata.FormatShape(want.Shape()))
		}
	}
	f, err := varshape.ToFixed(mem, a)
	if err != nil {
		return nil, err
	}
	if got := f.DataType(); !arrow.TypeEqual(got, dt) {
		f.Release()
		return nil, fmt.Errorf("--fixed: the result type %v differs from %v", got, dt)
	}
	return f, nil
}
