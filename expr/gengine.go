package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/expr/internal/engine"
	"github.com/fstensor/fstensor/fixedshape"
)

// compile plans the roots' evaluation in the engine.
func (gp *graphProgram) compile(o options) error {
	p, err := engine.Compile(gp.inputs, gp.roots, engine.Options{Workers: o.workers})
	if err != nil {
		return newErrorOf(err, "", -1, "engine: "+errMsg(err))
	}
	gp.prog = p
	return nil
}

// evalGraph evaluates a graph program over the columns of rec.
func (p *Program) evalGraph(cols []arrow.Array, rows int) ([]arrow.Array, error) {
	o, err := config(p.opts)
	if err != nil {
		return nil, err
	}
	gp := p.graph
	in := make([]engine.Column, len(cols))
	nullable := false // some input has a null: the results need validity
	for i, a := range cols {
		if !arrow.TypeEqual(a.DataType(), gp.inTypes[i]) {
			return nil, errorf("column %q: a column of %v, not %v", p.in.Field(gp.cols[i]).Name, a.DataType(), gp.inTypes[i])
		}
		if a.Len() != rows {
			return nil, errorf("column %q: %d rows in a batch of %d", p.in.Field(gp.cols[i]).Name, a.Len(), rows)
		}
		in[i] = engineColumn(a)
		nullable = nullable || in[i].Valid != nil
	}
	out := make([]engine.Column, len(gp.roots))
	bufs := make([][2]*memory.Buffer, len(gp.roots))
	defer func() {
		for _, b := range bufs {
			for _, x := range b {
				if x != nil {
					x.Release()
				}
			}
		}
	}()
	for k, r := range gp.roots {
		size := 1
		for _, d := range r.Shape {
			size *= d
		}
		n := rows * size
		if r.DType == engine.Bool {
			n = int(bitutil.BytesForBits(int64(n)))
		} else {
			n *= dtOf(r.DType).width()
		}
		var vals *memory.Buffer
		if r.DType == engine.Bool {
			vals = memory.NewResizableBuffer(o.mem)
			vals.Resize(n)
		} else {
			vals = resultValues(o, n)
		}
		bufs[k][1] = vals
		out[k].Values = vals.Bytes()
		if nullable {
			valid := memory.NewResizableBuffer(o.mem)
			valid.Resize(int(bitutil.BytesForBits(int64(rows))))
			bufs[k][0] = valid
			out[k].Valid = valid.Bytes()
		}
	}
	nulls, err := gp.prog.Run(in, rows, out)
	if err != nil {
		return nil, newErrorOf(err, "", -1, errMsg(err))
	}
	res := make([]arrow.Array, len(gp.roots))
	for k, r := range gp.roots {
		valid := bufs[k][0]
		if nulls[k] == 0 {
			valid = nil
		}
		dt := p.schema.Field(k).Type
		var d arrow.ArrayData
		if t, ok := dt.(*fixedshape.Type); ok {
			child := array.NewData(t.ElemType(), rows*t.ListSize(), []*memory.Buffer{nil, bufs[k][1]}, nil, 0, 0)
			d = array.NewData(t, rows, []*memory.Buffer{valid}, []arrow.ArrayData{child}, nulls[k], 0)
			child.Release()
		} else {
			d = array.NewData(arrowOf(r.DType), rows, []*memory.Buffer{valid, bufs[k][1]}, nil, nulls[k], 0)
		}
		res[k] = array.MakeFromData(d)
		d.Release()
	}
	return res, nil
}

// engineColumn returns the engine's view of a column's buffers: a
// fixed-shape column's values from its first tensor, a plain column's
// from its first value.
func engineColumn(a arrow.Array) engine.Column {
	d := a.Data()
	var c engine.Column
	if a.NullN() > 0 && d.Buffers()[0] != nil { // a.NullN: the data of a slice may not know its count
		c.Valid, c.ValidOffset = d.Buffers()[0].Bytes(), d.Offset()
	}
	first, vd := d.Offset(), d
	if t, ok := a.DataType().(*fixedshape.Type); ok {
		vd = d.Children()[0]
		first = d.Offset()*t.ListSize() + vd.Offset()
	}
	buf := vd.Buffers()[1]
	if buf == nil {
		return c
	}
	if a.DataType().ID() == arrow.BOOL || vd.DataType().ID() == arrow.BOOL {
		c.Values, c.BitOffset = buf.Bytes(), first
		return c
	}
	w := vd.DataType().(arrow.FixedWidthDataType).BitWidth() / 8
	c.Values = buf.Bytes()[first*w:]
	return c
}
