package arrowconv

import (
	"runtime"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/arrow/tensor"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/layout"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/stride"
)

// values returns the values buffer of arr's storage child and the index,
// in elements, of the first element of tensor 0 of arr in that buffer.
func values(arr *fixedshape.Array) (*memory.Buffer, int) {
	st := arr.Storage().(*array.FixedSizeList)
	child := st.ListValues().Data()
	first := st.Data().Offset()*arr.TensorType().ListSize() + child.Offset()
	return child.Buffers()[1], first
}

// tensorElemOK reports whether arrow/tensor can hold elements of dt:
// tensor.New takes the integer types, float32, float64, date32 and date64
// and panics on any other (float16, bool, decimals, timestamps...).
func tensorElemOK(dt arrow.DataType) error {
	switch dt.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64,
		arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64,
		arrow.FLOAT32, arrow.FLOAT64, arrow.DATE32, arrow.DATE64:
		return nil
	}
	return unsupported("element type %v: arrow-go's arrow/tensor has no %v tensor", dt, dt)
}

// ToTensor returns the whole column arr as one (N+1)-D arrow/tensor: the
// batch axis first, then the logical axes. Its shape is
// [arr.Len()] + logical shape, its byte strides are
// [ListSize*ElemWidth] + the spec's byte strides of the logical axes
// (stride of logical axis i = width * row-major stride of physical axis
// perm[i]), and its dimension names are "" for the batch axis followed by
// the logical names (all "" when the type has none).
//
// The tensor shares arr's values buffer (it retains it): no element is
// copied and the cost does not depend on the column's size. The caller
// releases the tensor; arr may be released independently.
//
// It fails, with an error wrapping arrow.ErrInvalid, when arr has null
// tensors (a tensor has no validity) or fails Array.Validate (which
// refuses a null element inside a valid tensor), and additionally
// arrow.ErrNotImplemented for elements arrow/tensor cannot hold: it has
// integer, float32, float64, date32 and date64 tensors only (no float16,
// bool, decimal, time or fixed-size binary). So any null, tensor or
// element, refuses the whole column; Arrow C++'s
// FixedShapeTensorArray::ToTensor checks neither and exposes the bytes
// under the nulls. Use [SlotTensor] to convert the tensors of such a
// column one by one.
func ToTensor(arr *fixedshape.Array) (tensor.Interface, error) {
	typ := arr.TensorType()
	if err := tensorElemOK(typ.ElemType()); err != nil {
		return nil, err
	}
	if err := arr.Validate(); err != nil {
		return nil, errorf("to tensor: %w", err)
	}
	if n := arr.NullN(); n > 0 {
		return nil, errorf("to tensor: the column has %d null tensors; a tensor cannot represent nulls", n)
	}
	w := typ.ElemWidth()
	shape := make([]int64, 0, typ.NDim()+1)
	strides := make([]int64, 0, typ.NDim()+1)
	shape = append(shape, int64(arr.Len()))
	strides = append(strides, int64(typ.ListSize()*w))
	for i, d := range typ.Shape() {
		shape = append(shape, int64(d))
		strides = append(strides, int64(typ.ByteStrides()[i]))
	}
	names := append([]string{""}, logicalNames(typ)...)
	return newTensor(arr, 0, arr.Len(), shape, strides, names), nil
}

// SlotTensor returns tensor i of arr as an N-D arrow/tensor of the
// logical shape, with the spec's byte strides and the logical dimension
// names, sharing arr's values buffer (it retains it). A 0-D tensor gives
// a tensor of shape [] and one element. The caller releases the tensor.
//
// Only tensor i is looked at, as Arrow C++ does when it converts one
// tensor (FixedShapeTensorType::MakeTensor refuses a tensor whose own
// elements hold a null): the buffers must hold its validity bit, its
// elements and their validity bits, and none of its elements may be
// null; nulls among the elements of other tensors do not matter, so the
// tensors of a column that [ToTensor] refuses convert one by one except
// those with a null element. The check costs a popcount of the tensor's
// element validity bits, none when the column has no null element.
//
// It fails, with an error wrapping arrow.ErrInvalid, when tensor i is
// null, has a null element (the error names the tensor, the logical index
// of its first null element in storage order and that element's storage
// position), or its buffers are too short to hold it; additionally
// arrow.ErrNotImplemented for elements arrow/tensor cannot hold (see
// [ToTensor]). It panics if i is out of range.
func SlotTensor(arr *fixedshape.Array, i int) (tensor.Interface, error) {
	if i < 0 || i >= arr.Len() {
		panic(errorf("slot tensor: index %d out of range [0,%d)", i, arr.Len()))
	}
	typ := arr.TensorType()
	if err := tensorElemOK(typ.ElemType()); err != nil {
		return nil, err
	}
	if err := checkSlot(arr, i); err != nil {
		return nil, errorf("slot tensor: %w", err)
	}
	shape := make([]int64, typ.NDim())
	strides := make([]int64, typ.NDim())
	bs := typ.ByteStrides()
	for k, d := range typ.Shape() {
		shape[k], strides[k] = int64(d), int64(bs[k])
	}
	return newTensor(arr, i, 1, shape, strides, logicalNames(typ)), nil
}

// checkSlot checks what SlotTensor reads of tensor i of arr: the tensor's
// validity bit, its elements in the child and the values buffer, and,
// when the child has nulls, its elements' validity bits, of which none
// may be clear. It reads nothing before checking that it is there.
func checkSlot(arr *fixedshape.Array, i int) error {
	typ := arr.TensorType()
	size := typ.ListSize()
	st := arr.Storage().Data()
	row := st.Offset() + i
	if err := checkBit(st, i, "tensor"); err != nil {
		return err
	}
	if arr.IsNull(i) {
		return errorf("tensor %d is null", i)
	}
	children := st.Children()
	if len(children) != 1 {
		return errorf("storage has %d children, want 1", len(children))
	}
	child := children[0]
	end, ok := stride.MulCheck(row+1, size)
	if !ok || child.Len() < end {
		return errorf("storage child has %d elements, tensor %d needs %d", child.Len(), i, end)
	}
	first := child.Offset() + row*size
	bufs := child.Buffers()
	if len(bufs) < 2 || bufs[1] == nil {
		return errorf("storage child has no values buffer")
	}
	last := first + size
	if nbytes, ok := stride.MulCheck(last, typ.ElemWidth()); last < first || !ok || bufs[1].Len() < nbytes {
		return errorf("values buffer has %d bytes, too few for tensor %d of %d %d-byte elements at element offset %d", bufs[1].Len(), i, size, typ.ElemWidth(), first)
	}
	if child.NullN() == 0 {
		return nil
	}
	if err := checkBit(child, end-1, "element"); err != nil {
		return err
	}
	if bufs[0] == nil || bufs[0].Len() == 0 {
		return nil // checkBit found no bitmap and no null: all valid
	}
	bits := bufs[0].Bytes()
	if bitutil.CountSetBits(bits, first, size) == size {
		return nil
	}
	k := 0
	for bitutil.BitIsSet(bits, first+k) {
		k++
	}
	return errorf("tensor %d has a null element at index %v (element %d in storage order); a tensor cannot represent nulls", i, logicalIndex(typ, k), k)
}

// checkBit checks that the validity bitmap of d holds the bit of its
// value k (0 is d's first value, offset excluded from k): absent, it must
// come with no nulls.
func checkBit(d arrow.ArrayData, k int, what string) error {
	bufs := d.Buffers()
	if len(bufs) == 0 || bufs[0] == nil || bufs[0].Len() == 0 {
		if d.NullN() > 0 {
			return errorf("%s validity bitmap missing for %d nulls", what, d.NullN())
		}
		return nil
	}
	if need := bitutil.BytesForBits(int64(d.Offset()) + int64(k) + 1); int64(bufs[0].Len()) < need {
		return errorf("%s validity bitmap of %d bytes has no bit for value %d at offset %d", what, bufs[0].Len(), k, d.Offset())
	}
	return nil
}

// logicalIndex returns the logical index of the element at storage
// position k of a tensor of typ: with the element strides of a dense
// layout in some axis order, index a is k / stride[a] mod shape[a].
func logicalIndex(typ *fixedshape.Type, k int) []int {
	shape, strides := typ.Shape(), typ.ElemStrides()
	idx := make([]int, len(shape))
	for a := range idx {
		idx[a] = k / strides[a] % shape[a]
	}
	return idx
}

// logicalNames returns the logical dimension names of typ, or NDim empty
// strings when it has none.
func logicalNames(typ *fixedshape.Type) []string {
	if names := typ.DimNames(); names != nil {
		return names
	}
	return make([]string, typ.NDim())
}

// newTensor makes the arrow/tensor over tensors [i, i+n) of arr.
func newTensor(arr *fixedshape.Array, i, n int, shape, strides []int64, names []string) tensor.Interface {
	typ := arr.TensorType()
	buf, first := values(arr)
	size := typ.ListSize()
	var bufs []*memory.Buffer
	if n > 0 {
		bufs = []*memory.Buffer{nil, buf}
	} else {
		bufs = []*memory.Buffer{nil, nil}
	}
	data := array.NewData(typ.ElemType(), n*size, bufs, nil, 0, first+i*size)
	defer data.Release()
	return tensor.New(data, shape, strides, names)
}

// FromTensor returns the (N+1)-D tensor t, batch axis first, as a column
// of t.Shape()[0] tensors of logical shape t.Shape()[1:], with the
// logical dimension names t.DimNames()[1:] (none when they are all "").
//
// When the element axes are dense in some order (every element of a
// tensor reached exactly once, row-major after a permutation of the
// axes) and the batch stride is one tensor, the column shares t's
// buffer (it retains it) and its type carries the permutation p derived
// from the strides, the spec's: logical axis i has the row-major stride
// of physical axis p[i] (absent when p is the identity). This is O(1) in
// the data size. Strides of axes of size 1 are ignored, as NumPy does.
//
// Any other layout (gaps, overlaps, negative strides, a padded batch
// axis) is refused unless [WithCopy] is given; then the elements are
// copied, in logical order with no permutation, into memory from the
// allocator of [WithAllocator].
//
// t is validated first, which arrow-go does not do: at least one axis,
// non-negative dimensions, one byte stride per axis, each a multiple of
// the element width, and every element inside the data buffer. Errors
// wrap arrow.ErrInvalid; shapes with no element per tensor (a 0 among
// the element dimensions) also wrap arrow.ErrNotImplemented, as for
// fixedshape.NewType. The caller keeps its reference to t.
func FromTensor(t tensor.Interface, opts ...Option) (*fixedshape.Array, error) {
	return fromTensor(t, false, newConfig(opts))
}

// FromSlotTensor is [FromTensor] for one N-D tensor, which becomes a
// column of length 1 of logical shape t.Shape() (a 0-D tensor gives
// shape ()).
func FromSlotTensor(t tensor.Interface, opts ...Option) (*fixedshape.Array, error) {
	return fromTensor(t, true, newConfig(opts))
}

// fromTensor implements FromTensor (slot false) and FromSlotTensor.
func fromTensor(t tensor.Interface, slot bool, cfg *config) (*fixedshape.Array, error) {
	dt := t.DataType()
	if !fixedshape.ElemTypeOK(dt) {
		return nil, errorf("from tensor: element type %v is not a primitive integer or float type", dt)
	}
	w := dt.(arrow.FixedWidthDataType).Bytes()
	shape64, strides64, names := t.Shape(), t.Strides(), t.DimNames()
	if len(strides64) != len(shape64) {
		return nil, errorf("from tensor: %d strides for %d axes", len(strides64), len(shape64))
	}
	if len(names) != 0 && len(names) != len(shape64) {
		return nil, errorf("from tensor: %d dim names for %d axes", len(names), len(shape64))
	}
	shape := make([]int, 0, len(shape64)+1)
	estr := make([]int, 0, len(shape64)+1)
	if slot {
		shape = append(shape, 1)
		estr = append(estr, 0)
		names = append([]string{""}, names...)
	} else if len(shape64) == 0 {
		return nil, errorf("from tensor: a 0-D tensor has no batch axis; use FromSlotTensor")
	}
	for i, d := range shape64 {
		s := strides64[i]
		if d < 0 || int64(int(d)) != d {
			return nil, errorf("from tensor: shape %v: dimension %d is %d", shape64, i, d)
		}
		if s%int64(w) != 0 || int64(int(s)) != s {
			return nil, errorf("from tensor: stride %d of axis %d is not a multiple of the element width %d", s, i, w)
		}
		shape = append(shape, int(d))
		estr = append(estr, int(s/int64(w)))
	}
	if err := stride.CheckShape(shape); err != nil {
		return nil, errorf("from tensor: shape %v: %w", shape64, err)
	}
	if len(names) > 0 && slices.ContainsFunc(names[1:], func(s string) bool { return s != "" }) {
		names = names[1:]
	} else {
		names = nil
	}
	m, err := metadata.New(shape[1:], names, nil)
	if err != nil {
		return nil, errorf("from tensor: %w", err)
	}
	typ, err := fixedshape.NewType(dt, m)
	if err != nil {
		return nil, errorf("from tensor: %w", err)
	}
	data := t.Data()
	buf := data.Buffers()[1]
	lo, hi, err := reach(shape, estr)
	if err != nil {
		return nil, errorf("from tensor: %w", err)
	}
	n := shape[0]
	if n > 0 {
		avail := data.Len()
		if buf == nil || buf.Len() < (data.Offset()+avail)*w {
			return nil, errorf("from tensor: the values buffer is shorter than its %d elements", avail)
		}
		if lo < 0 || hi >= avail {
			return nil, errorf("from tensor: shape %v with byte strides %v reaches elements [%d,%d], outside the %d elements of the buffer", shape64, strides64, lo, hi, avail)
		}
	}
	size := typ.ListSize()
	perm, dense := stride.Dense(shape[1:], estr[1:])
	if dense && (n <= 1 || estr[0] == size) {
		if !stride.IsIdentity(perm) {
			m, err = metadata.New(shape[1:], names, perm)
			if err != nil {
				return nil, errorf("from tensor: %w", err)
			}
			if typ, err = fixedshape.NewType(dt, m); err != nil {
				return nil, errorf("from tensor: %w", err)
			}
		}
		return wrapValues(typ, buf, data.Offset(), n)
	}
	if !cfg.copy {
		return nil, errorf("from tensor: byte strides %v are not a dense layout of shape %v (gaps, overlaps or a padded batch axis); use WithCopy to copy", strides64, shape64)
	}
	return copyStrided(typ, buf.Bytes()[data.Offset()*w:], shape, estr, w, cfg.mem)
}

// reach returns the lowest and highest element offsets that shape with
// element strides estr addresses, relative to its first element, or an
// error on overflow. For a shape with no element it returns 0, -1.
func reach(shape, estr []int) (lo, hi int, err error) {
	for _, d := range shape {
		if d == 0 {
			return 0, -1, nil
		}
	}
	for i, d := range shape {
		s := estr[i]
		a := s
		if a < 0 {
			a = -a
			if a < 0 {
				return 0, 0, errorf("stride %d overflows", s)
			}
		}
		step, ok := stride.MulCheck(d-1, a)
		if !ok {
			return 0, 0, errorf("axis %d: %d x stride %d overflows", i, d-1, s)
		}
		if s < 0 {
			lo -= step
		} else {
			hi += step
		}
		if lo > 0 || hi < 0 {
			return 0, 0, errorf("the strides overflow")
		}
	}
	return lo, hi, nil
}

// wrapValues returns the array of n tensors of typ whose physical
// elements start at element first of buf, sharing buf.
func wrapValues(typ *fixedshape.Type, buf *memory.Buffer, first, n int) (*fixedshape.Array, error) {
	size := typ.ListSize()
	if n == 0 {
		buf, first = nil, 0
	}
	child := array.NewData(typ.ElemType(), n*size, []*memory.Buffer{nil, buf}, nil, 0, first)
	defer child.Release()
	st := array.NewData(typ.StorageType(), n, []*memory.Buffer{nil}, []arrow.ArrayData{child}, 0, 0)
	defer st.Release()
	storage := array.MakeFromData(st)
	defer storage.Release()
	arr, err := fixedshape.NewArray(typ, storage)
	if err != nil {
		return nil, errorf("%w", err)
	}
	return arr, nil
}

// copyStrided copies the elements of the (batch + element axes) layout
// shape/estr over src, whose element 0 is the first element, into a new
// dense column of typ (identity permutation), in logical order. The
// caller has checked, with reach, that every offset is inside src.
func copyStrided(typ *fixedshape.Type, src []byte, shape, estr []int, w int, mem memory.Allocator) (*fixedshape.Array, error) {
	total, err := stride.NumElements(shape)
	if err != nil {
		return nil, errorf("%w", err)
	}
	nbytes, ok := stride.MulCheck(total, w)
	if !ok {
		return nil, errorf("copy of %d %d-byte elements overflows", total, w)
	}
	buf := memory.NewResizableBuffer(mem)
	defer buf.Release()
	buf.Resize(nbytes)
	if total > 0 {
		p, err := layout.NewPlan(w, shape, estr, 0)
		if err != nil {
			return nil, errorf("%w", err)
		}
		if p.MinSource() > len(src)/w {
			return nil, errorf("copy reads element %d of %d", p.MinSource()-1, len(src)/w)
		}
		p.Run(buf.Bytes(), src, 1, 0, runtime.GOMAXPROCS(0))
	}
	return wrapValues(typ, buf, 0, shape[0])
}
