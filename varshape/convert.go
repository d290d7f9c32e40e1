package varshape

import (
	"math"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

// FromFixed returns the fixed-shape column a as a variable-shape column
// whose uniform shape is a's whole shape, with a's names and permutation.
// The data buffer is shared, not copied; only the list offsets, the
// shapes and the validity bitmap are new, allocated from mem. The caller
// releases the result. It fails with an error wrapping arrow.ErrInvalid
// when a is invalid or holds more than 2^31-1 elements from its child's
// start, and with arrow.ErrNotImplemented for a 0-D type.
func FromFixed(mem memory.Allocator, a *fixedshape.Array) (*Array, error) {
	if err := a.Validate(); err != nil {
		return nil, errorf("%w", err)
	}
	ft := a.TensorType()
	m := ft.Metadata()
	typ, err := NewType(ft.ElemType(), m.NDim(), Options{DimNames: m.DimNames(), Permutation: m.Permutation(), UniformShape: m.Shape()})
	if err != nil {
		return nil, err
	}
	n, size := a.Len(), m.Size()
	base := a.Storage().Data().Offset() * size
	if end := int64(base) + int64(n)*int64(size); end > math.MaxInt32 {
		return nil, errorf("a column of %d elements from element %d exceeds a list's 2^31-1", n*size, base)
	}
	child := a.Storage().(*array.FixedSizeList).ListValues().Data()
	st := typ.Storage.(*arrow.StructType)
	offs := memory.NewResizableBuffer(mem)
	defer offs.Release()
	offs.Resize(4 * (n + 1))
	ov := arrow.Int32Traits.CastFromBytes(offs.Bytes())
	for i := range ov {
		ov[i] = int32(base + i*size)
	}
	list := array.NewData(st.Field(0).Type, n, []*memory.Buffer{nil, offs}, []arrow.ArrayData{child}, 0, 0)
	defer list.Release()
	shapes := repeatShape(mem, typ, m.PhysicalShape(), n)
	defer shapes.Release()
	valid := copyValidity(mem, a)
	if valid != nil {
		defer valid.Release()
	}
	data := array.NewData(typ, n, []*memory.Buffer{valid}, []arrow.ArrayData{list, shapes}, a.NullN(), 0)
	defer data.Release()
	return array.MakeFromData(data).(*Array), nil
}

// repeatShape makes the shape child: phys for each of n rows.
func repeatShape(mem memory.Allocator, typ *Type, phys []int, n int) arrow.ArrayData {
	st := typ.Storage.(*arrow.StructType)
	sh := st.Field(1).Type.(*arrow.FixedSizeListType)
	buf := memory.NewResizableBuffer(mem)
	defer buf.Release()
	buf.Resize(4 * n * len(phys))
	v := arrow.Int32Traits.CastFromBytes(buf.Bytes())
	for i := range v {
		v[i] = int32(phys[i%len(phys)])
	}
	vals := array.NewData(sh.Elem(), len(v), []*memory.Buffer{nil, buf}, nil, 0, 0)
	defer vals.Release()
	return array.NewData(sh, n, []*memory.Buffer{nil}, []arrow.ArrayData{vals}, 0, 0)
}

// ToFixed returns a as a fixed-shape column when every valid row has the
// same shape (a column with no valid row needs a complete uniform shape).
// The data buffer is shared when every row's list, null rows included,
// holds one tensor's elements back to back, as FromFixed and most writers
// make them; otherwise the elements are copied into a buffer from mem
// (null rows zero-filled). The caller releases the result. It fails with
// an error wrapping arrow.ErrInvalid that names the first row whose shape
// differs from the first valid row's, and like fixedshape.NewType (a shape
// with no elements).
func ToFixed(mem memory.Allocator, a *Array) (*fixedshape.Array, error) {
	if err := a.Validate(); err != nil {
		return nil, err
	}
	t := a.TensorType()
	l := a.layout()
	shapes := l.shapes()
	first := -1
	var phys []int
	for i := 0; i < l.n; i++ {
		if a.IsNull(i) {
			continue
		}
		if first < 0 {
			first = i
			phys = a.PhysicalShape(nil, i)
			continue
		}
		row := shapes[i*l.ndim : (i+1)*l.ndim]
		for k, d := range row {
			if int(d) != phys[k] {
				want, _ := t.RowMetadata(phys)
				got, _ := t.RowMetadata(a.PhysicalShape(nil, i))
				return nil, errorf("row %d has shape %s, row %d has %s: the column has no fixed shape", i, metadata.FormatShape(got.Shape()), first, metadata.FormatShape(want.Shape()))
			}
		}
	}
	if first < 0 {
		if t.uniform == nil || slices.Contains(t.uniform, Varies) {
			return nil, errorf("no valid row and no complete uniform shape fix the shape")
		}
		phys = slices.Clone(t.uniform)
	}
	ft, err := t.FixedType(phys)
	if err != nil {
		return nil, err
	}
	n, size, w := l.n, ft.ListSize(), t.ElemWidth()
	offs := l.offsets()
	dense := true
	for i := 0; i <= n && dense; i++ {
		dense = int(offs[i]) == int(offs[0])+i*size
	}
	valid := copyValidity(mem, a)
	if valid != nil {
		defer valid.Release()
	}
	var child arrow.ArrayData
	if dense {
		child = array.NewSliceData(l.data.Children()[0], int64(offs[0]), int64(offs[0])+int64(n*size))
	} else {
		buf := memory.NewResizableBuffer(mem)
		defer buf.Release()
		if w == 0 { // bits
			buf.Resize(int(bitutil.BytesForBits(int64(n * size))))
		} else {
			buf.Resize(n * size * w)
		}
		dst := buf.Bytes()
		clear(dst)
		src, bit0 := l.values(), l.bit0()
		for i := 0; i < n; i++ {
			switch {
			case !a.IsValid(i):
			case w == 0:
				bitutil.CopyBitmap(src, bit0+int(offs[i]), size, dst, i*size)
			default:
				copy(dst[i*size*w:(i+1)*size*w], src[int(offs[i])*w:int(offs[i+1])*w])
			}
		}
		child = array.NewData(ft.ElemType(), n*size, []*memory.Buffer{nil, buf}, nil, 0, 0)
	}
	defer child.Release()
	data := array.NewData(ft, n, []*memory.Buffer{valid}, []arrow.ArrayData{child}, a.NullN(), 0)
	defer data.Release()
	return array.MakeFromData(data).(*fixedshape.Array), nil
}

// Row returns row i of a as a one-row fixed-shape column of the row's
// shape, sharing a's data buffer: the way to hand one row to code that
// takes fixed-shape columns (arrowconv.SlotTensor for arrow-go's
// arrow/tensor, the .npy codec, expr.Plan). It fails with an error
// wrapping arrow.ErrInvalid for a null row or an invalid array, and like
// fixedshape.NewType (a row with no elements). The caller releases the
// result.
func (a *Array) Row(i int) (*fixedshape.Array, error) {
	if uint(i) >= uint(a.Len()) {
		return nil, errorf("row %d out of range [0, %d)", i, a.Len())
	}
	if a.IsNull(i) {
		return nil, errorf("row %d is null", i)
	}
	l := a.layout()
	ft, err := a.TensorType().FixedType(a.PhysicalShape(nil, i))
	if err != nil {
		return nil, errorf("row %d: %w", i, err)
	}
	offs := l.offsets()
	child := array.NewSliceData(l.data.Children()[0], int64(offs[i]), int64(offs[i+1]))
	defer child.Release()
	data := array.NewData(ft, 1, []*memory.Buffer{nil}, []arrow.ArrayData{child}, 0, 0)
	defer data.Release()
	return array.MakeFromData(data).(*fixedshape.Array), nil
}

// RowBytes returns the physical bytes of row i, sharing a's memory (do
// not modify them); nil for a row without elements and for a bool column,
// whose rows need not start on a byte (see [Array.ValueBits]). It assumes
// [Array.Validate] holds and panics if i is out of range.
func (a *Array) RowBytes(i int) []byte {
	l := a.layout()
	if l.width == 0 {
		if uint(i) >= uint(l.n) {
			panic("varshape: row index out of range")
		}
		return nil
	}
	offs := l.offsets()
	return l.values()[int(offs[i])*l.width : int(offs[i+1])*l.width]
}

// Raw is the storage of an array laid bare for fast loops over rows: row
// i's elements are Values[Offsets[i]*Width : Offsets[i+1]*Width] and its
// physical shape Shapes[i*NDim : (i+1)*NDim]. For a bool column Width is
// 0 and Values bit-packed, least significant bit first: row i's elements
// are bits Bit0+Offsets[i] to Bit0+Offsets[i+1] of Values. The slices
// share the array's memory: do not modify them. A null row's shape and
// elements are unspecified.
type Raw struct {
	Offsets []int32 // Len()+1 offsets, in elements, into Values
	Values  []byte  // the data child's elements from the first one an offset can name
	Shapes  []int32 // physical shapes, NDim per row
	NDim    int     // dimensions of every row
	Width   int     // bytes per element; 0 for bool (bits)
	Bit0    int     // bool: the bit of Values holding element 0 (0 to 7); else 0
}

// Raw validates a ([Array.Validate]) and returns its storage laid bare.
func (a *Array) Raw() (Raw, error) {
	if err := a.Validate(); err != nil {
		return Raw{}, err
	}
	l := a.layout()
	return Raw{Offsets: l.offsets(), Values: l.values(), Shapes: l.shapes(), NDim: l.ndim, Width: l.width, Bit0: l.bit0()}, nil
}

// copyValidity returns a new buffer from mem holding a's validity bitmap
// from bit 0, or nil when a has no nulls. The caller releases it.
func copyValidity(mem memory.Allocator, a arrow.Array) *memory.Buffer {
	if a.NullN() == 0 {
		return nil
	}
	n := a.Len()
	valid := memory.NewResizableBuffer(mem)
	valid.Resize(int(bitutil.BytesForBits(int64(n))))
	bitutil.CopyBitmap(a.NullBitmapBytes(), a.Data().Offset(), n, valid.Bytes(), 0)
	return valid
}
