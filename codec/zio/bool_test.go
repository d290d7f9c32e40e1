package zio_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/codec/internal/codectest"
	"github.com/fstensor/fstensor/codec/zio"
	"github.com/fstensor/fstensor/fixedshape"
)

// physicalBools returns the elements of tensor i of the bool column arr in
// physical order, one byte each, read through BoolAt.
func physicalBools(arr *fixedshape.Array, i int) []byte {
	typ := arr.TensorType()
	shape, strides := typ.Shape(), typ.ElemStrides()
	out := make([]byte, typ.ListSize())
	idx := make([]int, len(shape))
	for {
		off := 0
		for a := range idx {
			off += idx[a] * strides[a]
		}
		if arr.BoolAt(i, idx...) {
			out[off] = 1
		}
		a := len(idx) - 1
		for ; a >= 0; a-- {
			if idx[a]++; idx[a] < shape[a] {
				break
			}
			idx[a] = 0
		}
		if a < 0 {
			return out
		}
	}
}

func TestBoolColumnRoundTrip(t *testing.T) {
	tests := []struct {
		name        string
		shape, perm []int
		n           int
		valid       []bool
		slice       [2]int64 // when not zero, the column written is this slice
		wantOrder   []int
		wantErr     bool
	}{
		{name: "0-D", shape: []int{}, n: 3},
		{name: "non-square", shape: []int{2, 3}, n: 2},
		{name: "transpose is Fortran order", shape: []int{3, 5}, perm: []int{1, 0}, n: 2, wantOrder: []int{0, 1}},
		{name: "3-cycle", shape: []int{2, 3, 4}, perm: []int{2, 0, 1}, n: 2, wantOrder: []int{0, 2, 1}},
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
			m := &zio.Message{Form: "TENS"}
			err := zio.AppendColumn(m, arr)
			if tt.wantErr {
				if !errors.Is(err, arrow.ErrInvalid) || len(m.Payload) != 0 {
					t.Fatalf("AppendColumn error = %v, message changed: %+v", err, m)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			l, err := zio.ParseLabel(m.Label)
			if err != nil {
				t.Fatal(err)
			}
			for i, ti := range l.TENS.Tensors {
				if ti.DType != "b" || ti.Word != 1 {
					t.Errorf("tensor %d: dtype %q word %d, want b 1", i, ti.DType, ti.Word)
				}
				if diff := cmp.Diff(tt.wantOrder, ti.Order); diff != "" {
					t.Errorf("tensor %d: order (-want +got):\n%s", i, diff)
				}
				// One byte 0 or 1 per element, in storage order.
				if diff := cmp.Diff(physicalBools(arr, i), m.Payload[i]); diff != "" {
					t.Errorf("payload part %d (-want +got):\n%s", i, diff)
				}
			}
			_, got := encodeRead(t, m)
			defer got.Release()
			if !fixedshape.Equal(arr, got) {
				t.Errorf("round trip differs:\nwant %v\n got %v", arr, got)
			}
			if !got.TensorType().ExtensionEquals(arr.TensorType()) {
				t.Errorf("type %s, want %s", got.TensorType(), arr.TensorType())
			}
		})
	}
}

// TestBoolVector reads the message zio::tens::append writes for a C++
// bool[2][3] {{true, false, true}, {false, false, true}} appended to an
// empty message (src/tens.cpp: type_name(bool) is "b", word is
// sizeof(bool), 1; the part is the array's bytes; the label is dumped
// compactly with sorted keys), and writes it back byte for byte.
func TestBoolVector(t *testing.T) {
	const label = `{"TENS":{"tensors":[{"dtype":"b","part":0,"shape":[2,3],"word":1}]}}`
	payload := []byte{1, 0, 1, 0, 0, 1}
	cpp := zio.Message{Form: "TENS", Label: label, Payload: [][]byte{payload}}
	enc, err := cpp.AppendEncode(nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := zio.Decode(enc)
	if err != nil {
		t.Fatal(err)
	}
	arr, err := zio.ReadColumn(m)
	if err != nil {
		t.Fatal(err)
	}
	defer arr.Release()
	if diff := cmp.Diff("[[[true,false,true],[false,false,true]]]", arr.String()); diff != "" {
		t.Errorf("column (-want +got):\n%s", diff)
	}
	if got := arr.TensorType().ElemType(); got.ID() != arrow.BOOL {
		t.Errorf("element type %s, want bool", got)
	}
	out := zio.Message{Form: "TENS"}
	if err := zio.AppendColumn(&out, arr); err != nil {
		t.Fatal(err)
	}
	again, err := out.AppendEncode(nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(enc, again); diff != "" {
		t.Errorf("re-encoded message (-want +got):\n%s", diff)
	}
}

// TestBoolAscend checks that descending axes of bool tensors are flipped,
// as for the other element types, in a batch of two messages.
func TestBoolAscend(t *testing.T) {
	const entry = `{"shape":[2,3],"word":1,"dtype":"b","ascend":[false,true]}`
	up := &zio.Message{Label: `{"TENS":{"tensors":[{"shape":[2,3],"word":1,"dtype":"b"}]}}`, Payload: [][]byte{{1, 1, 0, 0, 0, 1}}}
	down := &zio.Message{Label: `{"TENS":{"tensors":[` + entry + `]}}`, Payload: [][]byte{{1, 1, 0, 0, 0, 1}}}
	arr, err := zio.ReadColumn(up, down)
	if err != nil {
		t.Fatal(err)
	}
	defer arr.Release()
	want := "[[[true,true,false],[false,false,true]] [[false,false,true],[true,true,false]]]"
	if diff := cmp.Diff(want, arr.String()); diff != "" {
		t.Errorf("values (-want +got):\n%s", diff)
	}
}

func ExampleReadColumn_bool() {
	m := &zio.Message{
		Label:   `{"TENS":{"tensors":[{"shape":[2],"word":1,"dtype":"b"},{"shape":[2],"word":1,"dtype":"b"}]}}`,
		Payload: [][]byte{{0, 1}, {1, 2}},
	}
	_, err := zio.ReadColumn(m)
	fmt.Println(err)
	m.Payload[1][1] = 0
	arr, _ := zio.ReadColumn(m)
	defer arr.Release()
	fmt.Println(arr)
	// Output:
	// zio: message 0 TENS.tensors[1]: part 1: bool element 1 is 2, not 0 or 1
	// [[false,true] [true,false]]
}
