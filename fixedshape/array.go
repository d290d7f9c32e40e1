package fixedshape

import (
	"encoding/json"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/fstensor/fstensor/stride"
)

// Array is a column of tensors: an extension array of [Type] whose
// storage is a FixedSizeList with one list per tensor. Nulls exist per
// tensor only (the list validity bitmap).
//
// Arrays are reference counted like every arrow-go array: Retain and
// Release; views taken from an array ([Column], [Tensor], byte slices) are
// valid while the array is.
type Array struct {
	array.ExtensionArrayBase
}

var _ array.ExtensionArray = (*Array)(nil)

// TensorType returns the array's tensor type.
func (a *Array) TensorType() *Type { return a.DataType().(*Type) }

// storage returns the FixedSizeList storage.
func (a *Array) storage() *array.FixedSizeList { return a.Storage().(*array.FixedSizeList) }

// firstElem returns the index, in the child's values buffer, of the first
// element of tensor 0 of this (possibly sliced) array.
func (a *Array) firstElem() int {
	return a.Storage().Data().Offset()*a.TensorType().ListSize() + a.storage().ListValues().Data().Offset()
}

// Validate checks what arrow-go does not: that the validity bitmaps of
// the array and of its elements hold a bit for each value, that the child
// array and its values buffer hold every tensor of the array, and that no
// valid tensor has a null element. It returns an error wrapping
// arrow.ErrInvalid. It is O(1) unless the child has nulls, then
// O(elements).
func (a *Array) Validate() error {
	t := a.TensorType()
	size := t.ListSize()
	st := a.Storage().Data()
	child := a.storage().ListValues()
	if err := checkBitmap(st, "tensor"); err != nil {
		return err
	}
	if err := checkBitmap(child.Data(), "element"); err != nil {
		return err
	}
	// The products are checked: on a 32-bit platform a few tensors of a
	// large type already overflow int, and a wrapped count would pass.
	tensors := st.Offset() + st.Len()
	need, ok := stride.MulCheck(tensors, size)
	if !ok || child.Len() < need {
		return errorf("storage child has %d elements, %d tensors of %d need more", child.Len(), tensors, size)
	}
	bufs := child.Data().Buffers()
	if len(bufs) < 2 || (need > 0 && bufs[1] == nil) {
		return errorf("storage child has no values buffer")
	}
	if BitElem(t.ElemType()) && need > 0 {
		nbits := child.Data().Offset() + need
		if nbits < 0 || int64(bufs[1].Len()) < bitutil.BytesForBits(int64(nbits)) {
			return errorf("values buffer has %d bytes, too few for %d tensors of %d bits at bit offset %d", bufs[1].Len(), tensors, size, child.Data().Offset())
		}
	} else if w := t.ElemWidth(); need > 0 {
		nbytes, ok := stride.MulCheck(child.Data().Offset()+need, w)
		if !ok || bufs[1].Len() < nbytes {
			return errorf("values buffer has %d bytes, too few for %d tensors of %d %d-byte elements at element offset %d", bufs[1].Len(), tensors, size, w, child.Data().Offset())
		}
	}
	if child.NullN() == 0 {
		return nil
	}
	bits := bufs[0].Bytes()
	first := child.Data().Offset() + st.Offset()*size
	for i := 0; i < a.Len(); i++ {
		if a.IsValid(i) && bitutil.CountSetBits(bits, first+i*size, size) != size {
			return errorf("tensor %d is valid but has null elements", i)
		}
	}
	return nil
}

// checkBitmap checks that the validity bitmap of d, when d has nulls or
// a bitmap, holds a bit for each of its values: readers take both the
// null count and the bitmap from their input, and arrow-go reads the bits
// unchecked.
func checkBitmap(d arrow.ArrayData, what string) error {
	n := 0
	if bufs := d.Buffers(); len(bufs) > 0 && bufs[0] != nil {
		n = bufs[0].Len()
	}
	if n == 0 {
		if d.NullN() > 0 {
			return errorf("%s validity bitmap missing for %d nulls", what, d.NullN())
		}
		return nil
	}
	if need := int(bitutil.BytesForBits(int64(d.Offset()) + int64(d.Len()))); n < need {
		return errorf("%s validity bitmap of %d bytes is too short for %d values at offset %d", what, n, d.Len(), d.Offset())
	}
	return nil
}

// ValueBytes returns the physical bytes of all tensors of the array,
// nulls included, tensor i at [i*ListSize*ElemWidth, ...). It shares the
// array's memory: do not modify it. It is nil for bool elements, which
// are bits (see [Array.BoolAt] and [Array.ValueBits]). It assumes
// [Array.Validate] holds.
func (a *Array) ValueBytes() []byte {
	t := a.TensorType()
	w := t.ElemWidth()
	start := a.firstElem() * w
	n := a.Len() * t.ListSize() * w
	if n == 0 {
		return nil
	}
	return a.storage().ListValues().Data().Buffers()[1].Bytes()[start : start+n]
}

// ValueStr returns tensor i as nested lists in logical order, for example
// [[1,2,3],[4,5,6]] for a 2x3 tensor, the bare element for a 0-D tensor,
// and array.NullValueStr for a null tensor. It does not panic on valid i.
func (a *Array) ValueStr(i int) string {
	if a.IsNull(i) {
		return array.NullValueStr
	}
	var b strings.Builder
	a.visit(i, func(open, close int, j int) {
		b.WriteString(strings.Repeat("[", open))
		b.WriteString(a.storage().ListValues().ValueStr(j))
		b.WriteString(strings.Repeat("]", close))
	}, func() { b.WriteByte(',') })
	return b.String()
}

// visit walks tensor i in logical order, calling elem with the number of
// brackets opened before and closed after each element and the element's
// index in the child array, and sep between elements.
func (a *Array) visit(i int, elem func(open, close, j int), sep func()) {
	t := a.TensorType()
	m := t.Metadata()
	shape := m.Shape()
	base := (a.Storage().Data().Offset() + i) * t.ListSize()
	n := len(shape)
	if m.Size() == 0 {
		return
	}
	idx := make([]int, n)
	k := 0
	for off := range stride.Offsets(shape, m.ElemStrides()) {
		open := 0
		for a := n - 1; a >= 0 && idx[a] == 0; a-- {
			open++
		}
		if k == 0 {
			open = n
		} else {
			sep()
		}
		// Advance the index to know how many axes close after this element.
		close := 0
		for a := n - 1; a >= 0; a-- {
			idx[a]++
			if idx[a] < shape[a] {
				break
			}
			idx[a] = 0
			close++
		}
		elem(min(open, n), close, base+off)
		k++
	}
}

// String returns the tensors of the array in the form of
// [Array.ValueStr], separated by spaces and enclosed in brackets.
func (a *Array) String() string {
	var b strings.Builder
	b.WriteByte('[')
	for i := 0; i < a.Len(); i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(a.ValueStr(i))
	}
	b.WriteByte(']')
	return b.String()
}

// GetOneForMarshal returns tensor i as nested []any in logical order (the
// element for a 0-D tensor), or nil for a null tensor.
func (a *Array) GetOneForMarshal(i int) any {
	if a.IsNull(i) {
		return nil
	}
	child := a.storage().ListValues()
	shape := a.TensorType().Shape()
	if len(shape) == 0 {
		var v any
		a.visit(i, func(_, _, j int) { v = child.GetOneForMarshal(j) }, func() {})
		return v
	}
	stack := []*[]any{new([]any)}
	for range shape[1:] {
		stack = append(stack, nil)
	}
	a.visit(i, func(open, close, j int) {
		for d := len(shape) - open; d < len(shape); d++ {
			if d > 0 {
				stack[d] = new([]any)
			}
		}
		last := stack[len(shape)-1]
		*last = append(*last, child.GetOneForMarshal(j))
		for d := len(shape) - 1; d > len(shape)-1-close && d > 0; d-- {
			*stack[d-1] = append(*stack[d-1], *stack[d])
		}
	}, func() {})
	return *stack[0]
}

// MarshalJSON writes the array as a JSON array of nested lists.
func (a *Array) MarshalJSON() ([]byte, error) {
	vals := make([]any, a.Len())
	for i := range vals {
		vals[i] = a.GetOneForMarshal(i)
	}
	return json.Marshal(vals)
}

// ValueAsAny returns [Array.GetOneForMarshal] of i.
func (a *Array) ValueAsAny(i int) any { return a.GetOneForMarshal(i) }

// NewArray wraps storage, a FixedSizeList array matching typ's storage
// layout (list size, element type; the child may be named "item" or
// "element" and be nullable or not), as a tensor array, sharing its
// buffers. It validates the result ([Array.Validate]). The caller keeps
// its reference to storage; release both.
func NewArray(typ *Type, storage arrow.Array) (*Array, error) {
	fsl, ok := storage.DataType().(*arrow.FixedSizeListType)
	if !ok {
		return nil, errorf("expected FixedSizeList storage, got %v", storage.DataType())
	}
	if int(fsl.Len()) != typ.ListSize() || !arrow.TypeEqual(fsl.Elem(), typ.ElemType()) {
		return nil, errorf("storage %v does not match %v", storage.DataType(), typ)
	}
	if !arrow.TypeEqual(fsl, typ.StorageType()) {
		var err error
		if typ, err = NewTypeWithStorage(fsl, typ.Metadata()); err != nil {
			return nil, err
		}
	}
	sd := storage.Data()
	data := array.NewData(typ, sd.Len(), sd.Buffers(), sd.Children(), sd.NullN(), sd.Offset())
	defer data.Release()
	arr := array.MakeFromData(data).(*Array)
	if err := arr.Validate(); err != nil {
		arr.Release()
		return nil, err
	}
	return arr, nil
}
