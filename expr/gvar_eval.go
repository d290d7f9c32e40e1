package expr

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/fstensor/fstensor/expr/internal/engine"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/stride"
	"github.com/fstensor/fstensor/varshape"
)

// varRun is a run of consecutive rows [lo, hi) of one combination of row
// shapes, none of them null.
type varRun struct {
	lo, hi int
	e      *varEntry
}

// varInputs is one batch's columns as the engine reads them.
type varInputs struct {
	cols  []engine.Column // of each column, from row 0, without validity
	raws  []varshape.Raw  // of the variable-shape ones (by position in cols)
	row   []int           // bytes per row of the fixed-width ones (0: bits)
	size  []int           // elements per row of the others
	nulls []arrow.Array   // the columns with nulls
}

// evalVarBatch is Eval of a varGraph program: of each group of its
// roots (see fuseVar), which reads its own columns.
func (p *Program) evalVarBatch(rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	o, err := config(p.opts)
	if err != nil {
		return nil, err
	}
	groups := p.vgraph.groups
	if groups == nil {
		groups = []varGroup{{v: p.vgraph}}
	}
	res := make([]arrow.Array, len(p.schema.Fields()))
	defer func() {
		for _, a := range res {
			if a != nil {
				a.Release()
			}
		}
	}()
	for _, g := range groups {
		cols := make([]arrow.Array, len(g.v.cols))
		for i, c := range g.v.cols {
			if int(rec.NumCols()) <= c {
				return nil, errorf("a batch of %d columns has no column %d (%q)", rec.NumCols(), c, p.in.Field(c).Name)
			}
			cols[i] = rec.Column(c)
		}
		out, err := g.v.eval(cols, int(rec.NumRows()), o)
		if err != nil {
			return nil, err
		}
		for k, a := range out {
			at := k
			if g.roots != nil {
				at = g.roots[k]
			}
			res[at] = a
		}
	}
	return array.NewRecordBatch(p.schema, res, rec.NumRows()), nil
}

// evalVarOne is EvalColumn of a varGraph program, which must read one
// column.
func (p *Program) evalVarOne(arr arrow.Array) (arrow.Array, error) {
	if len(p.vgraph.cols) != 1 || len(p.vgraph.roots) != 1 || p.vgraph.groups != nil {
		return nil, errorf("the program reads %d columns: evaluate it on a record batch (Eval)", len(p.vgraph.cols))
	}
	o, err := config(p.opts)
	if err != nil {
		return nil, err
	}
	res, err := p.vgraph.eval([]arrow.Array{arr}, arr.Len(), o)
	if err != nil {
		return nil, err
	}
	return res[0], nil
}

// eval evaluates the roots over cols (one per v.cols): runs of rows of
// one combination of row shapes, each through its engine program,
// written straight into the result columns.
func (v *varGraph) eval(cols []arrow.Array, rows int, o options) ([]arrow.Array, error) {
	in, err := v.inputs(cols, rows)
	if err != nil {
		return nil, err
	}
	runs, null, err := v.runs(in, rows)
	if err != nil {
		return nil, err
	}
	outs := make([]*varOut, len(v.roots))
	defer func() {
		for _, out := range outs {
			out.release()
		}
	}()
	for k := range v.roots {
		if outs[k], err = v.newOut(k, runs, null, rows, o.mem); err != nil {
			return nil, err
		}
	}
	var ins []engine.Column
	res := make([]engine.Column, len(v.roots))
	for j, r := range runs {
		ins = v.runInputs(ins, in, r)
		for k, out := range outs {
			res[k] = out.column(j, r)
		}
		if err := r.e.prog.RunCounts(ins, r.hi-r.lo, res, nil); err != nil {
			// The engine counts the run's rows from 0.
			return nil, newErrorOf(err, "", -1, fmt.Sprintf("rows %d to %d (the engine's row 0 is row %d): %s", r.lo, r.hi-1, r.lo, errMsg(err)))
		}
	}
	arrs := make([]arrow.Array, 0, len(outs))
	for _, out := range outs {
		a, err := out.array(rows)
		if err != nil {
			for _, b := range arrs {
				b.Release()
			}
			return nil, err
		}
		arrs = append(arrs, a)
	}
	return arrs, nil
}

// logicalShape returns the logical shape of a row of physical shape phys
// of a column of type t.
func logicalShape(t *varshape.Type, phys []int) []int {
	if perm := t.Permutation(); perm != nil {
		return stride.Gather(nil, phys, perm)
	}
	return phys
}

// inputs checks cols and returns the engine's view of them.
func (v *varGraph) inputs(cols []arrow.Array, rows int) (*varInputs, error) {
	in := &varInputs{cols: make([]engine.Column, len(cols)), raws: make([]varshape.Raw, len(cols)),
		row: make([]int, len(cols)), size: make([]int, len(cols))}
	for i, a := range cols {
		name := v.schema.Field(v.cols[i]).Name
		if !arrow.TypeEqual(a.DataType(), v.inTypes[i]) {
			return nil, errorf("column %q: a column of %v, not %v", name, a.DataType(), v.inTypes[i])
		}
		if a.Len() != rows {
			return nil, errorf("column %q: %d rows in a batch of %d", name, a.Len(), rows)
		}
		if a.NullN() > 0 {
			in.nulls = append(in.nulls, a)
		}
		if _, ok := varshape.TypeOf(a.DataType()); ok {
			va, ok := a.(*varshape.Array)
			if !ok {
				return nil, errorf("column %q: a %T, not a variable-shape array", name, a)
			}
			raw, err := va.Raw()
			if err != nil {
				return nil, fmt.Errorf("column %q: %w", name, err)
			}
			in.raws[i] = raw
			continue
		}
		c := engineColumn(a)
		c.Valid, c.ValidOffset = nil, 0
		in.cols[i] = c
		in.size[i] = 1
		elem := a.DataType()
		if t, ok := elem.(*fixedshape.Type); ok {
			in.size[i], elem = t.ListSize(), t.ElemType()
		}
		if elem.ID() != arrow.BOOL {
			in.row[i] = in.size[i] * elem.(arrow.FixedWidthDataType).BitWidth() / 8
		}
	}
	return in, nil
}

// runs splits the rows into runs of one combination of row shapes and
// returns them with the rows that are null in some column (nil: none).
func (v *varGraph) runs(in *varInputs, rows int) ([]varRun, []bool, error) {
	var null []bool
	if len(in.nulls) > 0 {
		null = make([]bool, rows)
		for _, a := range in.nulls {
			for i := range rows {
				null[i] = null[i] || a.IsNull(i)
			}
		}
	}
	var runs []varRun
	var key []byte
	shapes := make([][]int, len(v.vars))
	// The programs of this batch, kept whatever the cache evicts: a batch
	// of more combinations than the cache keeps compiles each once.
	batch := map[string]*varEntry{}
	for i := 0; i < rows; i++ {
		if null != nil && null[i] {
			continue
		}
		if n := len(runs); n > 0 && runs[n-1].hi == i && v.sameShapes(in, i-1, i) {
			runs[n-1].hi++
			continue
		}
		key = key[:0]
		for k, c := range v.vars {
			r := in.raws[c]
			shp := r.Shapes[i*r.NDim : (i+1)*r.NDim]
			shapes[k] = shapes[k][:0]
			for _, d := range shp {
				key = binary.AppendUvarint(key, uint64(d))
				shapes[k] = append(shapes[k], int(d))
			}
		}
		e, ok := batch[string(key)]
		if !ok {
			var err error
			if e, err = v.entry(key, shapes); err != nil {
				return nil, nil, v.rowError(i, shapes, err)
			}
			batch[e.key] = e
		}
		runs = append(runs, varRun{lo: i, hi: i + 1, e: e})
	}
	return runs, null, nil
}

// sameShapes reports whether rows i and j have the same shapes in every
// variable-shape column.
func (v *varGraph) sameShapes(in *varInputs, i, j int) bool {
	for _, c := range v.vars {
		r := in.raws[c]
		if !slices.Equal(r.Shapes[i*r.NDim:(i+1)*r.NDim], r.Shapes[j*r.NDim:(j+1)*r.NDim]) {
			return false
		}
	}
	return true
}

// rowError returns err, met on row i of the variable-shape columns'
// shapes, naming them.
func (v *varGraph) rowError(i int, shapes [][]int, err error) error {
	var b strings.Builder
	for k, c := range v.vars {
		if k > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "column %q of shape %s", v.schema.Field(v.cols[c]).Name, metadata.FormatShape(logicalShape(v.vtypes[k], shapes[k])))
	}
	e := newErrorOf(err, "", -1, fmt.Sprintf("row %d (%s): %s", i, b.String(), errMsg(err)))
	if pe, ok := err.(*Error); ok && pe.Pos >= 0 {
		e = newErrorOf(err, pe.Text, pe.Pos, e.Msg)
	}
	return e
}

// runInputs returns the engine columns of run r.
func (v *varGraph) runInputs(dst []engine.Column, in *varInputs, r varRun) []engine.Column {
	dst = dst[:0]
	for _, c := range r.e.ins {
		col := in.cols[c]
		if raw := in.raws[c]; raw.NDim > 0 && raw.Width == 0 { // bits
			col = engine.Column{Values: raw.Values, BitOffset: raw.Bit0 + int(raw.Offsets[r.lo])}
		} else if raw.NDim > 0 {
			col = engine.Column{Values: raw.Values[int(raw.Offsets[r.lo])*raw.Width:]}
		} else if in.row[c] > 0 {
			col.Values = col.Values[r.lo*in.row[c]:]
		} else {
			col.BitOffset += r.lo * in.size[c]
		}
		dst = append(dst, col)
	}
	return dst
}
