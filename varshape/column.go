package varshape

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/unsafeslice"
	"github.com/fstensor/fstensor/stride"
)

// Column is a typed view of an [Array]: row i is [Column.Tensor](i), a
// fixedshape.Tensor of the row's own logical shape with derived strides.
// It shares the array's memory and is valid while the array is; it holds
// no reference count of its own. Building it is O(rows x ndim) and makes
// every row's view (shape, strides and about 100 bytes a row), so Tensor
// is O(1).
type Column[T fixedshape.Elem] struct {
	arr    *Array
	values []T     // the data child's elements from its element 0
	offs   []int32 // n+1 row offsets into values
	dims   []int   // per row: ndim logical sizes, then ndim element strides
	ndim   int
	views  []fixedshape.Tensor[T] // row i's view, made once
}

// ColumnOf returns the typed view of a. It fails with an error wrapping
// arrow.ErrInvalid when T is not the element type of a, when a fails
// [Array.Validate], or when the values buffer is not aligned for T.
func ColumnOf[T fixedshape.Elem](a *Array) (*Column[T], error) {
	t := a.TensorType()
	if want := arrow.GetDataType[T](); !arrow.TypeEqual(want, t.ElemType()) {
		return nil, errorf("column of %v read as %v", t.ElemType(), want)
	}
	if err := a.Validate(); err != nil {
		return nil, err
	}
	l := a.layout()
	offs := l.offsets()
	vals, err := unsafeslice.Cast[T](l.values())
	if err != nil {
		return nil, errorf("%v", err)
	}
	if n := int(offs[l.n]); n <= len(vals) {
		vals = vals[:n]
	}
	nd := l.ndim
	dims := make([]int, 2*nd*l.n)
	shapes := l.shapes()
	phys := make([]int, nd)
	for i := 0; i < l.n; i++ {
		row := dims[2*nd*i : 2*nd*(i+1)]
		neg := false
		for k := range phys {
			phys[k] = int(shapes[i*nd+k])
			neg = neg || phys[k] < 0
		}
		if neg { // only in a null row, whose shape is unchecked
			continue
		}
		stride.LogicalShape(row[:0:nd], phys, t.perm)
		stride.Logical(row[nd:nd:2*nd], row[:nd], t.perm)
	}
	c := &Column[T]{arr: a, values: vals, offs: offs, dims: dims, ndim: nd, views: make([]fixedshape.Tensor[T], l.n)}
	for i := range c.views {
		row := dims[2*nd*i : 2*nd*(i+1) : 2*nd*(i+1)]
		data := vals[offs[i]:offs[i+1]:offs[i+1]]
		t, err := fixedshape.NewTensorStrided(data, row[:nd:nd], row[nd:])
		if err != nil && !a.IsNull(i) {
			return nil, errorf("row %d: %w", i, err) // not after Validate
		}
		c.views[i] = t // the zero Tensor for a null row that does not fit
	}
	return c, nil
}

// Array returns the viewed array.
func (c *Column[T]) Array() *Array { return c.arr }

// Len returns the number of rows.
func (c *Column[T]) Len() int { return len(c.offs) - 1 }

// IsNull reports whether row i is null.
func (c *Column[T]) IsNull(i int) bool { return c.arr.IsNull(i) }

// Shape returns the logical shape of row i, sharing the column's memory:
// do not modify it. A null row's shape is unspecified.
func (c *Column[T]) Shape(i int) []int {
	return c.dims[2*c.ndim*i : 2*c.ndim*i+c.ndim : 2*c.ndim*i+c.ndim]
}

// Tensor returns a zero-copy view of row i, in O(1) without allocating.
// A null row is viewed with its stored shape when that fits its data list,
// and as the zero Tensor (no dimensions, no elements) otherwise. It panics
// if i is out of range.
func (c *Column[T]) Tensor(i int) fixedshape.Tensor[T] {
	if uint(i) >= uint(c.Len()) {
		panic(fmt.Sprintf("varshape: row %d out of range [0, %d)", i, c.Len()))
	}
	return c.views[i]
}
