package decthings_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/codec/decthings"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

// TestBooleanColumn writes bool columns as boolean tensors, one byte 0 or
// 1 per element in C order, and reads them back.
func TestBooleanColumn(t *testing.T) {
	tests := []struct {
		name        string
		shape, perm []int
		n           int
		slice       [2]int64 // when not zero, the column written is this slice
		want0       []byte   // data of tensor 0 as written
	}{
		{name: "0-D", shape: []int{}, n: 3, want0: []byte{0}},
		{name: "non-square", shape: []int{2, 3}, n: 2, want0: []byte{0, 1, 0, 0, 1, 0}},
		{name: "3-cycle", shape: []int{2, 3, 2}, perm: []int{2, 0, 1}, n: 2, want0: []byte{0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0}},
		{name: "sliced off a byte boundary", shape: []int{3}, n: 4, slice: [2]int64{1, 4}, want0: []byte{0, 1, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			typ := fixedshape.MustNewType(arrow.FixedWidthTypes.Boolean, metadata.MustNew(tt.shape, nil, tt.perm))
			data := make([]bool, tt.n*typ.ListSize())
			for k := range data {
				data[k] = k%3 == 1
			}
			arr, err := fixedshape.FromBools(mem, typ, data, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer arr.Release()
			if tt.slice != [2]int64{} {
				s := array.NewSlice(arr, tt.slice[0], tt.slice[1]).(*fixedshape.Array)
				defer s.Release()
				arr = s
			}
			b, err := decthings.AppendColumn(nil, arr)
			if err != nil {
				t.Fatal(err)
			}
			first, _, err := decthings.DecodeTensor(b)
			if err != nil {
				t.Fatal(err)
			}
			if first.Type != decthings.Boolean {
				t.Errorf("type = %v, want boolean", first.Type)
			}
			if diff := cmp.Diff(tt.want0, first.Data); diff != "" {
				t.Errorf("data of tensor 0 (-want +got):\n%s", diff)
			}
			got, err := decthings.ReadColumn(b, decthings.WithExpectedCount(arr.Len()))
			if err != nil {
				t.Fatal(err)
			}
			defer got.Release()
			if !fixedshape.Equal(arr, got) {
				t.Errorf("round trip differs:\nwant %v\n got %v", arr, got)
			}
		})
	}
}
