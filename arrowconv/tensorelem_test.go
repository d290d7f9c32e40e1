package arrowconv_test

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/arrowconv"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

// TestTensorElemTypes converts columns of every kind of element type
// fixedshape holds: arrow/tensor has integer, float32/64 and date tensors
// only, and panics on the others, which ToTensor and SlotTensor refuse
// with arrow.ErrNotImplemented.
func TestTensorElemTypes(t *testing.T) {
	tests := []struct {
		name    string
		elem    arrow.DataType
		wantErr error
	}{
		{name: "int8", elem: arrow.PrimitiveTypes.Int8},
		{name: "uint64", elem: arrow.PrimitiveTypes.Uint64},
		{name: "float64", elem: arrow.PrimitiveTypes.Float64},
		{name: "date32", elem: arrow.FixedWidthTypes.Date32},
		{name: "date64", elem: arrow.FixedWidthTypes.Date64},
		{name: "float16", elem: arrow.FixedWidthTypes.Float16, wantErr: arrow.ErrNotImplemented},
		{name: "bool", elem: arrow.FixedWidthTypes.Boolean, wantErr: arrow.ErrNotImplemented},
		{name: "timestamp", elem: arrow.FixedWidthTypes.Timestamp_s, wantErr: arrow.ErrNotImplemented},
		{name: "decimal128", elem: &arrow.Decimal128Type{Precision: 10, Scale: 2}, wantErr: arrow.ErrNotImplemented},
		{name: "fixed_size_binary", elem: &arrow.FixedSizeBinaryType{ByteWidth: 3}, wantErr: arrow.ErrNotImplemented},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			typ, err := fixedshape.NewType(tc.elem, metadata.MustNew([]int{2, 3}, nil, []int{1, 0}))
			if err != nil {
				t.Fatal(err)
			}
			const n = 2
			nbytes := int(bitutil.BytesForBits(int64(n * typ.ListSize())))
			if w := typ.ElemWidth(); w > 0 {
				nbytes = n * typ.ListSize() * w
			}
			buf := memory.NewResizableBuffer(mem)
			defer buf.Release()
			buf.Resize(nbytes)
			arr, err := fixedshape.NewArrayFromBuffer(typ, n, buf)
			if err != nil {
				t.Fatal(err)
			}
			defer arr.Release()
			tt, err := arrowconv.ToTensor(arr)
			if !errors.Is(err, tc.wantErr) || (err != nil && !errors.Is(err, arrow.ErrInvalid)) {
				t.Errorf("ToTensor err = %v, want %v", err, tc.wantErr)
			}
			if tt != nil {
				tt.Release()
			}
			st, err := arrowconv.SlotTensor(arr, 1)
			if !errors.Is(err, tc.wantErr) || (err != nil && !errors.Is(err, arrow.ErrInvalid)) {
				t.Errorf("SlotTensor err = %v, want %v", err, tc.wantErr)
			}
			if st != nil {
				st.Release()
			}
		})
	}
}
