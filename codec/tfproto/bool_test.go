package tfproto_test

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/codec/internal/codectest"
	"github.com/fstensor/fstensor/codec/tfproto"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
)

func TestBoolColumnRoundTrip(t *testing.T) {
	tests := []struct {
		name        string
		shape, perm []int
		n           int
		valid       []bool
		slice       [2]int64 // when not zero, the column written is this slice
		wantErr     bool
	}{
		{name: "0-D", shape: []int{}, n: 3},
		{name: "non-square", shape: []int{2, 3}, n: 2},
		{name: "transpose", shape: []int{3, 5}, perm: []int{1, 0}, n: 2},
		{name: "3-cycle", shape: []int{2, 3, 4}, perm: []int{2, 0, 1}, n: 2},
		{name: "sliced off a byte boundary", shape: []int{3}, n: 4, slice: [2]int64{1, 4}},
		{name: "null tensor", shape: []int{2}, n: 2, valid: []bool{true, false}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			arr := codectest.BoolColumn(t, mem, tt.shape, tt.perm, tt.n, tt.valid)
			defer arr.Release()
			if tt.slice != [2]int64{} {
				s := array.NewSlice(arr, tt.slice[0], tt.slice[1]).(*fixedshape.Array)
				defer s.Release()
				arr = s
			}
			msgs, err := tfproto.AppendColumn(nil, arr)
			if codectest.WantInvalid(t, "AppendColumn", err, tt.wantErr) {
				return
			}
			got, err := tfproto.ReadColumn(msgs, tfproto.WithExpectedCount(arr.Len()))
			if err != nil {
				t.Fatal(err)
			}
			defer got.Release()
			if !fixedshape.Equal(arr, got) {
				t.Errorf("round trip differs:\nwant %v\n got %v", arr, got)
			}
			// The wire holds one byte per element, in C order.
			dec, err := tfproto.Decode(msgs[0])
			if err != nil {
				t.Fatal(err)
			}
			want := make([]byte, 0, len(dec.Content))
			for idx := range testvec.Indices(tt.shape) {
				b := byte(0)
				if arr.BoolAt(0, idx...) {
					b = 1
				}
				want = append(want, b)
			}
			if diff := cmp.Diff(want, dec.Content); diff != "" {
				t.Errorf("content of tensor 0 (-want +got):\n%s", diff)
			}
		})
	}
}

// TestProtocBool checks DT_BOOL against protoc: a bool column's messages
// decode to the text protoc gives, and bool_val fields protoc encodes
// (packed, repeating the last value) read as a bool column.
func TestProtocBool(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	arr := codectest.BoolColumn(t, mem, []int{2, 2}, []int{1, 0}, 1, nil)
	defer arr.Release()
	msgs, err := tfproto.AppendColumn(nil, arr)
	if err != nil {
		t.Fatal(err)
	}
	// Physical 0 1 0 0 (k%3 == 1) under the transpose: logical [[0 0] [1 0]].
	text := strings.Join(strings.Fields(protoc(t, "decode", string(msgs[0]))), " ")
	want := `dtype: DT_BOOL tensor_shape { dim { size: 2 } dim { size: 2 } } tensor_content: "\000\000\001\000"`
	if text != want {
		t.Errorf("protoc --decode = %s, want %s", text, want)
	}
	enc := protoc(t, "encode", `dtype: DT_BOOL tensor_shape { dim { size: 2 } dim { size: 3 } } bool_val: true bool_val: false bool_val: true`)
	got, err := tfproto.ReadColumn([][]byte{[]byte(enc)})
	if err != nil {
		t.Fatal(err)
	}
	defer got.Release()
	var vals []bool
	for idx := range testvec.Indices([]int{2, 3}) {
		vals = append(vals, got.BoolAt(0, idx...))
	}
	if diff := cmp.Diff([]bool{true, false, true, true, true, true}, vals); diff != "" {
		t.Errorf("bool_val column (-want +got):\n%s", diff)
	}
}
