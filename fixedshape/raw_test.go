package fixedshape_test

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/stride"
)

// rawElemTypes are the fixed-width element types without a Go type in
// fixedshape.Elem, one of each byte width and kind.
var rawElemTypes = []arrow.DataType{
	&arrow.Decimal128Type{Precision: 20, Scale: 3},
	&arrow.Decimal256Type{Precision: 60, Scale: 0},
	&arrow.Decimal32Type{Precision: 9, Scale: 2},
	&arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"},
	arrow.FixedWidthTypes.Date32,
	arrow.FixedWidthTypes.Date64,
	arrow.FixedWidthTypes.Time64ns,
	arrow.FixedWidthTypes.Duration_ms,
	arrow.FixedWidthTypes.MonthInterval,
	arrow.FixedWidthTypes.DayTimeInterval,
	arrow.FixedWidthTypes.MonthDayNanoInterval,
	&arrow.FixedSizeBinaryType{ByteWidth: 3},
	&arrow.FixedSizeBinaryType{ByteWidth: 12},
}

// rawColumn returns a column of n tensors of typ whose element bytes are
// a counter, with the tensors of valid false null.
func rawColumn(t *testing.T, mem memory.Allocator, typ *fixedshape.Type, valid []bool) *fixedshape.Array {
	t.Helper()
	n := len(valid)
	values := memory.NewResizableBuffer(mem)
	defer values.Release()
	values.Resize(n * typ.ListSize() * typ.ElemWidth())
	for i := range values.Bytes() {
		values.Bytes()[i] = byte(i*7 + 1)
	}
	bits := memory.NewResizableBuffer(mem)
	defer bits.Release()
	bits.Resize(int(bitutil.BytesForBits(int64(n))))
	nulls := 0
	for i, v := range valid {
		bitutil.SetBitTo(bits.Bytes(), i, v)
		if !v {
			nulls++
		}
	}
	child := array.NewData(typ.ElemType(), n*typ.ListSize(), []*memory.Buffer{nil, values}, nil, 0, 0)
	defer child.Release()
	data := array.NewData(typ, n, []*memory.Buffer{bits}, []arrow.ArrayData{child}, nulls, 0)
	defer data.Release()
	return array.MakeFromData(data).(*fixedshape.Array)
}

// rawShapes are the layouts every raw element type is tried with.
var rawShapes = []struct {
	name        string
	shape, perm []int
}{
	{"0-D", []int{}, nil},
	{"non-square", []int{2, 3}, nil},
	{"3-cycle", []int{2, 3, 4}, []int{2, 0, 1}},
	{"transposed", []int{3, 2}, []int{1, 0}},
}

// TestRawElemTypes checks every fixed-width element type: the type is
// accepted, RawAt reads the element at the logical offset, Equal holds
// against itself and fails against a changed copy, and the column
// survives an IPC round trip, null tensors included.
func TestRawElemTypes(t *testing.T) {
	for _, dt := range rawElemTypes {
		for _, sh := range rawShapes {
			t.Run(dt.String()+"/"+sh.name, func(t *testing.T) {
				mem := testvec.CheckedMem(t)
				typ, err := fixedshape.NewType(dt, metadata.MustNew(sh.shape, nil, sh.perm))
				if err != nil {
					t.Fatal(err)
				}
				col := rawColumn(t, mem, typ, []bool{true, false, true})
				defer col.Release()
				if err := col.Validate(); err != nil {
					t.Fatal(err)
				}
				w := typ.ElemWidth()
				m := typ.Metadata()
				vb := col.ValueBytes()
				for i := range col.Len() {
					k := 0
					for off := range stride.Offsets(m.Shape(), m.ElemStrides()) {
						idx := unravel(k, m.Shape())
						want := vb[(i*typ.ListSize()+off)*w:][:w]
						if got := col.RawAt(i, idx...); !bytes.Equal(got, want) {
							t.Fatalf("RawAt(%d, %v) = %x, want %x", i, idx, got, want)
						}
						k++
					}
				}
				if !fixedshape.Equal(col, col) {
					t.Error("column differs from itself")
				}

				schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: typ, Nullable: true}}, nil)
				rec := array.NewRecordBatch(schema, []arrow.Array{col}, int64(col.Len()))
				defer rec.Release()
				back := ipcRoundTrip(t, mem, rec)
				got, ok := back.Column(0).(*fixedshape.Array)
				if !ok {
					t.Fatalf("column is %T", back.Column(0))
				}
				if !arrow.TypeEqual(got.DataType(), typ) || !fixedshape.Equal(got, col) {
					t.Errorf("IPC round trip: %v %v, want %v", got.DataType(), got, col)
				}
				if diff := cmp.Diff([]bool{true, false, true}, []bool{got.IsValid(0), got.IsValid(1), got.IsValid(2)}); diff != "" {
					t.Errorf("validity (-want +got):\n%s", diff)
				}

				// One changed byte of a valid tensor breaks equality,
				// one of a null tensor does not.
				for _, row := range []int{0, 1} {
					other := rawColumn(t, mem, typ, []bool{true, false, true})
					other.ValueBytes()[row*typ.ListSize()*w+w-1] ^= 0xff
					if eq := fixedshape.Equal(col, other); eq != (row == 1) {
						t.Errorf("changed row %d: Equal = %v", row, eq)
					}
					other.Release()
				}
			})
		}
	}
}

// unravel returns the row-major index of the k-th element of shape.
func unravel(k int, shape []int) []int {
	idx := make([]int, len(shape))
	for i := len(shape) - 1; i >= 0; i-- {
		idx[i] = k % shape[i]
		k /= shape[i]
	}
	return idx
}
