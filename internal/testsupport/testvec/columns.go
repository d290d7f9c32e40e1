package testvec

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/fixedshape"
)

// CheckedMem returns a checked allocator that the test asserts is empty
// when it ends.
func CheckedMem(t testing.TB) *memory.CheckedAllocator {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	return mem
}

// SeqColumn returns a column of n tensors of typ whose physical elements
// are 0, 1, 2, ... (element k of the storage holds k, tensor-major,
// wrapping for narrow types); valid, when not nil, marks the valid rows.
// The caller releases it.
func SeqColumn(t testing.TB, mem memory.Allocator, typ *fixedshape.Type, n int, valid []bool) *fixedshape.Array {
	t.Helper()
	w := typ.ElemWidth()
	total := n * typ.ListSize()
	buf := memory.NewResizableBuffer(mem)
	defer buf.Release()
	buf.Resize(total * w)
	PutSeq(buf.Bytes(), typ.ElemType(), total)
	var bitmap *memory.Buffer
	nulls := 0
	if valid != nil {
		bitmap = memory.NewResizableBuffer(mem)
		defer bitmap.Release()
		bitmap.Resize((n + 7) / 8)
		clear(bitmap.Bytes())
		for i, v := range valid {
			if v {
				bitmap.Bytes()[i/8] |= 1 << (i % 8)
			} else {
				nulls++
			}
		}
	}
	child := array.NewData(typ.ElemType(), total, []*memory.Buffer{nil, buf}, nil, 0, 0)
	defer child.Release()
	st := array.NewData(typ.StorageType(), n, []*memory.Buffer{bitmap}, []arrow.ArrayData{child}, nulls, 0)
	defer st.Release()
	storage := array.MakeFromData(st)
	defer storage.Release()
	arr, err := fixedshape.NewArray(typ, storage)
	if err != nil {
		t.Fatal(err)
	}
	return arr
}

// PutSeq writes 0..n-1 as elements of dt (little-endian) into b.
func PutSeq(b []byte, dt arrow.DataType, n int) {
	w := dt.(arrow.FixedWidthDataType).Bytes()
	for k := range n {
		PutElem(b[k*w:], dt, float64(k))
	}
}

// PutElem writes v as one little-endian element of the primitive type dt
// into b; integers wrap.
func PutElem(b []byte, dt arrow.DataType, v float64) {
	switch dt.ID() {
	case arrow.INT8, arrow.UINT8:
		b[0] = byte(int64(v))
	case arrow.INT16, arrow.UINT16:
		binary.LittleEndian.PutUint16(b, uint16(int64(v)))
	case arrow.INT32, arrow.UINT32:
		binary.LittleEndian.PutUint32(b, uint32(int64(v)))
	case arrow.INT64, arrow.UINT64:
		binary.LittleEndian.PutUint64(b, uint64(int64(v)))
	case arrow.FLOAT16:
		binary.LittleEndian.PutUint16(b, float16.New(float32(v)).Uint16())
	case arrow.FLOAT32:
		binary.LittleEndian.PutUint32(b, math.Float32bits(float32(v)))
	case arrow.FLOAT64:
		binary.LittleEndian.PutUint64(b, math.Float64bits(v))
	default:
		panic("testvec.PutElem: " + dt.String())
	}
}

// Elem reads one little-endian element of the primitive type dt from b.
func Elem(b []byte, dt arrow.DataType) float64 {
	switch dt.ID() {
	case arrow.INT8:
		return float64(int8(b[0]))
	case arrow.UINT8:
		return float64(b[0])
	case arrow.INT16:
		return float64(int16(binary.LittleEndian.Uint16(b)))
	case arrow.UINT16:
		return float64(binary.LittleEndian.Uint16(b))
	case arrow.INT32:
		return float64(int32(binary.LittleEndian.Uint32(b)))
	case arrow.UINT32:
		return float64(binary.LittleEndian.Uint32(b))
	case arrow.INT64:
		return float64(int64(binary.LittleEndian.Uint64(b)))
	case arrow.UINT64:
		return float64(binary.LittleEndian.Uint64(b))
	case arrow.FLOAT16:
		return float64(float16.FromBits(binary.LittleEndian.Uint16(b)).Float32())
	case arrow.FLOAT32:
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
	case arrow.FLOAT64:
		return math.Float64frombits(binary.LittleEndian.Uint64(b))
	}
	panic("testvec.Elem: " + dt.String())
}
