package mshadow

import (
	"encoding/binary"
	"math"
	"strconv"

	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/stride"
)

// Layout selects one of the two binary forms of a TShape.
type Layout int

const (
	// Index32 is mshadow's TShape::Save: the dimension count and then each
	// dimension as a little-endian uint32 (mshadow's index_t). A 0-D shape is
	// the four bytes 00000000.
	Index32 Layout = iota
	// Int64 is MXNet's later TShape (Tuple<dim_t>) form: the dimension count
	// as a little-endian int32, -1 meaning an unknown rank, and then each
	// dimension as a little-endian int64, -1 meaning an unknown size.
	Int64
)

// String returns "index32" or "int64".
func (l Layout) String() string {
	switch l {
	case Index32:
		return "index32"
	case Int64:
		return "int64"
	}
	return "Layout(" + strconv.Itoa(int(l)) + ")"
}

// MaxDims is the largest dimension count ReadShape accepts: the limit of
// package metadata, checked before anything is allocated.
const MaxDims = metadata.MaxDims

func (l Layout) dimWidth() (int, bool) {
	switch l {
	case Index32:
		return 4, true
	case Int64:
		return 8, true
	}
	return 0, false
}

// ShapeSize returns the number of bytes AppendShape writes for an n-D shape.
func (l Layout) ShapeSize(n int) int {
	w, _ := l.dimWidth()
	return 4 + n*w
}

// AppendShape appends the binary form of shape in layout l to dst and returns
// the extended slice, as TShape::Save writes it. It fails, with an error
// wrapping arrow.ErrInvalid, on an unknown layout, more than MaxDims
// dimensions, a negative dimension, or, for Index32, a dimension above
// math.MaxUint32.
func AppendShape(dst []byte, shape []int, l Layout) ([]byte, error) {
	if _, ok := l.dimWidth(); !ok {
		return dst, errorf("unknown layout %d", int(l))
	}
	if len(shape) > MaxDims {
		return dst, errorf("shape has %d dimensions, more than %d", len(shape), MaxDims)
	}
	for i, d := range shape {
		if d < 0 {
			return dst, errorf("shape %s: dimension %d is negative", metadata.FormatShape(shape), i)
		}
		if l == Index32 && uint64(d) > math.MaxUint32 {
			return dst, errorf("shape %s: dimension %d does not fit the 32-bit index_t", metadata.FormatShape(shape), i)
		}
	}
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(shape)))
	for _, d := range shape {
		if l == Index32 {
			dst = binary.LittleEndian.AppendUint32(dst, uint32(d))
		} else {
			dst = binary.LittleEndian.AppendUint64(dst, uint64(d))
		}
	}
	return dst, nil
}

// ReadShape reads one TShape in layout l from the start of b, as TShape::Load
// does, and returns it with the number of bytes read. The dimension count is
// checked against MaxDims and the remaining bytes before any allocation.
// Errors wrap arrow.ErrInvalid: a short input, too many dimensions, an
// unknown rank or dimension (-1 in the Int64 layout) or any other negative
// value, and a shape whose element count overflows an int (stride.CheckShape).
// The result for a 0-D shape is an empty, non-nil slice.
func ReadShape(b []byte, l Layout) (shape []int, n int, err error) {
	w, ok := l.dimWidth()
	if !ok {
		return nil, 0, errorf("unknown layout %d", int(l))
	}
	if len(b) < 4 {
		return nil, 0, errorf("%s shape: %d bytes, need 4 for the dimension count", l, len(b))
	}
	raw := binary.LittleEndian.Uint32(b)
	var ndim int
	if l == Int64 && int32(raw) < 0 {
		if int32(raw) == -1 {
			return nil, 0, errorf("int64 shape: unknown rank (ndim -1) cannot describe a tensor")
		}
		return nil, 0, errorf("int64 shape: ndim %d is negative", int32(raw))
	}
	if uint64(raw) > MaxDims {
		return nil, 0, errorf("%s shape: ndim %d is more than %d", l, raw, MaxDims)
	}
	ndim = int(raw)
	need := 4 + ndim*w
	if len(b) < need {
		return nil, 0, errorf("%s shape: ndim %d needs %d bytes, have %d", l, ndim, need, len(b))
	}
	shape = make([]int, ndim)
	for i := range shape {
		p := b[4+i*w:]
		if l == Index32 {
			v := uint64(binary.LittleEndian.Uint32(p))
			if v > math.MaxInt {
				return nil, 0, errorf("index32 shape: dimension %d is %d, more than an int holds", i, v)
			}
			shape[i] = int(v)
			continue
		}
		v := int64(binary.LittleEndian.Uint64(p))
		if v == -1 {
			return nil, 0, errorf("int64 shape: dimension %d is unknown (-1)", i)
		}
		if v < 0 || v > math.MaxInt {
			return nil, 0, errorf("int64 shape: dimension %d is %d", i, v)
		}
		shape[i] = int(v)
	}
	if err := stride.CheckShape(shape); err != nil {
		return nil, 0, wrap(err, "%s shape %s", l, metadata.FormatShape(shape))
	}
	return shape, need, nil
}
