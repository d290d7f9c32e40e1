package fixedshape_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
)

// TestUnsupportedIPC checks that a tensor column this package cannot view
// deserializes as an Unsupported type instead of failing, reads back
// through IPC beside a tensor column with its storage and metadata
// unchanged, and is not a tensor type.
func TestUnsupportedIPC(t *testing.T) {
	tests := []struct {
		name    string
		storage func(b *array.FixedSizeListBuilder)
		elem    arrow.DataType
		size    int32
		data    string
	}{
		{"string 0-D", func(b *array.FixedSizeListBuilder) { b.ValueBuilder().(*array.StringBuilder).Append("only") },
			arrow.BinaryTypes.String, 1, `{"shape":[]}`},
		{"large binary 3-cycle", func(b *array.FixedSizeListBuilder) {
			for i := range 24 {
				b.ValueBuilder().(*array.BinaryBuilder).Append([]byte{byte(i)})
			}
		}, arrow.BinaryTypes.LargeBinary, 24, `{"shape":[2,3,4],"permutation":[2,0,1]}`},
		{"binary non-square", func(b *array.FixedSizeListBuilder) {
			for i := range 6 {
				b.ValueBuilder().(*array.BinaryBuilder).Append(bytes.Repeat([]byte{'x'}, i))
			}
		}, arrow.BinaryTypes.Binary, 6, `{"shape":[2,3]}`},
		{"string", func(b *array.FixedSizeListBuilder) {
			b.ValueBuilder().(*array.StringBuilder).AppendValues([]string{"a", "bc"}, nil)
		}, arrow.BinaryTypes.String, 2, `{"shape":[2]}`},
		{"invalid metadata", func(b *array.FixedSizeListBuilder) {
			b.ValueBuilder().(*array.Int32Builder).AppendValues([]int32{1, 2}, nil)
		}, arrow.PrimitiveTypes.Int32, 2, `{"shape":[3]}`},
		{"overflowing shape", func(b *array.FixedSizeListBuilder) {
			b.ValueBuilder().(*array.Int32Builder).AppendValues([]int32{1, 2}, nil)
		}, arrow.PrimitiveTypes.Int32, 2, `{"shape":[4294967296,4294967296]}`},
		{"size-0 dimension", func(b *array.FixedSizeListBuilder) {
			b.ValueBuilder().(*array.Int32Builder).AppendValues([]int32{1}, nil)
		}, arrow.PrimitiveTypes.Int32, 1, `{"shape":[0]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := testvec.CheckedMem(t)
			storageType := arrow.FixedSizeListOf(tt.size, tt.elem)
			ext, err := (&fixedshape.Type{}).Deserialize(storageType, tt.data)
			if err != nil {
				t.Fatalf("Deserialize: %v", err)
			}
			u, ok := fixedshape.UnsupportedOf(ext)
			if !ok {
				t.Fatalf("Deserialize gave %v, want an Unsupported type", ext)
			}
			if _, isTensor := fixedshape.TypeOf(ext); isTensor {
				t.Errorf("TypeOf(%v) reports a tensor type", ext)
			}
			if !errors.Is(u.Reason(), arrow.ErrInvalid) {
				t.Errorf("reason %v does not wrap arrow.ErrInvalid", u.Reason())
			}
			if _, err := fixedshape.ParseType(storageType, tt.data); err == nil {
				t.Errorf("ParseType accepts what Deserialize did not")
			}
			if u.Serialize() != tt.data {
				t.Errorf("Serialize = %q, want %q", u.Serialize(), tt.data)
			}

			// Three rows, the middle one null, beside a tensor column.
			b := array.NewFixedSizeListBuilderWithField(mem, tt.size, arrow.Field{Name: "item", Type: tt.elem, Nullable: true})
			defer b.Release()
			for i := range 3 {
				if i == 1 {
					b.AppendNull()
					continue
				}
				b.Append(true)
				tt.storage(b)
			}
			st := b.NewArray()
			defer st.Release()
			col := array.NewExtensionArrayWithStorage(u, st)
			defer col.Release()
			img := ipcColumn(t, mem)
			defer img.Release()
			img3 := array.NewSlice(img, 0, int64(col.Len()))
			defer img3.Release()
			schema := arrow.NewSchema([]arrow.Field{
				{Name: "img", Type: img.DataType(), Nullable: true},
				{Name: "odd", Type: u, Nullable: true},
			}, nil)
			rec := array.NewRecordBatch(schema, []arrow.Array{img3, col}, int64(col.Len()))
			defer rec.Release()

			got := ipcRoundTrip(t, mem, rec)
			if _, ok := got.Column(0).(*fixedshape.Array); !ok {
				t.Errorf("column img is %T, want a tensor column", got.Column(0))
			}
			ua, ok := got.Column(1).(*fixedshape.UnsupportedArray)
			if !ok {
				t.Fatalf("column odd is %T, want *fixedshape.UnsupportedArray", got.Column(1))
			}
			if !arrow.TypeEqual(ua.DataType(), u) || ua.UnsupportedType().Serialize() != tt.data {
				t.Errorf("type %v, want %v", ua.DataType(), u)
			}
			if !array.Equal(ua.Storage(), st) {
				t.Errorf("storage %v, want %v", ua.Storage(), st)
			}
			if diff := cmp.Diff([]bool{true, false, true}, []bool{ua.IsValid(0), ua.IsValid(1), ua.IsValid(2)}); diff != "" {
				t.Errorf("validity (-want +got):\n%s", diff)
			}
		})
	}
}
