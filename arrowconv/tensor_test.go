package arrowconv_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/tensor"
	"github.com/fstensor/fstensor/arrowconv"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/stride"
	"github.com/google/go-cmp/cmp"
)

// checkTensorValues checks every element of tt, a tensor view of tensors
// [first, first+n) of a seqColumn of metadata m (batch axis first when
// batch), against the spec's value.
func checkTensorValues(t *testing.T, tt tensor.Interface, m metadata.Metadata, first int, batch bool) {
	t.Helper()
	for _, idx := range indices(ints64(tt.Shape())) {
		b, rest := first, idx
		if batch {
			b, rest = first+idx[0], idx[1:]
		}
		if got, want := tensorAt(tt, idx), specValue(m, b, rest); got != want {
			t.Fatalf("element %v = %v, want %v", idx, got, want)
		}
	}
}

// effectivePerm returns the permutation of typ, the identity when absent.
func effectivePerm(typ *fixedshape.Type) []int {
	if p := typ.Permutation(); p != nil {
		return p
	}
	return stride.Identity(nil, typ.NDim())
}

func TestToTensorVectors(t *testing.T) {
	for _, v := range loadVectors(t, "to_tensor", "to_numpy") {
		if v.Slice != nil {
			continue // TestSliceVectors
		}
		t.Run(v.ID, func(t *testing.T) {
			mem := checkedMem(t)
			if strings.Contains(v.StorageType, "binary") || v.ValueType == "binary" {
				st := array.MakeArrayOfNull(mem, arrow.FixedSizeListOf(2, arrow.BinaryTypes.Binary), 0)
				defer st.Release()
				_, err := arrowconv.Wrap(st, metadata.MustNew([]int{1, 2}, nil, nil))
				if !errors.Is(err, arrow.ErrInvalid) {
					t.Fatalf("Wrap of %v: err = %v, want arrow.ErrInvalid", st.DataType(), err)
				}
				return
			}
			typ := v.Type(t)
			m := typ.Metadata()
			n := v.ArrayLength
			arr := seqColumn(t, mem, typ, n, nil)
			defer arr.Release()
			tt, err := arrowconv.ToTensor(arr)
			if err != nil {
				t.Fatal(err)
			}
			defer tt.Release()
			if diff := cmp.Diff([]int(v.TensorShape), ints64(tt.Shape())); diff != "" {
				t.Errorf("shape (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]int(v.TensorStridesBytes), ints64(tt.Strides())); diff != "" {
				t.Errorf("strides (-want +got):\n%s", diff)
			}
			if v.UpstreamMatchesSpec != nil && !*v.UpstreamMatchesSpec && cmp.Equal([]int(v.UpstreamStrides), ints64(tt.Strides())) {
				t.Errorf("strides %v follow the upstream defect, not the spec", tt.Strides())
			}
			if v.TensorDimNames != nil {
				if diff := cmp.Diff(v.TensorDimNames, tt.DimNames()); diff != "" {
					t.Errorf("dim names (-want +got):\n%s", diff)
				}
			}
			if &tensorBytes(tt)[0] != &arr.ValueBytes()[0] {
				t.Error("ToTensor copied the values")
			}
			checkTensorValues(t, tt, m, 0, true)
			for i := range n {
				st, err := arrowconv.SlotTensor(arr, i)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff([]int(v.TensorStridesBytes[1:]), ints64(st.Strides())); diff != "" {
					t.Errorf("slot %d strides (-want +got):\n%s", i, diff)
				}
				checkTensorValues(t, st, m, i, false)
				st.Release()
			}
		})
	}
}

func TestToTensor(t *testing.T) {
	tests := []struct {
		name    string
		elem    arrow.DataType
		shape   []int
		perm    []int
		n       int
		valid   []bool
		slice   [2]int
		strides []int // want, bytes
		wantErr error
	}{
		{name: "0-D", elem: arrow.PrimitiveTypes.Int32, shape: []int{}, n: 3, strides: []int{4}},
		{name: "1-D", elem: arrow.PrimitiveTypes.Uint8, shape: []int{5}, n: 2, strides: []int{5, 1}},
		{name: "non-square transpose", elem: arrow.PrimitiveTypes.Float64, shape: []int{2, 3}, perm: []int{1, 0}, n: 2, strides: []int{48, 8, 16}},
		{name: "3-cycle", elem: arrow.PrimitiveTypes.Int16, shape: []int{2, 3, 4}, perm: []int{2, 0, 1}, n: 2, strides: []int{48, 2, 16, 4}},
		{name: "4-D permutation", elem: arrow.PrimitiveTypes.Float32, shape: []int{2, 3, 4, 5}, perm: []int{3, 1, 0, 2}, n: 2, strides: []int{480, 4, 40, 120, 8}},
		{name: "sliced", elem: arrow.PrimitiveTypes.Int64, shape: []int{2, 3}, perm: []int{1, 0}, n: 5, slice: [2]int{2, 4}, strides: []int{48, 8, 16}},
		{name: "empty column", elem: arrow.PrimitiveTypes.Int64, shape: []int{2, 3}, n: 0, strides: []int{48, 24, 8}},
		{name: "null tensors", elem: arrow.PrimitiveTypes.Int64, shape: []int{2}, n: 2, valid: []bool{true, false}, wantErr: arrow.ErrInvalid},
		{name: "float16", elem: arrow.FixedWidthTypes.Float16, shape: []int{2}, n: 2, wantErr: arrow.ErrNotImplemented},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mem := checkedMem(t)
			m := metadata.MustNew(tc.shape, nil, tc.perm)
			arr := seqColumn(t, mem, fixedshape.MustNewType(tc.elem, m), tc.n, tc.valid)
			defer arr.Release()
			first := 0
			if tc.slice != [2]int{} {
				s := array.NewSlice(arr, int64(tc.slice[0]), int64(tc.slice[1])).(*fixedshape.Array)
				defer s.Release()
				arr, first = s, tc.slice[0]
			}
			tt, err := arrowconv.ToTensor(arr)
			if !testvec.WantErr(t, err, tc.wantErr) {
				return
			}
			defer tt.Release()
			if diff := cmp.Diff(tc.strides, ints64(tt.Strides())); diff != "" {
				t.Errorf("strides (-want +got):\n%s", diff)
			}
			checkTensorValues(t, tt, m, first, true)
		})
	}
}

func TestSlotTensorNull(t *testing.T) {
	mem := checkedMem(t)
	arr := seqColumn(t, mem, fixedshape.MustNewType(arrow.PrimitiveTypes.Int8, metadata.MustNew([]int{2}, nil, nil)), 2, []bool{false, true})
	defer arr.Release()
	if _, err := arrowconv.SlotTensor(arr, 0); !errors.Is(err, arrow.ErrInvalid) {
		t.Fatalf("null slot: err = %v, want arrow.ErrInvalid", err)
	}
	st, err := arrowconv.SlotTensor(arr, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Release()
	if got := tensorAt(st, []int{1}); got != 3 {
		t.Errorf("slot 1 element 1 = %v, want 3", got)
	}
}

func TestSliceVectors(t *testing.T) {
	for _, v := range loadVectors(t, "slice", "to_numpy") {
		if v.Kind == "to_numpy" && v.Slice == nil {
			continue
		}
		t.Run(v.ID, func(t *testing.T) {
			mem := checkedMem(t)
			typ := v.Type(t)
			switch v.Kind {
			case "slice":
				// 3 tensors 0..35 sliced [0,2) equal the column made from a
				// [2,3,4] tensor holding 0..23.
				arr := seqColumn(t, mem, typ, 3, nil)
				defer arr.Release()
				s := array.NewSlice(arr, 0, 2).(*fixedshape.Array)
				defer s.Release()
				src := newTensor(t, mem, typ.ElemType(), 24, []int{2, 3, 4}, []int{96, 32, 8}, []string{"", "x", "y"})
				defer src.Release()
				got, err := arrowconv.FromTensor(src)
				if err != nil {
					t.Fatal(err)
				}
				defer got.Release()
				if !fixedshape.Equal(s, got) {
					t.Errorf("slice %v != from tensor %v", s, got)
				}
				tt, err := arrowconv.ToTensor(s)
				if err != nil {
					t.Fatal(err)
				}
				defer tt.Release()
				if diff := cmp.Diff([]int{96, 32, 8}, ints64(tt.Strides())); diff != "" {
					t.Errorf("strides (-want +got):\n%s", diff)
				}
			case "to_numpy":
				// storage [[1..6],[7..12]]; seqColumn holds value-1.
				arr := seqColumn(t, mem, typ, 2, nil)
				defer arr.Release()
				s := array.NewSlice(arr, int64(v.Slice[0]), int64(v.Slice[1])).(*fixedshape.Array)
				defer s.Release()
				tt, err := arrowconv.ToTensor(s)
				if err != nil {
					t.Fatal(err)
				}
				defer tt.Release()
				var got []float64
				for _, idx := range indices(ints64(tt.Shape())) {
					got = append(got, tensorAt(tt, idx)+1)
				}
				want := testvec.Flatten(nil, v.ExpectedNdarray)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("values (-want +got):\n%s", diff)
				}
			}
		})
	}
}
