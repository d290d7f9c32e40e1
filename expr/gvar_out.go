package expr

import (
	"encoding/binary"
	"math"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/expr/internal/engine"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/varshape"
)

// varOut is one result column of a varGraph evaluation being written:
// the runs' results lie back to back in vals, a null row taking a plain
// or fixed-shape column's slot (zeroed) and no element of a
// variable-shape column.
type varOut struct {
	dt      arrow.DataType
	vt      *varshape.Type // of a variable-shape result
	uniform []int          // vt's uniform shape (nil for none)
	width   int            // bytes per element; 0: bits (bool)
	vals    *memory.Buffer
	valid   *memory.Buffer // nil: no null row
	offsets *memory.Buffer // of a variable-shape result
	shapes  *memory.Buffer // of a variable-shape result
	first   []int          // each run's first element in vals
	nulls   int
}

// newOut checks that each run's result shape for root k fits the
// column's type and allocates the result column.
func (v *varGraph) newOut(k int, runs []varRun, null []bool, rows int, mem memory.Allocator) (*varOut, error) {
	out := &varOut{dt: v.roots[k].dt, first: make([]int, len(runs))}
	elem, per := out.dt, 1 // a plain result
	var fixed []int
	switch t := out.dt.(type) {
	case *fixedshape.Type:
		elem, per, fixed = t.ElemType(), t.ListSize(), t.Shape()
	case *varshape.Type:
		elem, out.vt, out.uniform, per = t.ElemType(), t, t.UniformShape(), 0
	default:
		fixed = []int{}
	}
	if elem.ID() != arrow.BOOL {
		out.width = elem.(arrow.FixedWidthDataType).BitWidth() / 8
	}
	total := rows * per
	if out.vt != nil {
		total = 0
	}
	for j, r := range runs {
		shape := r.e.shapes[k]
		if err := out.fits(shape, fixed); err != nil {
			return nil, v.rowError(r.lo, v.shapesAt(r), err)
		}
		if out.vt != nil {
			out.first[j] = total
			total += (r.hi - r.lo) * r.e.sizes[k]
		} else {
			out.first[j] = r.lo * per
		}
	}
	if out.vt != nil && total > math.MaxInt32 {
		return nil, errorf("a variable-shape result of %d elements: more than its int32 offsets count", total)
	}
	n := total * out.width
	if out.width == 0 {
		n = int(bitutil.BytesForBits(int64(total)))
	}
	out.vals = memory.NewResizableBuffer(mem)
	out.vals.Resize(n)
	if null != nil {
		clear(out.vals.Bytes())
		out.valid = memory.NewResizableBuffer(mem)
		out.valid.Resize(int(bitutil.BytesForBits(int64(rows))))
		vb := out.valid.Bytes()
		clear(vb)
		for i, isNull := range null {
			if isNull {
				out.nulls++
			} else {
				bitutil.SetBit(vb, i)
			}
		}
	}
	if out.vt != nil {
		out.varLayout(k, runs, rows, mem)
	}
	return out, nil
}

// fits checks a result shape against the column's: fixed for a plain or
// fixed-shape column, the uniform shape of a variable-shape one.
func (out *varOut) fits(shape, fixed []int) error {
	if out.vt == nil {
		if !slices.Equal(shape, fixed) {
			return errorf("the result's shape %s differs from the column's %s, decided before data", metadata.FormatShape(shape), metadata.FormatShape(fixed))
		}
		return nil
	}
	if len(shape) != out.vt.NDim() {
		return errorf("the result has %d dimensions, the column %d", len(shape), out.vt.NDim())
	}
	for i, d := range out.uniform {
		if d != varshape.Varies && shape[i] != d {
			return errorf("the result's shape %s differs from the column's uniform shape at axis %d (%d), decided before data", metadata.FormatShape(shape), i, d)
		}
	}
	return nil
}

// shapesAt returns the row shapes of run r's combination (those of its
// program), physical, one per variable-shape column.
func (v *varGraph) shapesAt(r varRun) [][]int {
	out := make([][]int, len(v.vars))
	key := []byte(r.e.key)
	for k, t := range v.vtypes {
		for range t.NDim() {
			d, n := binary.Uvarint(key)
			key = key[n:]
			out[k] = append(out[k], int(d))
		}
	}
	return out
}

// varLayout writes the offsets and shapes of a variable-shape result.
func (out *varOut) varLayout(k int, runs []varRun, rows int, mem memory.Allocator) {
	nd := out.vt.NDim()
	out.offsets = memory.NewResizableBuffer(mem)
	out.offsets.Resize((rows + 1) * 4)
	out.shapes = memory.NewResizableBuffer(mem)
	out.shapes.Resize(rows * nd * 4)
	offs := arrow.Int32Traits.CastFromBytes(out.offsets.Bytes())
	shp := arrow.Int32Traits.CastFromBytes(out.shapes.Bytes())
	clear(shp)
	at, i := 0, 0
	for j, r := range runs {
		for ; i < r.lo; i++ { // null rows: no element
			offs[i] = int32(at)
		}
		at = out.first[j]
		size := r.e.sizes[k]
		for ; i < r.hi; i++ {
			offs[i] = int32(at)
			for a, d := range r.e.shapes[k] {
				shp[i*nd+a] = int32(d)
			}
			at += size
		}
	}
	for ; i <= rows; i++ {
		offs[i] = int32(at)
	}
}

// column returns the engine's output column of run j (r).
func (out *varOut) column(j int, r varRun) engine.Column {
	if out.width == 0 {
		return engine.Column{Values: out.vals.Bytes(), BitOffset: out.first[j]}
	}
	return engine.Column{Values: out.vals.Bytes()[out.first[j]*out.width:]}
}

// array returns the result column, which holds its own references to
// the buffers.
func (out *varOut) array(rows int) (arrow.Array, error) {
	valid := out.valid
	if out.nulls == 0 {
		valid = nil
	}
	switch t := out.dt.(type) {
	case *varshape.Type:
		a, err := varshape.NewArrayFromBuffers(t, rows, valid, out.offsets, out.vals, out.shapes, out.nulls)
		if err != nil {
			return nil, err
		}
		return a, nil
	case *fixedshape.Type:
		child := array.NewData(t.ElemType(), rows*t.ListSize(), []*memory.Buffer{nil, out.vals}, nil, 0, 0)
		defer child.Release()
		d := array.NewData(t, rows, []*memory.Buffer{valid}, []arrow.ArrayData{child}, out.nulls, 0)
		defer d.Release()
		return array.MakeFromData(d), nil
	}
	d := array.NewData(out.dt, rows, []*memory.Buffer{valid, out.vals}, nil, out.nulls, 0)
	defer d.Release()
	return array.MakeFromData(d), nil
}

// release releases the buffers (nil-safe).
func (out *varOut) release() {
	if out == nil {
		return
	}
	for _, b := range []*memory.Buffer{out.vals, out.valid, out.offsets, out.shapes} {
		if b != nil {
			b.Release()
		}
	}
}
