package npy_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/stride"
)

// elemTypes are every fstensor element type.
var elemTypes = []arrow.DataType{
	arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64,
	arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Uint16, arrow.PrimitiveTypes.Uint32, arrow.PrimitiveTypes.Uint64,
	arrow.FixedWidthTypes.Float16, arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Float64,
	arrow.FixedWidthTypes.Boolean,
}

// pattern returns k-th test value for dt: small, exact in every type,
// negative for signed types.
func pattern(dt arrow.DataType, k int) float64 {
	switch dt.ID() {
	case arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64:
		return float64(k % 200)
	case arrow.BOOL:
		return float64(k % 3 % 2) // 1 at k = 1, 4, 7, ...
	}
	return float64(k%100 - 50)
}

// patternValues returns n pattern values.
func patternValues(dt arrow.DataType, n int) []float64 {
	v := make([]float64, n)
	for k := range v {
		v[k] = pattern(dt, k)
	}
	return v
}

// fromLogical builds a column of tensors of metadata m and element type
// dt whose logical values, tensor after tensor, are vals. valid may be nil.
func fromLogical(t testing.TB, dt arrow.DataType, m metadata.Metadata, vals []float64, valid []bool) *fixedshape.Array {
	t.Helper()
	switch dt.ID() {
	case arrow.INT8:
		return build(t, dt, m, vals, valid, func(x float64) int8 { return int8(x) })
	case arrow.INT16:
		return build(t, dt, m, vals, valid, func(x float64) int16 { return int16(x) })
	case arrow.INT32:
		return build(t, dt, m, vals, valid, func(x float64) int32 { return int32(x) })
	case arrow.INT64:
		return build(t, dt, m, vals, valid, func(x float64) int64 { return int64(x) })
	case arrow.UINT8:
		return build(t, dt, m, vals, valid, func(x float64) uint8 { return uint8(x) })
	case arrow.UINT16:
		return build(t, dt, m, vals, valid, func(x float64) uint16 { return uint16(x) })
	case arrow.UINT32:
		return build(t, dt, m, vals, valid, func(x float64) uint32 { return uint32(x) })
	case arrow.UINT64:
		return build(t, dt, m, vals, valid, func(x float64) uint64 { return uint64(x) })
	case arrow.FLOAT16:
		return build(t, dt, m, vals, valid, func(x float64) float16.Num { return float16.New(float32(x)) })
	case arrow.FLOAT32:
		return build(t, dt, m, vals, valid, func(x float64) float32 { return float32(x) })
	case arrow.FLOAT64:
		return build(t, dt, m, vals, valid, func(x float64) float64 { return x })
	case arrow.BOOL:
		typ, err := fixedshape.NewType(dt, m)
		if err != nil {
			t.Fatal(err)
		}
		size := m.Size()
		phys := make([]bool, len(vals))
		for i := 0; i < len(vals)/size; i++ {
			k := 0
			for off := range stride.Offsets(m.Shape(), m.ElemStrides()) {
				phys[i*size+off] = vals[i*size+k] != 0
				k++
			}
		}
		a, err := fixedshape.FromBools(memory.DefaultAllocator, typ, phys, valid)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	t.Fatalf("no element type %v", dt)
	return nil
}

func build[T fixedshape.Elem](t testing.TB, dt arrow.DataType, m metadata.Metadata, vals []float64, valid []bool, conv func(float64) T) *fixedshape.Array {
	t.Helper()
	typ, err := fixedshape.NewType(dt, m)
	if err != nil {
		t.Fatal(err)
	}
	size := m.Size()
	if len(vals)%size != 0 {
		t.Fatalf("%d values for tensors of %d", len(vals), size)
	}
	strides := m.ElemStrides()
	phys := make([]T, len(vals))
	for i := 0; i < len(vals)/size; i++ {
		k := 0
		for off := range stride.Offsets(m.Shape(), strides) {
			phys[i*size+off] = conv(vals[i*size+k])
			k++
		}
	}
	a, err := fixedshape.FromSlice(typ, phys, valid)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// logical returns the logical values of every tensor of a, as float64.
func logical(t testing.TB, a *fixedshape.Array) []float64 {
	t.Helper()
	switch a.TensorType().ElemType().ID() {
	case arrow.INT8:
		return values[int8](t, a, func(x int8) float64 { return float64(x) })
	case arrow.INT16:
		return values[int16](t, a, func(x int16) float64 { return float64(x) })
	case arrow.INT32:
		return values[int32](t, a, func(x int32) float64 { return float64(x) })
	case arrow.INT64:
		return values[int64](t, a, func(x int64) float64 { return float64(x) })
	case arrow.UINT8:
		return values[uint8](t, a, func(x uint8) float64 { return float64(x) })
	case arrow.UINT16:
		return values[uint16](t, a, func(x uint16) float64 { return float64(x) })
	case arrow.UINT32:
		return values[uint32](t, a, func(x uint32) float64 { return float64(x) })
	case arrow.UINT64:
		return values[uint64](t, a, func(x uint64) float64 { return float64(x) })
	case arrow.FLOAT16:
		return values[float16.Num](t, a, func(x float16.Num) float64 { return float64(x.Float32()) })
	case arrow.FLOAT32:
		return values[float32](t, a, func(x float32) float64 { return float64(x) })
	case arrow.FLOAT64:
		return values[float64](t, a, func(x float64) float64 { return x })
	case arrow.BOOL:
		typ := a.TensorType()
		bits, first := a.ValueBits()
		out := []float64{}
		for i := range a.Len() {
			for off := range stride.Offsets(typ.Shape(), typ.ElemStrides()) {
				k := first + i*typ.ListSize() + off
				out = append(out, float64(bits[k/8]>>(k%8)&1))
			}
		}
		return out
	}
	t.Fatalf("no element type %v", a.TensorType().ElemType())
	return nil
}

func values[T fixedshape.Elem](t testing.TB, a *fixedshape.Array, conv func(T) float64) []float64 {
	t.Helper()
	c, err := fixedshape.ColumnOf[T](a)
	if err != nil {
		t.Fatal(err)
	}
	out := []float64{}
	for i := range c.Len() {
		for x := range c.Tensor(i).All() {
			out = append(out, conv(x))
		}
	}
	return out
}

// reversedPerm returns (n-1, ..., 0).
func reversedPerm(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = n - 1 - i
	}
	return p
}
