package varshape

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/stride"
)

// Array is a column of variable-shape tensors: an extension array of
// [Type] whose storage is a struct of the data lists and the shapes. Nulls
// exist per tensor only (the struct validity bitmap).
//
// Arrays are reference counted like every arrow-go array: Retain and
// Release; views taken from an array ([Column], tensors, byte slices) are
// valid while the array is.
type Array struct {
	array.ExtensionArrayBase
}

var _ array.ExtensionArray = (*Array)(nil)

// TensorType returns the array's tensor type.
func (a *Array) TensorType() *Type { return a.DataType().(*Type) }

// layout is the raw view of an array's storage: the struct's offset and
// length and its two children.
type layout struct {
	off, n int
	data   arrow.ArrayData // the list<T> child
	shape  arrow.ArrayData // the fixed_size_list<int32> child
	ndim   int
	width  int
}

func (a *Array) layout() layout {
	t := a.TensorType()
	st := t.Storage.(*arrow.StructType)
	di, _ := st.FieldIdx("data")
	si, _ := st.FieldIdx("shape")
	sd := a.Storage().Data()
	return layout{off: sd.Offset(), n: sd.Len(), data: sd.Children()[di], shape: sd.Children()[si], ndim: t.ndim, width: t.ElemWidth()}
}

// offsets returns the n+1 list offsets of the array's rows; valid after
// Validate.
func (l layout) offsets() []int32 {
	buf := l.data.Buffers()[1]
	if buf == nil || l.n == 0 && buf.Len() < 4 {
		return make([]int32, 1)
	}
	all := arrow.Int32Traits.CastFromBytes(buf.Bytes())
	start := l.data.Offset() + l.off
	if start+l.n+1 > len(all) { // only for an empty array; Validate checks the rest
		return make([]int32, 1)
	}
	return all[start : start+l.n+1]
}

// shapes returns the physical shapes of the rows, ndim int32 per row;
// valid after Validate.
func (l layout) shapes() []int32 {
	if l.ndim == 0 || l.n == 0 {
		return nil
	}
	c := l.shape.Children()[0]
	all := arrow.Int32Traits.CastFromBytes(c.Buffers()[1].Bytes())
	start := c.Offset() + (l.shape.Offset()+l.off)*l.ndim
	return all[start : start+l.n*l.ndim]
}

// values returns the bytes of the data child's values, from the child's
// element 0 (list offsets index them); valid after Validate. For bool
// elements (width 0) they start at the byte of the child's element 0,
// which is bit [layout.bit0] of them.
func (l layout) values() []byte {
	c := l.data.Children()[0]
	buf := c.Buffers()[1]
	if buf == nil {
		return nil
	}
	if l.width == 0 {
		return buf.Bytes()[c.Offset()/8:]
	}
	return buf.Bytes()[c.Offset()*l.width:]
}

// bit0 returns the bit of [layout.values] that holds the child's element
// 0 of a bool column; 0 for other element types.
func (l layout) bit0() int {
	if l.width != 0 {
		return 0
	}
	return l.data.Children()[0].Offset() % 8
}

// Validate checks what arrow-go does not: that bitmaps, offsets and
// buffers hold every row, and that every valid row has a valid data list,
// a valid shape of non-negative sizes agreeing with the uniform shape, as
// many elements as the product of its shape (checked for overflow) and no
// null element. It returns an error wrapping arrow.ErrInvalid that names
// the row. It is O(rows x ndim), plus O(elements) when the data child has
// nulls.
func (a *Array) Validate() error {
	t := a.TensorType()
	l := a.layout()
	sd := a.Storage().Data()
	if err := checkBitmap(sd, "tensor"); err != nil {
		return err
	}
	// The list offsets.
	if l.data.Len() < l.off+l.n || l.shape.Len() < l.off+l.n {
		return errorf("storage children have %d and %d rows, the struct %d at offset %d", l.data.Len(), l.shape.Len(), l.n, l.off)
	}
	if err := checkBitmap(l.data, "data list"); err != nil {
		return err
	}
	if err := checkBitmap(l.shape, "shape"); err != nil {
		return err
	}
	ob := l.data.Buffers()[1]
	if l.n > 0 && (ob == nil || ob.Len() < (l.data.Offset()+l.off+l.n+1)*4) {
		return errorf("data list offsets buffer too short for %d rows", l.n)
	}
	offs := l.offsets()
	child := l.data.Children()[0]
	if err := checkBitmap(child, "element"); err != nil {
		return err
	}
	if offs[0] < 0 || int(offs[l.n]) > child.Len() {
		return errorf("data list offsets [%d, %d] outside the %d elements of the child", offs[0], offs[l.n], child.Len())
	}
	for i := 0; i < l.n; i++ {
		if offs[i+1] < offs[i] {
			return errorf("row %d: data list offsets decrease from %d to %d", i, offs[i], offs[i+1])
		}
	}
	if need := int(offs[l.n]) - min(int(offs[0]), int(offs[l.n])); need > 0 {
		vb := child.Buffers()[1]
		nbytes, ok := stride.MulCheck(child.Offset()+int(offs[l.n]), l.width)
		if l.width == 0 { // bits
			nbytes = int(bitutil.BytesForBits(int64(child.Offset()) + int64(offs[l.n])))
		}
		if vb == nil || !ok || vb.Len() < nbytes {
			return errorf("data values buffer too short for %d elements", int(offs[l.n]))
		}
	}
	// The shapes.
	if l.ndim > 0 && l.n > 0 {
		sc := l.shape.Children()[0]
		need, ok := stride.MulCheck(l.shape.Offset()+l.off+l.n, l.ndim)
		if !ok || sc.Len() < need {
			return errorf("shape child has %d sizes, %d rows of %d need more", sc.Len(), l.n, l.ndim)
		}
		vb := sc.Buffers()[1]
		if vb == nil || vb.Len() < (sc.Offset()+need)*4 {
			return errorf("shape values buffer too short for %d rows", l.n)
		}
		if err := checkBitmap(sc, "shape size"); err != nil {
			return err
		}
	}
	shapes := l.shapes()
	var sizeBits, elemBits []byte
	sc := l.shape
	if l.ndim > 0 && nullCount(sc.Children()[0], 0, sc.Children()[0].Len()) > 0 {
		sizeBits = sc.Children()[0].Buffers()[0].Bytes()
	}
	if nullCount(child, 0, child.Len()) > 0 {
		elemBits = child.Buffers()[0].Bytes()
	}
	for i := 0; i < l.n; i++ {
		if a.IsNull(i) {
			continue
		}
		if isNullAt(l.data, l.off+i) {
			return errorf("row %d is valid but its data list is null", i)
		}
		if isNullAt(l.shape, l.off+i) {
			return errorf("row %d is valid but its shape is null", i)
		}
		shp := shapes[i*l.ndim : (i+1)*l.ndim]
		if sizeBits != nil {
			first := sc.Children()[0].Offset() + (sc.Offset()+l.off+i)*l.ndim
			if bitutil.CountSetBits(sizeBits, first, l.ndim) != l.ndim {
				return errorf("row %d: shape has a null size", i)
			}
		}
		size := 1
		for k, d := range shp {
			if d < 0 {
				return errorf("row %d: shape %v has a negative size", i, shp)
			}
			if u := t.uniform; u != nil && u[k] != Varies && int(d) != u[k] {
				return errorf("row %d: dimension %d of shape %v is %d, the uniform shape %s fixes it to %d", i, k, shp, d, appendInts(nil, u, true), u[k])
			}
			var ok bool
			if size, ok = stride.MulCheck(size, int(d)); !ok {
				return errorf("row %d: shape %v has more elements than an int counts", i, shp)
			}
		}
		if n := int(offs[i+1] - offs[i]); n != size {
			return errorf("row %d: shape %v has %d elements, its data list %d", i, shp, size, n)
		}
		if elemBits != nil && size > 0 {
			if bitutil.CountSetBits(elemBits, child.Offset()+int(offs[i]), size) != size {
				return errorf("row %d is valid but has null elements", i)
			}
		}
	}
	return nil
}

func isNullAt(d arrow.ArrayData, i int) bool {
	if d.NullN() == 0 {
		return false
	}
	b := d.Buffers()[0]
	return b != nil && !bitutil.BitIsSet(b.Bytes(), d.Offset()+i)
}

// checkBitmap checks that the validity bitmap of d, when d has one, holds
// a bit for each of its values.
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

// PhysicalShape appends the physical shape of row i, as stored, to dst.
// It assumes [Array.Validate] holds and panics if i is out of range.
func (a *Array) PhysicalShape(dst []int, i int) []int {
	if uint(i) >= uint(a.Len()) {
		panic("varshape: row index out of range")
	}
	l := a.layout()
	for _, d := range l.shapes()[i*l.ndim : (i+1)*l.ndim] {
		dst = append(dst, int(d))
	}
	return dst
}

// Shape appends the logical shape of row i to dst; see
// [Array.PhysicalShape].
func (a *Array) Shape(dst []int, i int) []int {
	n := len(dst)
	dst = a.PhysicalShape(dst, i)
	if perm := a.TensorType().perm; perm != nil {
		phys := append([]int{}, dst[n:]...)
		for k, p := range perm {
			dst[n+k] = phys[p]
		}
	}
	return dst
}

// ValueStr returns row i as "shape:values" in logical order, for example
// (2,3):[[1,2,3],[4,5,6]], or array.NullValueStr for a null row.
func (a *Array) ValueStr(i int) string {
	if a.IsNull(i) {
		return array.NullValueStr
	}
	t := a.TensorType()
	m, err := t.RowMetadata(a.PhysicalShape(nil, i))
	if err != nil {
		return "<" + err.Error() + ">"
	}
	l := a.layout()
	child := array.MakeFromData(l.data.Children()[0])
	defer child.Release()
	base := int(l.offsets()[i])
	var b strings.Builder
	b.WriteString(metadata.FormatShape(m.Shape()) + ":")
	shape := m.Shape()
	nd := len(shape)
	if m.Size() == 0 {
		b.WriteString(strings.Repeat("[", nd) + strings.Repeat("]", nd))
		return b.String()
	}
	idx := make([]int, nd)
	k := 0
	for off := range stride.Offsets(shape, m.ElemStrides()) {
		if k > 0 {
			b.WriteByte(',')
		}
		open := 0
		for d := nd - 1; d >= 0 && idx[d] == 0; d-- {
			open++
		}
		b.WriteString(strings.Repeat("[", open))
		b.WriteString(child.ValueStr(base + off))
		close := 0
		for d := nd - 1; d >= 0; d-- {
			idx[d]++
			if idx[d] < shape[d] {
				break
			}
			idx[d] = 0
			close++
		}
		b.WriteString(strings.Repeat("]", close))
		k++
	}
	return b.String()
}

// String returns the rows in the form of [Array.ValueStr], separated by
// spaces and enclosed in brackets.
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

// NewArray wraps storage, a struct array of typ's storage layout, as a
// tensor array sharing its buffers, and validates it ([Array.Validate]).
// The caller keeps its reference to storage; release both.
func NewArray(typ *Type, storage arrow.Array) (*Array, error) {
	if !arrow.TypeEqual(storage.DataType(), typ.StorageType()) {
		t, err := NewTypeWithStorage(storage.DataType(), typ.names, typ.perm, typ.uniform)
		if err != nil {
			return nil, err
		}
		if !arrow.TypeEqual(t.ElemType(), typ.ElemType()) || t.ndim != typ.ndim {
			return nil, errorf("storage %v does not match %v", storage.DataType(), typ)
		}
		typ = t
	}
	sd := storage.Data()
	data := array.NewData(typ, sd.Len(), sd.Buffers(), sd.Children(), sd.NullN(), sd.Offset())
	defer data.Release()
	return validArray(data)
}

// validArray makes an array of data, retaining it, and validates it
// ([Array.Validate]); on error it releases the array.
func validArray(data arrow.ArrayData) (*Array, error) {
	arr := array.MakeFromData(data).(*Array)
	if err := arr.Validate(); err != nil {
		arr.Release()
		return nil, err
	}
	return arr, nil
}
