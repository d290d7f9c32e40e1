package stride

import (
	"errors"
	"fmt"
	"iter"
	"math/bits"
)

// ErrInvalid is wrapped by every error of this package: a negative
// dimension, an element count that overflows int, a permutation that is not
// one, or an index outside its shape.
var ErrInvalid = errors.New("stride: invalid")

// Error describes invalid input: What names the input ("shape",
// "permutation", "index"), Value is that input and Reason says what is
// wrong with it. It matches [ErrInvalid] under errors.Is.
type Error struct {
	What   string
	Value  []int
	Reason string
}

func (e *Error) Error() string { return fmt.Sprintf("stride: %s %v %s", e.What, e.Value, e.Reason) }

// Is reports whether target is [ErrInvalid].
func (e *Error) Is(target error) bool { return target == ErrInvalid }

func invalid(what string, value []int, format string, args ...any) error {
	return &Error{What: what, Value: append([]int{}, value...), Reason: fmt.Sprintf(format, args...)}
}

// MulCheck returns a*b and whether the product fits in a non-negative int.
// Both factors must be non-negative.
func MulCheck(a, b int) (int, bool) {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi != 0 || lo > uint64(maxInt) {
		return 0, false
	}
	return int(lo), true
}

const maxInt = int(^uint(0) >> 1)

// CheckShape reports whether shape is usable: every dimension is
// non-negative and the product of the non-zero dimensions fits in an int.
// The second condition guarantees that every stride derived from the shape
// fits too, even when a zero dimension makes the element count 0.
func CheckShape(shape []int) error {
	n := 1
	for i, d := range shape {
		if d < 0 {
			return invalid("shape", shape, "has a negative dimension %d at axis %d", d, i)
		}
		if d == 0 {
			continue
		}
		var ok bool
		if n, ok = MulCheck(n, d); !ok {
			return invalid("shape", shape, "has an element count that overflows int")
		}
	}
	return nil
}

// NumElements returns the number of elements of shape (1 for a 0-D shape),
// or an error if [CheckShape] refuses the shape.
func NumElements(shape []int) (int, error) {
	if err := CheckShape(shape); err != nil {
		return 0, err
	}
	return product(shape), nil
}

// product multiplies a shape already accepted by CheckShape.
func product(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

// RowMajor appends to dst[:0] the row-major (C order) element strides of
// shape: stride[n-1] = 1 and stride[i] = shape[i+1] * stride[i+1]. The shape
// must satisfy [CheckShape]. The products are exact, so the axes outside a
// size-0 dimension get stride 0 (`[3,0,4]` gives `[0,4,1]`); NumPy writes
// other values there, and no element is ever addressed through them.
func RowMajor(dst, shape []int) []int {
	dst = resize(dst, len(shape))
	s := 1
	for i := len(shape) - 1; i >= 0; i-- {
		dst[i] = s
		s *= shape[i]
	}
	return dst
}

// Logical appends to dst[:0] the element strides of the logical axes of a
// dense tensor with the given logical shape and permutation (nil means the
// identity): stride[i] is the row-major stride of physical axis perm[i].
// The inputs must be valid ([CheckShape], [CheckPermutation]).
func Logical(dst, logicalShape, perm []int) []int {
	if perm == nil {
		return RowMajor(dst, logicalShape)
	}
	n := len(logicalShape)
	dst = resize(dst, n)
	// Walk physical axes from the innermost outward; inv[k] is the logical
	// axis stored as physical axis k.
	var buf [8]int
	inv := Invert(buf[:0], perm)
	s := 1
	for k := n - 1; k >= 0; k-- {
		i := inv[k]
		dst[i] = s
		s *= logicalShape[i]
	}
	return dst
}

// Bytes appends to dst[:0] the element strides multiplied by width, the
// size of one element in bytes. The caller guarantees the products fit, as
// they do for strides of a shape whose byte size fits in an int.
func Bytes(dst, elemStrides []int, width int) []int {
	dst = resize(dst, len(elemStrides))
	for i, s := range elemStrides {
		dst[i] = s * width
	}
	return dst
}

// Offset returns the flat element offset of a logical index: the sum of
// idx[i]*strides[i]. It checks nothing; see [CheckIndex].
func Offset(idx, strides []int) int {
	off := 0
	for i, x := range idx {
		off += x * strides[i]
	}
	return off
}

// CheckIndex reports an error unless idx has one entry per dimension of
// shape and 0 <= idx[i] < shape[i] for every i.
func CheckIndex(idx, shape []int) error {
	if len(idx) != len(shape) {
		return invalid("index", idx, "has %d entries for %d dimensions", len(idx), len(shape))
	}
	for i, x := range idx {
		if x < 0 || x >= shape[i] {
			return invalid("index", idx, "is out of bounds: index %d is out of bounds for axis %d with size %d", x, i, shape[i])
		}
	}
	return nil
}

// IsRowMajor reports whether strides are the row-major strides of shape,
// ignoring the strides of axes of size 1 (which never move) and accepting
// any strides when the shape has no elements, as NumPy's C_CONTIGUOUS flag
// does.
func IsRowMajor(shape, strides []int) bool {
	if len(shape) != len(strides) {
		return false
	}
	want := 1
	for i := len(shape) - 1; i >= 0; i-- {
		switch d := shape[i]; {
		case d == 0:
			return true
		case d != 1 && strides[i] != want:
			return false
		default:
			want *= d
		}
	}
	return true
}

// resize returns dst[:n], or a new slice of n when dst has less capacity.
func resize[T any](dst []T, n int) []T {
	if cap(dst) < n {
		return make([]T, n)
	}
	return dst[:n]
}

// Offsets yields the flat element offset of every index of shape in
// row-major (logical) order, given the element strides of its axes. A 0-D
// shape yields the single offset 0; a shape with a 0 yields nothing. The
// shape must be valid and len(strides) == len(shape).
func Offsets(shape, strides []int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for a := range Pairs(shape, strides, strides) {
			if !yield(a) {
				return
			}
		}
	}
}

// Pairs is [Offsets] over two layouts of the same shape at once: for each
// index in row-major order it yields the offset under stridesA and under
// stridesB, as a copy from one layout to the other needs.
func Pairs(shape, stridesA, stridesB []int) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		n := len(shape)
		for _, d := range shape {
			if d == 0 {
				return
			}
		}
		if n == 0 {
			yield(0, 0)
			return
		}
		var buf [8]int
		idx := resize(buf[:0], n)
		clear(idx)
		inner, sa, sb := shape[n-1], stridesA[n-1], stridesB[n-1]
		offA, offB := 0, 0
		for {
			for k, a, b := 0, offA, offB; k < inner; k, a, b = k+1, a+sa, b+sb {
				if !yield(a, b) {
					return
				}
			}
			// Advance the odometer over the outer axes.
			ax := n - 2
			for ; ax >= 0; ax-- {
				idx[ax]++
				offA += stridesA[ax]
				offB += stridesB[ax]
				if idx[ax] < shape[ax] {
					break
				}
				offA -= idx[ax] * stridesA[ax]
				offB -= idx[ax] * stridesB[ax]
				idx[ax] = 0
			}
			if ax < 0 {
				return
			}
		}
	}
}
