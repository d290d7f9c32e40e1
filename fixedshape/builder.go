package fixedshape

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/internal/unsafeslice"
	"github.com/fstensor/fstensor/stride"
)

// Builder appends tensors and nulls and builds an [Array]. Memory comes
// from the allocator given to [NewBuilder]; a Builder is not safe for
// concurrent use. Release it when done.
type Builder[T Elem] struct {
	mem     memory.Allocator
	typ     *Type
	size    int
	strides []int // logical element strides of typ
	values  *memory.Buffer
	valid   *memory.Buffer // nil until the first null
	n       int            // tensors appended
	nulls   int
}

// NewBuilder returns a builder of arrays of typ. It fails with an error
// wrapping arrow.ErrInvalid when T is not typ's element type.
func NewBuilder[T Elem](mem memory.Allocator, typ *Type) (*Builder[T], error) {
	if want := arrow.GetDataType[T](); !arrow.TypeEqual(want, typ.ElemType()) {
		return nil, errorf("builder of %v for %v elements", want, typ.ElemType())
	}
	return &Builder[T]{
		mem:     mem,
		typ:     typ,
		size:    typ.ListSize(),
		strides: typ.ElemStrides(),
		values:  memory.NewResizableBuffer(mem),
	}, nil
}

// Len returns the number of tensors appended since the last NewArray.
func (b *Builder[T]) Len() int { return b.n }

// Reserve makes room for n more tensors.
func (b *Builder[T]) Reserve(n int) {
	need := (b.n + n) * b.size * b.typ.ElemWidth()
	if need > b.values.Cap() {
		b.values.Reserve(need)
	}
}

// slot grows the values by one tensor and returns its elements.
func (b *Builder[T]) slot() []T {
	if b.valid != nil {
		b.setValid(b.n, true)
	}
	w := b.typ.ElemWidth()
	start := b.n * b.size * w
	if end := start + b.size*w; end > b.values.Cap() {
		b.values.Reserve(max(end, 2*b.values.Cap()))
	}
	b.values.ResizeNoShrink(start + b.size*w)
	b.n++
	vals, err := unsafeslice.Cast[T](b.values.Bytes()[start:])
	if err != nil {
		panic(err) // allocator buffers are 64-byte aligned
	}
	return vals
}

// Append appends one tensor given by its physical elements (row-major
// order of the physical shape), copying them. It fails with an error
// wrapping arrow.ErrInvalid unless len(physical) is the list size.
func (b *Builder[T]) Append(physical []T) error {
	if len(physical) != b.size {
		return errorf("tensor of %d elements appended to %v (list size %d)", len(physical), b.typ, b.size)
	}
	copy(b.slot(), physical)
	return nil
}

// AppendTensor appends a tensor given as a logical view, copying its
// elements into the builder type's physical layout (whatever the view's
// own layout). It fails with an error wrapping arrow.ErrInvalid when the
// logical shapes differ.
func (b *Builder[T]) AppendTensor(t Tensor[T]) error {
	if !slices.Equal(t.shape, b.typ.Metadata().Shape()) {
		return errorf("tensor of shape %v appended to %v", t.shape, b.typ)
	}
	dst := b.slot()
	if slices.Equal(t.strides, b.strides) {
		copy(dst, t.data)
		return nil
	}
	for src, d := range stride.Pairs(t.shape, t.strides, b.strides) {
		dst[d] = t.data[src]
	}
	return nil
}

// AppendNull appends a null tensor; its slot is zero-filled.
func (b *Builder[T]) AppendNull() {
	if b.valid == nil {
		b.valid = memory.NewResizableBuffer(b.mem)
		for i := 0; i < b.n; i++ {
			b.setValid(i, true)
		}
	}
	clear(b.slot())
	b.setValid(b.n-1, false)
	b.nulls++
}

// AppendNulls appends n null tensors.
func (b *Builder[T]) AppendNulls(n int) {
	for range n {
		b.AppendNull()
	}
}

func (b *Builder[T]) setValid(i int, v bool) {
	if need := int(bitutil.BytesForBits(int64(i + 1))); need > b.valid.Len() {
		old := b.valid.Len()
		b.valid.Resize(max(need, 2*old))
		clear(b.valid.Bytes()[old:])
	}
	bitutil.SetBitTo(b.valid.Bytes(), i, v)
}

// NewArray returns the tensors appended so far as an array and resets the
// builder. The caller releases the array.
func (b *Builder[T]) NewArray() *Array {
	b.values.ResizeNoShrink(b.n * b.size * b.typ.ElemWidth())
	arr := newArray(b.typ, b.n, b.valid, b.nulls, b.values)
	b.values.Release()
	if b.valid != nil {
		b.valid.Release()
	}
	b.values = memory.NewResizableBuffer(b.mem)
	b.valid, b.n, b.nulls = nil, 0, 0
	return arr
}

// Release frees the builder's memory.
func (b *Builder[T]) Release() {
	if b.values != nil {
		b.values.Release()
		b.values = nil
	}
	if b.valid != nil {
		b.valid.Release()
		b.valid = nil
	}
}

// newArray assembles an array of n tensors from a values buffer and an
// optional validity bitmap; it takes its own references to both.
func newArray(typ *Type, n int, valid *memory.Buffer, nulls int, values *memory.Buffer) *Array {
	child := array.NewData(typ.ElemType(), n*typ.ListSize(), []*memory.Buffer{nil, values}, nil, 0, 0)
	defer child.Release()
	data := array.NewData(typ, n, []*memory.Buffer{valid}, []arrow.ArrayData{child}, nulls, 0)
	defer data.Release()
	return array.MakeFromData(data).(*Array)
}

// NewArrayFromBuffer returns an array of n valid tensors of typ whose
// physical elements, n*ListSize of them in tensor order, are the start of
// values. The array retains values (no copy); the caller keeps its own
// reference and releases it. It fails with an error wrapping
// arrow.ErrInvalid when n is negative or values is too short.
func NewArrayFromBuffer(typ *Type, n int, values *memory.Buffer) (*Array, error) {
	if n < 0 {
		return nil, errorf("%d tensors", n)
	}
	need, ok := stride.MulCheck(n, typ.ListSize())
	if ok {
		need, ok = stride.MulCheck(need, typ.ElemWidth())
	}
	if !ok || values.Len() < need {
		return nil, errorf("values buffer of %d bytes for %d tensors of %d %d-byte elements", values.Len(), n, typ.ListSize(), typ.ElemWidth())
	}
	return newArray(typ, n, nil, 0, values), nil
}

// FromSlice returns an array of typ over data, the physical elements of
// len(data)/ListSize tensors, without copying them: the array's values
// buffer is data's memory, owned by the Go garbage collector, so the
// caller must not modify data while the array or any view of it is in use.
// valid, when not nil, has one entry per tensor (false for null) and is
// copied into a bitmap. Errors wrap arrow.ErrInvalid: a T other than typ's
// element type, a length that is not a whole number of tensors, a valid
// of the wrong length.
func FromSlice[T Elem](typ *Type, data []T, valid []bool) (*Array, error) {
	if want := arrow.GetDataType[T](); !arrow.TypeEqual(want, typ.ElemType()) {
		return nil, errorf("slice of %v for %v elements", want, typ.ElemType())
	}
	size := typ.ListSize()
	if len(data)%size != 0 {
		return nil, errorf("%d elements are not a whole number of %d-element tensors", len(data), size)
	}
	n := len(data) / size
	var bitmap *memory.Buffer
	nulls := 0
	if valid != nil {
		if len(valid) != n {
			return nil, errorf("validity of %d entries for %d tensors", len(valid), n)
		}
		bits := make([]byte, bitutil.BytesForBits(int64(n)))
		for i, v := range valid {
			bitutil.SetBitTo(bits, i, v)
			if !v {
				nulls++
			}
		}
		bitmap = memory.NewBufferBytes(bits)
	}
	return newArray(typ, n, bitmap, nulls, memory.NewBufferBytes(unsafeslice.Bytes(data))), nil
}
