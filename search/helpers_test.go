package search_test

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/float16"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

// elemTypes are the element types the tests cover.
var elemTypes = []arrow.DataType{
	arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64,
	arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Uint16, arrow.PrimitiveTypes.Uint32, arrow.PrimitiveTypes.Uint64,
	arrow.FixedWidthTypes.Float16, arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Float64,
}

// randColumn returns a column of n tensors of elem type dt, logical shape
// shape and permutation perm, with random physical elements (small
// integers, or normal floats unless ints is set), null where valid is
// false, and the logical values of each tensor as float64 (nil for a
// null tensor). The column shares Go memory (FromSlice).
func randColumn(t testing.TB, r *rand.Rand, dt arrow.DataType, shape, perm []int, n int, valid []bool, ints bool) (*fixedshape.Array, [][]float64) {
	t.Helper()
	typ, err := fixedshape.NewType(dt, metadata.MustNew(shape, nil, perm))
	if err != nil {
		t.Fatal(err)
	}
	m := n * typ.ListSize()
	val := func(signed bool) float64 {
		if !ints {
			return r.NormFloat64()
		}
		if signed {
			return float64(r.IntN(17) - 8)
		}
		return float64(r.IntN(17))
	}
	var a *fixedshape.Array
	switch dt.ID() {
	case arrow.INT8:
		a = fill[int8](t, r, typ, m, valid, func() int8 { return int8(r.IntN(21) - 10) })
	case arrow.INT16:
		a = fill[int16](t, r, typ, m, valid, func() int16 { return int16(r.IntN(201) - 100) })
	case arrow.INT32:
		a = fill[int32](t, r, typ, m, valid, func() int32 { return int32(r.IntN(2001) - 1000) })
	case arrow.INT64:
		a = fill[int64](t, r, typ, m, valid, func() int64 { return int64(r.IntN(2001) - 1000) })
	case arrow.UINT8:
		a = fill[uint8](t, r, typ, m, valid, func() uint8 { return uint8(r.IntN(256)) })
	case arrow.UINT16:
		a = fill[uint16](t, r, typ, m, valid, func() uint16 { return uint16(r.IntN(1000)) })
	case arrow.UINT32:
		a = fill[uint32](t, r, typ, m, valid, func() uint32 { return uint32(r.IntN(1000)) })
	case arrow.UINT64:
		a = fill[uint64](t, r, typ, m, valid, func() uint64 { return uint64(r.IntN(1000)) })
	case arrow.FLOAT16:
		a = fill[float16.Num](t, r, typ, m, valid, func() float16.Num { return float16.New(float32(val(true))) })
	case arrow.FLOAT32:
		a = fill[float32](t, r, typ, m, valid, func() float32 { return float32(val(true)) })
	case arrow.FLOAT64:
		a = fill[float64](t, r, typ, m, valid, func() float64 { return val(true) })
	default:
		t.Fatalf("no random data of %v", dt)
	}
	return a, logical(t, a)
}

func fill[T fixedshape.Elem](t testing.TB, r *rand.Rand, typ *fixedshape.Type, m int, valid []bool, f func() T) *fixedshape.Array {
	t.Helper()
	data := make([]T, m)
	for i := range data {
		data[i] = f()
	}
	a, err := fixedshape.FromSlice(typ, data, valid)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// logical returns the logical elements of each tensor of a as float64,
// nil for a null tensor.
func logical(t testing.TB, a *fixedshape.Array) [][]float64 {
	t.Helper()
	switch a.TensorType().ElemType().ID() {
	case arrow.INT8:
		return logicalOf(t, a, func(v int8) float64 { return float64(v) })
	case arrow.INT16:
		return logicalOf(t, a, func(v int16) float64 { return float64(v) })
	case arrow.INT32:
		return logicalOf(t, a, func(v int32) float64 { return float64(v) })
	case arrow.INT64:
		return logicalOf(t, a, func(v int64) float64 { return float64(v) })
	case arrow.UINT8:
		return logicalOf(t, a, func(v uint8) float64 { return float64(v) })
	case arrow.UINT16:
		return logicalOf(t, a, func(v uint16) float64 { return float64(v) })
	case arrow.UINT32:
		return logicalOf(t, a, func(v uint32) float64 { return float64(v) })
	case arrow.UINT64:
		return logicalOf(t, a, func(v uint64) float64 { return float64(v) })
	case arrow.FLOAT16:
		return logicalOf(t, a, func(v float16.Num) float64 { return float64(v.Float32()) })
	case arrow.FLOAT32:
		return logicalOf(t, a, func(v float32) float64 { return float64(v) })
	case arrow.FLOAT64:
		return logicalOf(t, a, func(v float64) float64 { return v })
	}
	t.Fatalf("no logical values of %v", a.TensorType().ElemType())
	return nil
}

func logicalOf[T fixedshape.Elem](t testing.TB, a *fixedshape.Array, f func(T) float64) [][]float64 {
	t.Helper()
	col, err := fixedshape.ColumnOf[T](a)
	if err != nil {
		t.Fatal(err)
	}
	out := make([][]float64, col.Len())
	for i := range out {
		if col.IsNull(i) {
			continue
		}
		for v := range col.Tensor(i).All() {
			out[i] = append(out[i], f(v))
		}
	}
	return out
}

// float64Bytes encodes rows (nil rows as NaN) as little-endian float64.
func float64Bytes(rows [][]float64, d int) []byte {
	var b []byte
	for _, row := range rows {
		for j := range d {
			v := math.NaN()
			if row != nil {
				v = row[j]
			}
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
	}
	return b
}

// decodeFloat64 decodes little-endian float64 values.
func decodeFloat64(b []byte) []float64 {
	out := make([]float64, len(b)/8)
	for i := range out {
		out[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return out
}
