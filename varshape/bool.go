package varshape

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/unsafeslice"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/stride"
)

// Bool columns: the data child is a list<bool>, its values bit-packed,
// least significant bit first, as Arrow stores them. A row's elements
// start at any bit (list offsets are counted in elements, and a sliced
// child starts anywhere), so bool rows are read as bits, never as bytes.

// RowBits returns the elements of row i of a bool column, physical
// row-major: they are the n bits of bits from bit first, least
// significant bit first. The slice shares a's memory: do not modify it.
// It returns nil, 0, 0 for other element types. It assumes
// [Array.Validate] holds and panics if i is out of range.
func (a *Array) RowBits(i int) (bits []byte, first, n int) {
	l := a.layout()
	if uint(i) >= uint(l.n) {
		panic(fmt.Sprintf("varshape: row %d out of range [0, %d)", i, l.n))
	}
	if l.width != 0 {
		return nil, 0, 0
	}
	offs := l.offsets()
	return l.values(), l.bit0() + int(offs[i]), int(offs[i+1] - offs[i])
}

// BoolAt returns the element at logical index idx of row i of a bool
// column. It panics, as slice indexing does, if the column is not of bool
// elements, i is out of range or a null row, an index is out of range, or
// len(idx) is not the number of dimensions. It assumes [Array.Validate]
// holds.
func (a *Array) BoolAt(i int, idx ...int) bool {
	t := a.TensorType()
	if !fixedshape.BitElem(t.ElemType()) {
		panic(fmt.Sprintf("varshape: BoolAt on a column of %v elements", t.ElemType()))
	}
	bits, first, _ := a.RowBits(i)
	if a.IsNull(i) {
		panic(fmt.Sprintf("varshape: BoolAt on null row %d", i))
	}
	m, err := t.RowMetadata(a.PhysicalShape(nil, i))
	if err != nil {
		panic(err) // not after Validate
	}
	if len(idx) != m.NDim() {
		panic(fmt.Sprintf("varshape: %d indices for a %d-D tensor", len(idx), m.NDim()))
	}
	off := 0
	for k, s := range m.ElemStrides() {
		if idx[k] < 0 || idx[k] >= m.Dim(k) {
			panic(fmt.Sprintf("varshape: index %d out of range [0,%d) on axis %d", idx[k], m.Dim(k), k))
		}
		off += idx[k] * s
	}
	return bitutil.BitIsSet(bits, first+off)
}

// FromBools is [FromSlices] for a bool column: it builds a new array of
// typ from rows of logical shapes and elements in logical row-major
// order, bit-packed into buffers from mem; a nil shape makes a null row
// (its values are ignored). The caller releases the array. It fails with
// an error wrapping arrow.ErrInvalid when typ's elements are not bool,
// and like [Builder.Append], naming the row.
func FromBools(mem memory.Allocator, typ *Type, shapes [][]int, values [][]bool) (*Array, error) {
	if !fixedshape.BitElem(typ.ElemType()) {
		return nil, errorf("bools for a column of %v", typ.ElemType())
	}
	if len(shapes) != len(values) {
		return nil, errorf("%d shapes for %d rows of values", len(shapes), len(values))
	}
	n, nd := len(shapes), typ.ndim
	offs := make([]int32, 1, n+1)
	phys := make([]int32, 0, n*nd)
	metas := make([]metadata.Metadata, n)
	valid := make([]bool, n)
	nulls, total := 0, 0
	var scratch []int
	for i, shape := range shapes {
		if shape == nil {
			for k := range nd {
				d := 0
				if typ.uniform != nil && typ.uniform[k] != Varies {
					d = typ.uniform[k]
				}
				phys = append(phys, int32(d))
			}
			offs = append(offs, int32(total))
			nulls++
			continue
		}
		if len(shape) != nd {
			return nil, errorf("row %d: shape %s has %d dimensions, the type %d", i, metadata.FormatShape(shape), len(shape), nd)
		}
		scratch = stride.PhysicalShape(scratch[:0], shape, typ.perm)
		m, err := typ.RowMetadata(scratch)
		if err != nil {
			return nil, errorf("row %d: %w", i, err)
		}
		if len(values[i]) != m.Size() {
			return nil, errorf("row %d: shape %s needs %d elements, got %d", i, metadata.FormatShape(shape), m.Size(), len(values[i]))
		}
		if total += m.Size(); total > math.MaxInt32 {
			return nil, errorf("row %d: the column would hold %d elements, more than a list holds (%d)", i, total, math.MaxInt32)
		}
		for _, d := range scratch {
			phys = append(phys, int32(d))
		}
		offs = append(offs, int32(total))
		metas[i], valid[i] = m, true
	}
	vals := memory.NewResizableBuffer(mem)
	defer vals.Release()
	vals.Resize(int(bitutil.BytesForBits(int64(total))))
	vb := vals.Bytes()
	clear(vb)
	for i, m := range metas {
		if !valid[i] {
			continue
		}
		k := 0
		for off := range stride.Offsets(m.Shape(), m.ElemStrides()) {
			if values[i][k] {
				bitutil.SetBit(vb, int(offs[i])+off)
			}
			k++
		}
	}
	var validBuf *memory.Buffer
	if nulls > 0 {
		validBuf = memory.NewResizableBuffer(mem)
		defer validBuf.Release()
		validBuf.Resize(int(bitutil.BytesForBits(int64(n))))
		clear(validBuf.Bytes())
		for i, v := range valid {
			if v {
				bitutil.SetBit(validBuf.Bytes(), i)
			}
		}
	}
	offBuf := copyBuffer(mem, unsafeslice.Bytes(offs))
	defer offBuf.Release()
	shapeBuf := copyBuffer(mem, unsafeslice.Bytes(phys))
	defer shapeBuf.Release()
	return NewArrayFromBuffers(typ, n, validBuf, offBuf, vals, shapeBuf, nulls)
}
