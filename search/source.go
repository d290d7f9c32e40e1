package search

import (
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/float16"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/numeric"
)

// float32Acc reports whether tensors of element types a and b are scored
// in float32 (both float16 or float32) rather than float64.
func float32Acc(a, b arrow.DataType) bool {
	f := func(dt arrow.DataType) bool { return dt.ID() == arrow.FLOAT16 || dt.ID() == arrow.FLOAT32 }
	return f(a) && f(b)
}

// checkTypes checks that a and b are numeric tensor types of one logical
// shape.
func checkTypes(what string, a, b *fixedshape.Type) error {
	for _, t := range []*fixedshape.Type{a, b} {
		if !fixedshape.ElemNumeric(t.ElemType()) || fixedshape.BitElem(t.ElemType()) {
			return fmt.Errorf("search: %s: element type %v is not numeric: %w", what, t.ElemType(), arrow.ErrInvalid)
		}
	}
	if !slices.Equal(a.Shape(), b.Shape()) {
		return fmt.Errorf("search: %s: shapes %v and %v differ: %w", what, a.Shape(), b.Shape(), arrow.ErrInvalid)
	}
	return nil
}

// gatherOrder returns, for each physical position j of a tensor of type
// to, the physical offset in a tensor of type from of the element with the
// same logical index; nil when the two layouts are the same. The shapes
// are equal.
func gatherOrder(to, from *fixedshape.Type) []int {
	if slices.Equal(to.Permutation(), from.Permutation()) {
		return nil
	}
	shape, st, sf := to.Shape(), to.ElemStrides(), from.ElemStrides()
	order := make([]int, to.ListSize())
	idx := make([]int, len(shape))
	for range order {
		pt, pf := 0, 0
		for k, i := range idx {
			pt += i * st[k]
			pf += i * sf[k]
		}
		order[pt] = pf
		for k := len(idx) - 1; k >= 0; k-- {
			if idx[k]++; idx[k] < shape[k] {
				break
			}
			idx[k] = 0
		}
	}
	return order
}

// source reads the rows of a column as []F in a chosen element order.
type source[F numeric.Float] struct {
	arr    *fixedshape.Array
	n, ls  int
	direct []F                  // the physical values, when they need no conversion
	conv   func(dst []F, i int) // writes row i into dst otherwise
}

// row returns row i, converted into scratch (ls elements) when needed.
func (s *source[F]) row(i int, scratch []F) []F {
	if s.direct != nil {
		return s.direct[i*s.ls : (i+1)*s.ls]
	}
	s.conv(scratch, i)
	return scratch[:s.ls]
}

// rows returns rows [i, i+c) as one slice, converted into scratch (c*ls
// elements) when needed.
func (s *source[F]) rows(i, c int, scratch []F) []F {
	if s.direct != nil {
		return s.direct[i*s.ls : (i+c)*s.ls]
	}
	for r := 0; r < c; r++ {
		s.conv(scratch[r*s.ls:(r+1)*s.ls], i+r)
	}
	return scratch[:c*s.ls]
}

type number interface {
	int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64 | float32 | float64
}

// newSource returns the rows of a as []F, each in the element order given
// by order (physical offsets of a; nil for a's own physical order).
func newSource[F numeric.Float](a *fixedshape.Array, order []int) (*source[F], error) {
	s := &source[F]{arr: a, n: a.Len(), ls: a.TensorType().ListSize()}
	var err error
	switch a.TensorType().ElemType().ID() {
	case arrow.INT8:
		err = setNum[int8](s, order)
	case arrow.INT16:
		err = setNum[int16](s, order)
	case arrow.INT32:
		err = setNum[int32](s, order)
	case arrow.INT64:
		err = setNum[int64](s, order)
	case arrow.UINT8:
		err = setNum[uint8](s, order)
	case arrow.UINT16:
		err = setNum[uint16](s, order)
	case arrow.UINT32:
		err = setNum[uint32](s, order)
	case arrow.UINT64:
		err = setNum[uint64](s, order)
	case arrow.FLOAT32:
		err = setNum[float32](s, order)
	case arrow.FLOAT64:
		err = setNum[float64](s, order)
	case arrow.FLOAT16:
		var col *fixedshape.Column[float16.Num]
		if col, err = fixedshape.ColumnOf[float16.Num](a); err == nil {
			vals, ls := col.Values(), s.ls
			s.conv = func(dst []F, i int) {
				src := vals[i*ls : (i+1)*ls]
				if order == nil {
					for j, v := range src {
						dst[j] = F(v.Float32())
					}
					return
				}
				for j, o := range order {
					dst[j] = F(src[o].Float32())
				}
			}
		}
	default:
		return nil, fmt.Errorf("search: element type %v is not numeric: %w", a.TensorType().ElemType(), arrow.ErrInvalid)
	}
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	return s, nil
}

func setNum[T number, F numeric.Float](s *source[F], order []int) error {
	col, err := fixedshape.ColumnOf[T](s.arr)
	if err != nil {
		return err
	}
	vals, ls := col.Values(), s.ls
	if d, ok := any(vals).([]F); ok && order == nil {
		s.direct = d
		if s.direct == nil {
			s.direct = []F{} // a column of no rows still reads directly
		}
		return nil
	}
	if order == nil {
		s.conv = func(dst []F, i int) {
			for j, v := range vals[i*ls : (i+1)*ls] {
				dst[j] = F(v)
			}
		}
		return nil
	}
	s.conv = func(dst []F, i int) {
		src := vals[i*ls : (i+1)*ls]
		for j, o := range order {
			dst[j] = F(src[o])
		}
	}
	return nil
}
