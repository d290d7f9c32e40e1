package fixedshape

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/stride"
)

// ValueBits returns the bit-packed values buffer of a bool column and the
// bit index in it of the first element of tensor 0: element k of tensor i
// (physical order) is bit first+i*ListSize+k, least significant bit
// first, as Arrow stores it. The slice shares the array's memory: do not
// modify it. It returns nil and 0 for other element types. It assumes
// [Array.Validate] holds.
func (a *Array) ValueBits() (bits []byte, first int) {
	if !BitElem(a.TensorType().ElemType()) {
		return nil, 0
	}
	b := a.storage().ListValues().Data().Buffers()[1]
	if b == nil {
		return nil, 0
	}
	return b.Bytes(), a.firstElem()
}

// BoolAt returns the element at logical index idx of tensor i of a bool
// column. It panics, as slice indexing does, if the column is not of bool
// elements, i or an index is out of range, or len(idx) is not the number
// of logical dimensions. It assumes [Array.Validate] holds.
func (a *Array) BoolAt(i int, idx ...int) bool {
	t := a.TensorType()
	if !BitElem(t.ElemType()) {
		panic(fmt.Sprintf("fixedshape: BoolAt on a column of %v elements", t.ElemType()))
	}
	off := a.elemOffset(i, idx)
	bits, first := a.ValueBits()
	return bitutil.BitIsSet(bits, first+i*t.ListSize()+off)
}

// elemOffset returns the physical element offset in its tensor of the
// element at logical index idx of tensor i, panicking when out of range.
func (a *Array) elemOffset(i int, idx []int) int {
	if i < 0 || i >= a.Len() {
		panic(fmt.Sprintf("fixedshape: tensor %d out of range [0,%d)", i, a.Len()))
	}
	m := a.TensorType().Metadata()
	if len(idx) != m.NDim() {
		panic(fmt.Sprintf("fixedshape: %d indices for a %d-D tensor", len(idx), m.NDim()))
	}
	off := 0
	for k, s := range m.ElemStrides() {
		if idx[k] < 0 || idx[k] >= m.Dim(k) {
			panic(fmt.Sprintf("fixedshape: index %d out of range [0,%d) on axis %d", idx[k], m.Dim(k), k))
		}
		off += idx[k] * s
	}
	return off
}

// FromBools returns a new bool column of typ whose physical elements,
// len(data)/ListSize tensors in tensor order, are data, bit-packed into a
// buffer allocated from mem. valid, if not nil, has one entry per tensor
// (false: null; its slot keeps data's values). The caller releases the
// array. It fails with an error wrapping arrow.ErrInvalid when typ's
// elements are not bool, len(data) is not a multiple of the list size or
// valid has another length.
func FromBools(mem memory.Allocator, typ *Type, data []bool, valid []bool) (*Array, error) {
	if !BitElem(typ.ElemType()) {
		return nil, errorf("bools for %v elements", typ.ElemType())
	}
	size := typ.ListSize()
	if len(data)%size != 0 {
		return nil, errorf("%d elements are not whole tensors of %d", len(data), size)
	}
	n := len(data) / size
	if valid != nil && len(valid) != n {
		return nil, errorf("%d validity entries for %d tensors", len(valid), n)
	}
	values := memory.NewResizableBuffer(mem)
	defer values.Release()
	values.Resize(int(bitutil.BytesForBits(int64(len(data)))))
	clear(values.Bytes())
	for k, v := range data {
		if v {
			bitutil.SetBit(values.Bytes(), k)
		}
	}
	var bitmap *memory.Buffer
	nulls := 0
	if valid != nil {
		bitmap = memory.NewResizableBuffer(mem)
		defer bitmap.Release()
		bitmap.Resize(int(bitutil.BytesForBits(int64(n))))
		clear(bitmap.Bytes())
		for i, v := range valid {
			if v {
				bitutil.SetBit(bitmap.Bytes(), i)
			} else {
				nulls++
			}
		}
	}
	child := array.NewData(typ.ElemType(), len(data), []*memory.Buffer{nil, values}, nil, 0, 0)
	defer child.Release()
	d := array.NewData(typ, n, []*memory.Buffer{bitmap}, []arrow.ArrayData{child}, nulls, 0)
	defer d.Release()
	return array.MakeFromData(d).(*Array), nil
}

// equalBool compares bool columns bit for bit in logical order.
func equalBool(a, b *Array) bool {
	ta, tb := a.TensorType(), b.TensorType()
	sa, sb := ta.ElemStrides(), tb.ElemStrides()
	shape := ta.Shape()
	size := ta.ListSize()
	ba, fa := a.ValueBits()
	bb, fb := b.ValueBits()
	for i := range a.Len() {
		if a.IsNull(i) != b.IsNull(i) {
			return false
		}
		if a.IsNull(i) {
			continue
		}
		oa, ob := fa+i*size, fb+i*size
		for p, q := range stride.Pairs(shape, sa, sb) {
			if bitutil.BitIsSet(ba, oa+p) != bitutil.BitIsSet(bb, ob+q) {
				return false
			}
		}
	}
	return true
}
