package fixedshape

import (
	"fmt"
	"iter"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/internal/unsafeslice"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/stride"
)

// Tensor is a zero-copy typed view of one dense tensor: a physical
// row-major buffer read through logical element strides. It is a small
// value; copying it copies no elements. The view shares memory with the
// column or slice it was made from: elements must not be modified through
// [Tensor.PhysicalData] while an Arrow array shares them.
//
// Read elements in logical order with [Tensor.At], [Tensor.All] or
// [Tensor.AppendLogical]: they are right whatever the permutation.
// [Tensor.PhysicalData] is the storage order, which differs from the
// logical order when the type has a permutation; it suits loops whose
// result does not depend on the order (a sum, a minimum, a fill).
type Tensor[T Elem] struct {
	data    []T   // physical elements, len == product of shape
	shape   []int // logical shape, shared and never modified
	strides []int // logical element strides, shared and never modified
}

// NewTensor returns a view of data, the physical elements of one tensor
// described by m, without copying. It fails with an error wrapping
// arrow.ErrInvalid unless len(data) == m.Size().
func NewTensor[T Elem](data []T, m metadata.Metadata) (Tensor[T], error) {
	if len(data) != m.Size() {
		return Tensor[T]{}, errorf("tensor %s needs %d elements, got %d", metadata.FormatShape(m.Shape()), m.Size(), len(data))
	}
	return Tensor[T]{data: data, shape: m.Shape(), strides: m.ElemStrides()}, nil
}

// NewTensorStrided returns a view of data with the given logical shape and
// element strides, sharing all three slices without copying: the caller
// must not modify shape or strides afterwards. It suits views of rows of
// different shapes (variable-shape columns) without allocating. It fails
// with an error wrapping arrow.ErrInvalid unless shape and strides have the
// same length, sizes are non-negative, len(data) is the product of shape
// and every index stays inside data. It is O(len(shape)).
func NewTensorStrided[T Elem](data []T, shape, strides []int) (Tensor[T], error) {
	if len(shape) != len(strides) {
		return Tensor[T]{}, errorf("tensor of %d dimensions with %d strides", len(shape), len(strides))
	}
	size := 1
	for _, d := range shape {
		var ok bool
		if size, ok = stride.MulCheck(size, d); !ok || d < 0 {
			return Tensor[T]{}, errorf("tensor shape %s is invalid", metadata.FormatShape(shape))
		}
	}
	if size != len(data) {
		return Tensor[T]{}, errorf("tensor %s needs %d elements, got %d", metadata.FormatShape(shape), size, len(data))
	}
	last := 0 // the offset of the last element, kept below len(data)
	for i, d := range shape {
		if strides[i] < 0 {
			return Tensor[T]{}, errorf("tensor strides %v are negative", strides)
		}
		if size == 0 {
			continue
		}
		step, ok := stride.MulCheck(d-1, strides[i])
		if !ok || step >= len(data)-last {
			return Tensor[T]{}, errorf("tensor %s with strides %v leaves its %d elements", metadata.FormatShape(shape), strides, len(data))
		}
		last += step
	}
	return Tensor[T]{data: data, shape: shape, strides: strides}, nil
}

// NDim returns the number of logical dimensions.
func (t Tensor[T]) NDim() int { return len(t.shape) }

// Dim returns the size of logical axis i; it panics if i is out of range.
func (t Tensor[T]) Dim(i int) int { return t.shape[i] }

// Size returns the number of elements.
func (t Tensor[T]) Size() int { return len(t.data) }

// Shape returns a copy of the logical shape.
func (t Tensor[T]) Shape() []int { return append([]int{}, t.shape...) }

// AppendShape appends the logical shape to dst.
func (t Tensor[T]) AppendShape(dst []int) []int { return append(dst, t.shape...) }

// ElemStrides returns a copy of the logical element strides.
func (t Tensor[T]) ElemStrides() []int { return append([]int{}, t.strides...) }

// AppendElemStrides appends the logical element strides to dst.
func (t Tensor[T]) AppendElemStrides(dst []int) []int { return append(dst, t.strides...) }

// PhysicalData returns the elements in storage order, row-major in the
// physical shape, sharing memory with the view's source. With a
// permutation this is not the logical order that At, All and
// AppendLogical follow: use it for order-free work (sums, extrema,
// fills) or with PhysicalShape and the permutation at hand.
func (t Tensor[T]) PhysicalData() []T { return t.data }

// At returns the element at a logical index. It panics, like slice
// indexing, when the index has the wrong number of entries or an entry is
// out of range; it does not allocate.
func (t Tensor[T]) At(idx ...int) T {
	if len(idx) != len(t.shape) {
		panic(fmt.Sprintf("fixedshape: index of %d entries for a %d-D tensor", len(idx), len(t.shape)))
	}
	off := 0
	for i, x := range idx {
		if uint(x) >= uint(t.shape[i]) {
			panic(fmt.Sprintf("fixedshape: index %d is out of bounds for axis %d with size %d", x, i, t.shape[i]))
		}
		off += x * t.strides[i]
	}
	return t.data[off]
}

// All yields the elements in logical row-major order.
func (t Tensor[T]) All() iter.Seq[T] {
	return func(yield func(T) bool) {
		for off := range stride.Offsets(t.shape, t.strides) {
			if !yield(t.data[off]) {
				return
			}
		}
	}
}

// AppendLogical appends the elements in logical row-major order to dst:
// a dense copy of the tensor with the identity permutation.
func (t Tensor[T]) AppendLogical(dst []T) []T {
	if stride.IsRowMajor(t.shape, t.strides) {
		return append(dst, t.data...)
	}
	for v := range t.All() {
		dst = append(dst, v)
	}
	return dst
}

// Column is a typed view of an [Array]: tensor i is [Column.Tensor](i). It
// shares the array's memory and is valid while the array is; it holds no
// reference count of its own.
type Column[T Elem] struct {
	arr     *Array
	values  []T // physical elements of tensors 0..Len()-1
	size    int
	shape   []int
	strides []int
}

// ColumnOf returns the typed view of a. It fails with an error wrapping
// arrow.ErrInvalid when T is not the element type of a, when a fails
// [Array.Validate], or when the values buffer is not aligned for T.
func ColumnOf[T Elem](a *Array) (*Column[T], error) {
	if want := arrow.GetDataType[T](); !arrow.TypeEqual(want, a.TensorType().ElemType()) {
		return nil, errorf("column of %v read as %v", a.TensorType().ElemType(), want)
	}
	if err := a.Validate(); err != nil {
		return nil, err
	}
	return columnAs[T](a)
}

// columnAs views a validated array as T, which must have the element width.
func columnAs[T Elem](a *Array) (*Column[T], error) {
	vals, err := unsafeslice.Cast[T](a.ValueBytes())
	if err != nil {
		return nil, errorf("%v", err)
	}
	m := a.TensorType().Metadata()
	return &Column[T]{arr: a, values: vals, size: m.Size(), shape: m.Shape(), strides: m.ElemStrides()}, nil
}

// Array returns the viewed array.
func (c *Column[T]) Array() *Array { return c.arr }

// Len returns the number of tensors.
func (c *Column[T]) Len() int { return c.arr.Len() }

// IsNull reports whether tensor i is null.
func (c *Column[T]) IsNull(i int) bool { return c.arr.IsNull(i) }

// Values returns the physical elements of all tensors, Len()*ListSize of
// them, nulls included (their contents are unspecified), sharing memory.
func (c *Column[T]) Values() []T { return c.values }

// Tensor returns a zero-copy view of tensor i, without allocating. A null
// tensor's view holds whatever its slot holds; check [Column.IsNull]. It
// panics if i is out of range.
func (c *Column[T]) Tensor(i int) Tensor[T] {
	if uint(i) >= uint(c.arr.Len()) {
		panic(fmt.Sprintf("fixedshape: tensor %d out of range [0, %d)", i, c.arr.Len()))
	}
	return Tensor[T]{data: c.values[i*c.size : (i+1)*c.size : (i+1)*c.size], shape: c.shape, strides: c.strides}
}
