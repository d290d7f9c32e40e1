package npy

import (
	"encoding/binary"
	"errors"
	"github.com/fstensor/fstensor"
	"github.com/fstensor/fstensor/internal/errs"
	"io"
	"math"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/half"
	"github.com/fstensor/fstensor/stride"
)

var (
	// ErrNullTensor reports a null tensor written without
	// [WithFillNulls]. It is fstensor.ErrNullTensor, which the
	// other writers of formats without nulls report too. Errors of it
	// are *Error values, which also wrap arrow.ErrInvalid.
	ErrNullTensor = fstensor.ErrNullTensor
	// ErrFill reports a fill value the element type cannot hold (see
	// [CheckFill]). Errors of it are *Error values, which also wrap
	// arrow.ErrInvalid.
	ErrFill = errors.New("npy: fill value does not fit the element type")
)

// CheckFill reports whether every element of type dt can be set to v
// without changing it beyond rounding: integer types take whole numbers
// within their range (not NaN or an infinity, not a fraction); bool
// takes 0 and 1; floating-point types take every value, NaN and the
// infinities included, rounded to the nearest value of the type, except
// a finite value that would round to an infinity (1e9 for float16). An
// element type the package does not write is refused too. Errors are
// *Error values wrapping [ErrFill] and arrow.ErrInvalid that name the
// type and the value.
func CheckFill(dt arrow.DataType, v float64) error {
	bad := func(why string) error {
		return &Error{errs.Kind(ErrFill, "npy", "fill value %s %s", strconv.FormatFloat(v, 'g', -1, 64), why)}
	}
	var lo, hi float64 // the integer range: lo <= v < hi
	switch dt.ID() {
	case arrow.FLOAT64:
		return nil
	case arrow.FLOAT32, arrow.FLOAT16:
		f := float64(float32(v))
		if dt.ID() == arrow.FLOAT16 {
			f = half.ToFloat64(half.FromFloat64(v))
		}
		if !math.IsInf(v, 0) && math.IsInf(f, 0) {
			return bad("overflows " + dt.String() + " (it would become an infinity)")
		}
		return nil
	case arrow.BOOL:
		if v != 0 && v != 1 {
			return bad("is not a bool (0 or 1)")
		}
		return nil
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64:
		bits := float64(dt.(arrow.FixedWidthDataType).BitWidth())
		lo, hi = -math.Exp2(bits-1), math.Exp2(bits-1)
	case arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64:
		lo, hi = 0, math.Exp2(float64(dt.(arrow.FixedWidthDataType).BitWidth()))
	default:
		return bad("for " + dt.String() + ", which .npy files do not hold")
	}
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return bad("cannot be stored in " + dt.String() + ", which has no NaN or infinities")
	case v != math.Trunc(v):
		return bad("is not a whole number, as " + dt.String() + " needs")
	case v < lo || v >= hi:
		return bad("is out of the range of " + dt.String() + " [" + strconv.FormatFloat(lo, 'f', -1, 64) + ", " + strconv.FormatFloat(hi-1, 'f', -1, 64) + "]")
	}
	return nil
}

// chunkSize is the buffer size of copying writes, in bytes.
const chunkSize = 64 << 10

// WriteColumn writes the column a to w as one .npy array with the batch
// axis first: shape (a.Len(), L...) for tensors of logical shape L. A
// column in row-major layout (no permutation, or one that only moves
// axes of size 1) is written from its buffer without copying, in one
// Write; a column whose every element would need moving is copied to C
// order through a buffer of at most 64 KiB, and so are big-endian output
// and null fills. The bytes are those numpy.save writes for the same logical
// array. Errors wrap arrow.ErrInvalid: an invalid array, null tensors
// without [WithFillNulls] (wrapping [ErrNullTensor] too), a
// fill value the element type cannot hold (wrapping [ErrFill] too, before
// anything is written), a bad version; write errors are returned as they
// come.
func WriteColumn(w io.Writer, a *fixedshape.Array, opts ...WriteOption) error {
	c, err := newWriteConfig(opts)
	if err != nil {
		return err
	}
	return writeColumn(w, a, c)
}

// writeColumn is WriteColumn with its configuration.
func writeColumn(w io.Writer, a *fixedshape.Array, c *writeConfig) error {
	if err := a.Validate(); err != nil {
		return err
	}
	typ := a.TensorType()
	shape := append([]int{a.Len()}, typ.Shape()...)
	strides := append([]int{typ.ListSize()}, typ.ElemStrides()...)
	return write(w, a, 0, a.Len(), shape, strides, c)
}

// WriteTensor writes tensor i of a to w as a .npy array of the tensor's
// own logical shape (0-D included). A tensor whose permutation is the
// full reversal is written in Fortran order from its buffer without
// copying, as numpy.save writes a Fortran-contiguous array; an identity
// permutation is written in C order without copying; any other
// permutation is copied to C order. Errors are those of [WriteColumn]; a
// null tensor i is an error without [WithFillNulls]. It panics if i is out
// of range.
func WriteTensor(w io.Writer, a *fixedshape.Array, i int, opts ...WriteOption) error {
	if i < 0 || i >= a.Len() {
		panic("npy: tensor index out of range")
	}
	c, err := newWriteConfig(opts)
	if err != nil {
		return err
	}
	if err := a.Validate(); err != nil {
		return err
	}
	typ := a.TensorType()
	return write(w, a, i, 1, typ.Shape(), typ.ElemStrides(), c)
}

// write writes tensors [first, first+n) of a as an array of shape with
// element strides (in the physical buffer of those tensors).
func write(w io.Writer, a *fixedshape.Array, first, n int, shape, strides []int, o *writeConfig) error {
	typ := a.TensorType()
	if o.fillNulls {
		if err := CheckFill(typ.ElemType(), o.fill); err != nil {
			return err
		}
	}
	size, width := typ.ListSize(), typ.ElemWidth()
	nulls := false
	for i := first; a.NullN() > 0 && i < first+n; i++ {
		if a.IsNull(i) {
			if !o.fillNulls {
				return &Error{errs.Kind(ErrNullTensor, "npy", "tensor %d is null and .npy has no nulls", i)}
			}
			nulls = true
		}
	}
	h := Header{Major: o.major, Minor: o.minor, Type: typ.ElemType(), BigEndian: o.bigEndian && width > 1, Shape: shape}
	sequential := true
	switch {
	case stride.IsRowMajor(shape, strides):
	case stride.IsRowMajor(reverse(shape), reverse(strides)):
		h.FortranOrder = true
	default:
		sequential = false
	}
	hdr, err := AppendHeader(nil, h)
	if err != nil {
		return err
	}
	if isBool(typ.ElemType()) {
		if _, err := w.Write(hdr); err != nil {
			return err
		}
		return writeBools(w, a, first, n, shape, strides, sequential, nulls, o.fill != 0)
	}
	raw := a.ValueBytes()[first*size*width : (first+n)*size*width]
	if _, err := w.Write(hdr); err != nil {
		return err
	}
	if len(raw) == 0 {
		return nil
	}
	if sequential && !nulls && !h.BigEndian {
		_, err := w.Write(raw)
		return err
	}
	// A multiple of 8 bytes, so of every width, as addElem needs; small
	// arrays get a buffer of their size.
	c := chunkWriter{w: w, width: width, swap: h.BigEndian, buf: make([]byte, 0, min(chunkSize, (len(raw)+7)&^7))}
	fill := fillBytes(typ.ElemType(), o.fill)
	if sequential {
		for i := range n {
			if nulls && a.IsNull(first+i) {
				for range size {
					c.add(fill)
				}
			} else {
				c.add(raw[i*size*width : (i+1)*size*width])
			}
		}
	} else if !nulls {
		return gather(&c, raw, shape, strides, width)
	} else {
		for off := range stride.Offsets(shape, strides) {
			if a.IsNull(first + off/size) {
				c.add(fill)
			} else {
				c.addElem(raw[off*width : (off+1)*width])
			}
			if c.err != nil {
				return c.err
			}
		}
	}
	return c.flush()
}

// chunkWriter buffers whole elements and byte-swaps them when flushing.
type chunkWriter struct {
	w     io.Writer
	width int
	swap  bool
	buf   []byte
	err   error
}

// add appends b (whole elements), flushing full chunks.
func (c *chunkWriter) add(b []byte) {
	for len(b) > 0 && c.err == nil {
		k := min(len(b), cap(c.buf)-len(c.buf))
		c.buf = append(c.buf, b[:k]...)
		b = b[k:]
		if len(c.buf) == cap(c.buf) {
			c.err = c.flush()
		}
	}
}

// addElem appends one element, flushing a full chunk. The buffer's
// capacity is a multiple of the element width.
func (c *chunkWriter) addElem(e []byte) {
	c.buf = append(c.buf, e...)
	if len(c.buf) == cap(c.buf) {
		c.err = c.flush()
	}
}

// flush writes the buffer, byte-swapping its elements first when swap.
func (c *chunkWriter) flush() error {
	if c.err != nil {
		return c.err
	}
	if c.swap {
		swapBytes(c.buf, c.width)
	}
	if len(c.buf) > 0 {
		if _, err := c.w.Write(c.buf); err != nil {
			c.err = err
			return err
		}
	}
	c.buf = c.buf[:0]
	return nil
}

// fillBytes returns the little-endian bytes of f converted to dt, which
// CheckFill accepted.
func fillBytes(dt arrow.DataType, f float64) []byte {
	var b []byte
	switch dt.ID() {
	case arrow.INT8:
		b = append(b, byte(int8(f)))
	case arrow.UINT8:
		b = append(b, uint8(f))
	case arrow.INT16:
		b = binary.LittleEndian.AppendUint16(b, uint16(int16(f)))
	case arrow.UINT16:
		b = binary.LittleEndian.AppendUint16(b, uint16(f))
	case arrow.FLOAT16:
		b = binary.LittleEndian.AppendUint16(b, half.FromFloat64(f))
	case arrow.INT32:
		b = binary.LittleEndian.AppendUint32(b, uint32(int32(f)))
	case arrow.UINT32:
		b = binary.LittleEndian.AppendUint32(b, uint32(f))
	case arrow.FLOAT32:
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(f)))
	case arrow.INT64:
		b = binary.LittleEndian.AppendUint64(b, uint64(int64(f)))
	case arrow.UINT64:
		b = binary.LittleEndian.AppendUint64(b, uint64(f))
	case arrow.FLOAT64:
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(f))
	}
	return b
}

// reverse returns a reversed copy of s.
func reverse(s []int) []int {
	r := make([]int, len(s))
	for i, v := range s {
		r[len(s)-1-i] = v
	}
	return r
}

// writeBools writes the elements of tensors [first, first+n) of the bool
// column a one byte each (0 or 1), as NumPy stores bools: in physical
// order when sequential, else at the offsets of shape under element
// strides; the elements of null tensors are fill when nulls.
func writeBools(w io.Writer, a *fixedshape.Array, first, n int, shape, strides []int, sequential, nulls, fill bool) error {
	size := a.TensorType().ListSize()
	total := n * size // no overflow: the column holds that many bits
	if total == 0 {
		return nil
	}
	bits, bit0 := a.ValueBits()
	bit0 += first * size
	c := chunkWriter{w: w, width: 1, buf: make([]byte, 0, min(chunkSize, total))}
	elem := func(off int) byte {
		if nulls && a.IsNull(first+off/size) {
			if fill {
				return 1
			}
			return 0
		}
		return bits[(bit0+off)/8] >> ((bit0 + off) % 8) & 1
	}
	if sequential {
		for off := range total {
			c.buf = append(c.buf, elem(off))
			if len(c.buf) == cap(c.buf) {
				if err := c.flush(); err != nil {
					return err
				}
			}
		}
		return c.flush()
	}
	for off := range stride.Offsets(shape, strides) {
		c.buf = append(c.buf, elem(off))
		if len(c.buf) == cap(c.buf) {
			if err := c.flush(); err != nil {
				return err
			}
		}
	}
	return c.flush()
}
