package varshape

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/unsafeslice"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/stride"
)

// Builder accumulates rows in Go memory and copies them into one new
// [Array] allocated from its allocator. The zero Builder is not usable;
// make one with [NewBuilder]. It is not safe for concurrent use.
type Builder[T fixedshape.Elem] struct {
	mem    memory.Allocator
	typ    *Type
	values []T     // physical elements of all rows
	offs   []int32 // row offsets, starting with 0
	shapes []int32 // physical shapes, ndim per row
	valid  []bool
	nulls  int
	phys   []int // scratch
	strd   []int // scratch
}

// NewBuilder returns a builder of arrays of typ; T must be its element
// type. It fails with an error wrapping arrow.ErrInvalid otherwise.
func NewBuilder[T fixedshape.Elem](mem memory.Allocator, typ *Type) (*Builder[T], error) {
	if want := arrow.GetDataType[T](); !arrow.TypeEqual(want, typ.ElemType()) {
		return nil, errorf("builder of %v for a column of %v", want, typ.ElemType())
	}
	return &Builder[T]{mem: mem, typ: typ, offs: []int32{0}}, nil
}

// Append adds a row of logical shape shape whose elements are values in
// logical row-major order (a dense NumPy array's order); the builder stores
// them in the type's physical order. It fails with an error wrapping
// arrow.ErrInvalid, and adds nothing, when the shape has the wrong number
// of dimensions, a negative size, disagrees with the uniform shape, does
// not match len(values), or the column would exceed 2^31-1 elements.
func (b *Builder[T]) Append(shape []int, values []T) error {
	t := b.typ
	if len(shape) != t.ndim {
		return errorf("row %d: shape %s has %d dimensions, the type %d", len(b.valid), metadata.FormatShape(shape), len(shape), t.ndim)
	}
	b.phys = stride.PhysicalShape(b.phys[:0], shape, t.perm)
	m, err := t.RowMetadata(b.phys)
	if err != nil {
		return errorf("row %d: %w", len(b.valid), err)
	}
	if len(values) != m.Size() {
		return errorf("row %d: shape %s needs %d elements, got %d", len(b.valid), metadata.FormatShape(shape), m.Size(), len(values))
	}
	total := len(b.values) + len(values)
	if total > math.MaxInt32 {
		return errorf("row %d: the column would hold %d elements, more than a list holds (%d)", len(b.valid), total, math.MaxInt32)
	}
	start := len(b.values)
	b.values = append(b.values, values...)
	if t.perm != nil && !stride.IsIdentity(t.perm) {
		dst := b.values[start:]
		b.strd = m.AppendElemStrides(b.strd[:0])
		k := 0
		for off := range stride.Offsets(m.Shape(), b.strd) {
			dst[off] = values[k]
			k++
		}
	}
	for _, d := range b.phys {
		b.shapes = append(b.shapes, int32(d))
	}
	b.offs = append(b.offs, int32(total))
	b.valid = append(b.valid, true)
	return nil
}

// AppendTensor adds a copy of tensor x as a row.
func (b *Builder[T]) AppendTensor(x fixedshape.Tensor[T]) error {
	return b.Append(x.Shape(), x.AppendLogical(nil))
}

// AppendNull adds a null row: no elements and a zero shape (the uniform
// sizes where the type fixes them).
func (b *Builder[T]) AppendNull() {
	for k := 0; k < b.typ.ndim; k++ {
		d := 0
		if b.typ.uniform != nil && b.typ.uniform[k] != Varies {
			d = b.typ.uniform[k]
		}
		b.shapes = append(b.shapes, int32(d))
	}
	b.offs = append(b.offs, int32(len(b.values)))
	b.valid = append(b.valid, false)
	b.nulls++
}

// Len returns the number of rows added.
func (b *Builder[T]) Len() int { return len(b.valid) }

// NewArray returns the rows added so far as a new array, copied into
// buffers from the builder's allocator, and resets the builder. The caller
// releases the array.
func (b *Builder[T]) NewArray() *Array {
	t := b.typ
	n := len(b.valid)
	var validBuf *memory.Buffer
	if b.nulls > 0 {
		validBuf = memory.NewResizableBuffer(b.mem)
		validBuf.Resize(int(bitutil.BytesForBits(int64(n))))
		bits := validBuf.Bytes()
		clear(bits)
		for i, v := range b.valid {
			if v {
				bitutil.SetBit(bits, i)
			}
		}
		defer validBuf.Release()
	}
	st := t.Storage.(*arrow.StructType)
	di, _ := st.FieldIdx("data")
	dt := st.Field(di).Type.(*arrow.ListType)
	vals := copyBuffer(b.mem, unsafeslice.Bytes(b.values))
	defer vals.Release()
	child := array.NewData(dt.Elem(), len(b.values), []*memory.Buffer{nil, vals}, nil, 0, 0)
	defer child.Release()
	offs := copyBuffer(b.mem, unsafeslice.Bytes(b.offs))
	defer offs.Release()
	list := array.NewData(dt, n, []*memory.Buffer{nil, offs}, []arrow.ArrayData{child}, 0, 0)
	defer list.Release()
	si := 1 - di
	sh := st.Field(si).Type.(*arrow.FixedSizeListType)
	sv := copyBuffer(b.mem, unsafeslice.Bytes(b.shapes))
	defer sv.Release()
	shapeVals := array.NewData(sh.Elem(), len(b.shapes), []*memory.Buffer{nil, sv}, nil, 0, 0)
	defer shapeVals.Release()
	shapes := array.NewData(sh, n, []*memory.Buffer{nil}, []arrow.ArrayData{shapeVals}, 0, 0)
	defer shapes.Release()
	children := make([]arrow.ArrayData, 2)
	children[di], children[si] = list, shapes
	data := array.NewData(t, n, []*memory.Buffer{validBuf}, children, b.nulls, 0)
	defer data.Release()
	*b = Builder[T]{mem: b.mem, typ: t, offs: []int32{0}}
	return array.MakeFromData(data).(*Array)
}

func copyBuffer(mem memory.Allocator, b []byte) *memory.Buffer {
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(len(b))
	copy(buf.Bytes(), b)
	return buf
}

// FromSlices builds a new array of typ from rows of logical shapes and
// elements in logical row-major order; a nil shape makes a null row (its
// values are ignored). It fails like [Builder.Append], naming the row.
func FromSlices[T fixedshape.Elem](mem memory.Allocator, typ *Type, shapes [][]int, values [][]T) (*Array, error) {
	if len(shapes) != len(values) {
		return nil, errorf("%d shapes for %d rows of values", len(shapes), len(values))
	}
	b, err := NewBuilder[T](mem, typ)
	if err != nil {
		return nil, err
	}
	for i, s := range shapes {
		if s == nil {
			b.AppendNull()
			continue
		}
		if err := b.Append(s, values[i]); err != nil {
			return nil, err
		}
	}
	return b.NewArray(), nil
}

// NewArrayFromBuffers makes an array of n rows of typ from its parts,
// retaining (not copying) them: valid, a validity bitmap of the rows (nil
// when nulls is 0); offsets, n+1 int32 list offsets into values; values,
// the elements of every row, physical row-major (bit-packed from bit 0
// for bool elements); shapes, n*ndim int32
// physical sizes. It validates the result ([Array.Validate]); the caller
// keeps its references to the buffers and releases the array.
func NewArrayFromBuffers(typ *Type, n int, valid, offsets, values, shapes *memory.Buffer, nulls int) (*Array, error) {
	st := typ.Storage.(*arrow.StructType)
	di, _ := st.FieldIdx("data")
	si := 1 - di
	dt := st.Field(di).Type.(*arrow.ListType)
	sh := st.Field(si).Type.(*arrow.FixedSizeListType)
	if n < 0 || offsets == nil || offsets.Len() < 4*(n+1) || shapes == nil || shapes.Len()/4/typ.ndim < n || values == nil {
		return nil, errorf("buffers too short for %d rows", n)
	}
	nvals := values.Len() * 8 // bits
	if w := typ.ElemWidth(); w > 0 {
		nvals = values.Len() / w
	}
	child := array.NewData(dt.Elem(), nvals, []*memory.Buffer{nil, values}, nil, 0, 0)
	defer child.Release()
	list := array.NewData(dt, n, []*memory.Buffer{nil, offsets}, []arrow.ArrayData{child}, 0, 0)
	defer list.Release()
	shapeVals := array.NewData(sh.Elem(), n*typ.ndim, []*memory.Buffer{nil, shapes}, nil, 0, 0)
	defer shapeVals.Release()
	shapeList := array.NewData(sh, n, []*memory.Buffer{nil}, []arrow.ArrayData{shapeVals}, 0, 0)
	defer shapeList.Release()
	children := make([]arrow.ArrayData, 2)
	children[di], children[si] = list, shapeList
	if nulls == 0 {
		valid = nil
	}
	data := array.NewData(typ, n, []*memory.Buffer{valid}, children, nulls, 0)
	defer data.Release()
	return validArray(data)
}
