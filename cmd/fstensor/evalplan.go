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

// evalPlan is what eval does to each column of its input: a plan for
// each transformed column, the others passed through.
type evalPlan struct {
	in          *arrow.Schema
	fields      []arrow.Field    // in's fields, with the result types of transformed columns
	plans       []*expr.Plan     // of the transformed fixed-shape columns
	vplans      []*expr.VarPlan  // of the transformed variable-shape columns
	vscalar     []arrow.DataType // one value per row of vplans[i]: its type
	keep        []int            // the columns written, in order
	out         *arrow.Schema    // set by schema
	opts        []expr.Option    // of every evaluation
	fixed       bool             // --fixed
	tensorsOnly bool             // the output format holds tensor columns only
	stderr      io.Writer        // where each column's result type is reported
}

// newEvalPlan plans text for the columns of schema that columns names
// (every tensor column when empty), reporting each plan to stderr.
func newEvalPlan(text string, schema *arrow.Schema, columns []string, tensorsOnly, fixed bool, opts []expr.Option, stderr io.Writer) (*evalPlan, error) {
	n := schema.NumFields()
	ep := &evalPlan{
		in:          schema,
		fields:      slices.Clone(schema.Fields()),
		plans:       make([]*expr.Plan, n),
		vplans:      make([]*expr.VarPlan, n),
		vscalar:     make([]arrow.DataType, n),
		opts:        opts,
		fixed:       fixed,
		tensorsOnly: tensorsOnly,
		stderr:      stderr,
	}
	targets, err := selectColumns(schema, columns)
	if err != nil {
		return nil, err
	}
	for _, i := range targets {
		if err := ep.planColumn(text, i, len(columns) > 0); err != nil {
			return nil, err
		}
	}
	// Formats of tensor columns alone keep the transformed columns only.
	ep.keep = make([]int, 0, n)
	for i := range ep.fields {
		if ep.transformed(i) || !tensorsOnly {
			ep.keep = append(ep.keep, i)
		}
	}
	return ep, nil
}

// transformed reports whether column i is evaluated.
func (ep *evalPlan) transformed(i int) bool { return ep.plans[i] != nil || ep.vplans[i] != nil }

// any reports whether some column is evaluated.
func (ep *evalPlan) any() bool {
	for i := range ep.fields {
		if ep.transformed(i) {
			return true
		}
	}
	return false
}

// planColumn plans text for column i; named says --column named it, which
// makes a column that cannot be transformed an error.
func (ep *evalPlan) planColumn(text string, i int, named bool) error {
	fld := ep.fields[i]
	if vt, ok := varshape.TypeOf(fld.Type); ok {
		ep.vplans[i] = expr.ParseVar(text, vt)
		return nil
	}
	typ, ok := fixedshape.TypeOfField(fld)
	if u, bad := fixedshape.UnsupportedOf(fld.Type); bad {
		if named {
			return fmt.Errorf("%w: column %q is a tensor column that cannot be transformed: %w", errUsage, fld.Name, u.Reason())
		}
		fmt.Fprintf(ep.stderr, "%s: kept as it is: %v\n", printable(fld.Name), u.Reason())
		return nil
	}
	if !ok {
		if named {
			return fmt.Errorf("%w: column %q is %v, not a tensor column", errUsage, fld.Name, fld.Type)
		}
		return nil
	}
	p, rt, err := ep.planFixed(text, typ)
	if err != nil {
		return fmt.Errorf("column %q: %w", fld.Name, err)
	}
	ep.plans[i] = p
	ep.fields[i].Type = rt
	fmt.Fprintf(ep.stderr, "%s: %s %s -> %s\n", fld.Name, typ.ElemType(), metadata.FormatShape(typ.Shape()), typeShape(rt))
	return nil
}

// planFixed compiles text for a fixed-shape column of type typ and
// returns the plan and the type of the column it writes.
func (ep *evalPlan) planFixed(text string, typ *fixedshape.Type) (*expr.Plan, arrow.DataType, error) {
	e, err := expr.Parse(text, expr.Input(typ))
	if err != nil {
		return nil, nil, err
	}
	p, err := expr.CompilePlan(e)
	if err != nil {
		return nil, nil, err
	}
	rt, err := resultType(p, typ, ep.opts)
	if err != nil {
		return nil, nil, err
	}
	if p.Scalar() && ep.tensorsOnly {
		// One value per row, as a column of 0-D tensors.
		if rt, err = fixedshape.NewType(rt, metadata.MustNew([]int{}, nil, nil)); err != nil {
			return nil, nil, err
		}
	}
	return p, rt, nil
}

// schema returns the output schema once the first batch (nil: none) is
// read, which gives the result types of variable-shape columns.
func (ep *evalPlan) schema(first arrow.RecordBatch) (*arrow.Schema, error) {
	for i, vp := range ep.vplans {
		if vp == nil {
			continue
		}
		rt, err := varResultType(vp, first, i, ep.fixed)
		if err != nil {
			return nil, fmt.Errorf("column %q: %w", ep.fields[i].Name, err)
		}
		vt, _ := varshape.TypeOf(ep.in.Field(i).Type)
		fmt.Fprintf(ep.stderr, "%s: %s %s -> %s\n", ep.fields[i].Name, vt.ElemType(), formatUniform(vt.UniformShape(), vt.NDim()), typeShape(rt))
		if _, ok := rt.(arrow.ExtensionType); !ok {
			ep.vscalar[i] = rt
			if ep.tensorsOnly {
				// One value per row, as a column of 0-D tensors.
				if rt, err = fixedshape.NewType(rt, metadata.MustNew([]int{}, nil, nil)); err != nil {
					return nil, fmt.Errorf("column %q: %w", ep.fields[i].Name, err)
				}
			}
		}
		ep.fields[i].Type = rt
	}
	outFields := make([]arrow.Field, len(ep.keep))
	for k, i := range ep.keep {
		outFields[k] = ep.fields[i]
	}
	md := ep.in.Metadata()
	ep.out = arrow.NewSchema(outFields, &md)
	return ep.out, nil
}

// apply evaluates the plans on rec, batch number batch holding the rows
// [first, first+rec.NumRows()) of the input, and returns the output batch,
// which the caller releases.
func (ep *evalPlan) apply(rec arrow.RecordBatch, batch int, first int64) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, len(ep.keep))
	defer func() {
		for k, c := range cols {
			if c != nil && ep.transformed(ep.keep[k]) {
				c.Release()
			}
		}
	}()
	for k, i := range ep.keep {
		if !ep.transformed(i) {
			cols[k] = rec.Column(i)
			continue
		}
		res, err := ep.applyColumn(rec, i)
		if err != nil && ep.vplans[i] != nil {
			err = fmt.Errorf("batch %d (rows %d to %d): %w", batch, first, first+rec.NumRows()-1, err)
		}
		if err != nil {
			return nil, fmt.Errorf("column %q: %w", ep.fields[i].Name, err)
		}
		cols[k] = res
		if !arrow.TypeEqual(res.DataType(), ep.fields[i].Type) {
			return nil, fmt.Errorf("column %q: the result type %v differs from %v", ep.fields[i].Name, res.DataType(), ep.fields[i].Type)
		}
	}
	return array.NewRecordBatch(ep.out, cols, rec.NumRows()), nil
}

// applyColumn evaluates the plan of the transformed column i of rec.
func (ep *evalPlan) applyColumn(rec arrow.RecordBatch, i int) (arrow.Array, error) {
	if p := ep.plans[i]; p != nil {
		res, err := p.EvalArray(rec.Column(i).(*fixedshape.Array), ep.opts...)
		if err == nil && p.Scalar() {
			res, err = asTensors(res, ep.fields[i].Type)
		}
		return res, err
	}
	col := rec.Column(i).(*varshape.Array)
	if ep.vscalar[i] == nil {
		return ep.vplans[i].EvalAs(ep.fields[i].Type, col, ep.opts...)
	}
	res, err := ep.vplans[i].EvalAs(ep.vscalar[i], col, ep.opts...)
	if err == nil {
		res, err = asTensors(res, ep.fields[i].Type)
	}
	return res, err
}

// tensorBytes returns the bytes of the tensors of rec that ep transforms.
func (ep *evalPlan) tensorBytes(rec arrow.RecordBatch) int64 {
	var n int64
	for i := range ep.fields {
		switch a := rec.Column(i).(type) {
		case *fixedshape.Array:
			if ep.plans[i] != nil {
				n += int64(len(a.ValueBytes()))
			}
		case *varshape.Array:
			if ep.vplans[i] != nil {
				if raw, err := a.Raw(); err == nil && a.Len() > 0 {
					n += int64(raw.Offsets[a.Len()]-raw.Offsets[0]) * int64(raw.Width)
				}
			}
		}
	}
	return n
}
