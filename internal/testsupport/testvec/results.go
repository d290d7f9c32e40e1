package testvec

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/varshape"
)

// ResultBytes returns the bytes of row i's result in a column of any of
// the three kinds an expression gives: a plain fixed-width column (one
// value per row), a fixed-shape or a variable-shape tensor column. The
// bytes alias the column's buffers.
func ResultBytes(a arrow.Array, i int) []byte {
	switch c := a.(type) {
	case *fixedshape.Array:
		size := len(c.ValueBytes()) / c.Len()
		return c.ValueBytes()[i*size : (i+1)*size]
	case *varshape.Array:
		return c.RowBytes(i)
	}
	w := a.DataType().(arrow.FixedWidthDataType).BitWidth() / 8
	d := a.Data()
	return d.Buffers()[1].Bytes()[(d.Offset()+i)*w : (d.Offset()+i+1)*w]
}

// SameResult compares result bytes of element type dt: float32 within a
// relative 1e-6 and float64 within 1e-12 (a column path and a one-row path
// may sum in another order), NaN equal to NaN; other types exactly.
func SameResult(dt arrow.DataType, want, got []byte) bool {
	if len(want) != len(got) {
		return false
	}
	var w, g []float64
	tol := 1e-12
	switch dt.ID() {
	case arrow.FLOAT32:
		w, g, tol = Floats(dt, want), Floats(dt, got), 1e-6
	case arrow.FLOAT64:
		w, g = Floats(dt, want), Floats(dt, got)
	default:
		return string(want) == string(got)
	}
	for k := range w {
		a, b := w[k], g[k]
		if math.IsNaN(a) || math.IsNaN(b) {
			if !math.IsNaN(a) || !math.IsNaN(b) {
				return false
			}
			continue
		}
		if a != b && math.Abs(a-b) > tol*math.Max(math.Abs(a), math.Abs(b)) {
			return false
		}
	}
	return true
}

// Floats returns little-endian float32 or float64 bytes (dt) as float64
// values, or nil for other types.
func Floats(dt arrow.DataType, b []byte) []float64 {
	switch dt.ID() {
	case arrow.FLOAT32:
		out := make([]float64, len(b)/4)
		for k := range out {
			out[k] = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*k:])))
		}
		return out
	case arrow.FLOAT64:
		out := make([]float64, len(b)/8)
		for k := range out {
			out[k] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*k:]))
		}
		return out
	}
	return nil
}

// Flatten appends the numbers of x, a JSON array decoded into any and
// nested to any depth, to dst in order and returns it.
func Flatten(dst []float64, x any) []float64 {
	switch x := x.(type) {
	case []any:
		for _, e := range x {
			dst = Flatten(dst, e)
		}
	case float64:
		dst = append(dst, x)
	}
	return dst
}

// WantErr fails the test unless err wraps want, or is nil when want is
// nil; it reports whether err is nil, that is whether the test goes on to
// check the result.
func WantErr(t testing.TB, err, want error) bool {
	t.Helper()
	if want != nil {
		if !errors.Is(err, want) {
			t.Fatalf("err = %v, want an error wrapping %v", err, want)
		}
		return false
	}
	if err != nil {
		t.Fatal(err)
	}
	return true
}

// InvalidIf returns arrow.ErrInvalid when invalid holds, else nil: the
// want of [WantErr] for a table whose rows say whether the input is
// invalid.
func InvalidIf(invalid bool) error {
	if invalid {
		return arrow.ErrInvalid
	}
	return nil
}
