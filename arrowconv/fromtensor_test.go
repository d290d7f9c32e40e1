package arrowconv_test

import (
	"errors"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/arrow/tensor"
	"github.com/fstensor/fstensor/arrowconv"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/stride"
	"github.com/google/go-cmp/cmp"
)

// checkSameValues checks that every logical element of the column got
// equals the element of the source tensor src (batch axis first) at the
// same index, reading got back through ToTensor.
func checkSameValues(t *testing.T, src tensor.Interface, got *fixedshape.Array) {
	t.Helper()
	if got.Len() == 0 {
		return
	}
	back, err := arrowconv.ToTensor(got)
	if err != nil {
		t.Fatal(err)
	}
	defer back.Release()
	if diff := cmp.Diff(ints64(src.Shape()), ints64(back.Shape())); diff != "" {
		t.Fatalf("shape (-want +got):\n%s", diff)
	}
	col := got.TensorType()
	for _, idx := range indices(ints64(src.Shape())) {
		want := tensorAt(src, idx)
		if g := tensorAt(back, idx); g != want {
			t.Fatalf("element %v = %v, want %v (type %v)", idx, g, want, col)
		}
	}
}

func TestFromTensorVectors(t *testing.T) {
	for _, v := range loadVectors(t, "from_tensor", "tensor_roundtrip") {
		t.Run(v.ID, func(t *testing.T) {
			mem := checkedMem(t)
			n, _ := stride.NumElements(v.InShape)
			src := newTensor(t, mem, elemType(t, v.ValueType), n, v.InShape, v.InStridesBytes, v.InDimNames)
			defer src.Release()
			got, err := arrowconv.FromTensor(src)
			if v.DensePermuted != nil && !*v.DensePermuted {
				// Upstream reinterprets the buffer; the spec asks to refuse
				// or copy. These strides even reach past the buffer of
				// prod(shape) elements, so a copy is refused too.
				if !errors.Is(err, arrow.ErrInvalid) {
					t.Fatalf("err = %v, want arrow.ErrInvalid for a layout that is not dense", err)
				}
				if _, err := arrowconv.FromTensor(src, arrowconv.WithCopy(), arrowconv.WithAllocator(mem)); !errors.Is(err, arrow.ErrInvalid) {
					t.Fatalf("copy: err = %v, want arrow.ErrInvalid", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer got.Release()
			typ := got.TensorType()
			if diff := cmp.Diff([]int(v.ExpPhysicalShape), typ.PhysicalShape()); diff != "" {
				t.Errorf("physical shape (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]int(v.ExpPermutation), effectivePerm(typ)); diff != "" {
				t.Errorf("permutation (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(v.ExpDimNamesPhysical, typ.PhysicalDimNames()); diff != "" {
				t.Errorf("physical dim names (-want +got):\n%s", diff)
			}
			if &tensorBytes(src)[0] != &got.ValueBytes()[0] {
				t.Error("FromTensor copied a dense tensor")
			}
			checkSameValues(t, src, got)
			if v.RoundtripStrides != nil {
				back, err := arrowconv.ToTensor(got)
				if err != nil {
					t.Fatal(err)
				}
				defer back.Release()
				if diff := cmp.Diff([]int(v.RoundtripStrides), ints64(back.Strides())); diff != "" {
					t.Errorf("round-trip strides (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestFromNumpyVectors(t *testing.T) {
	for _, v := range loadVectors(t, "from_numpy") {
		t.Run(v.ID, func(t *testing.T) {
			mem := checkedMem(t)
			var names []string
			switch a := v.DimNamesArg.(type) {
			case nil:
			case []any:
				for _, x := range a {
					s, ok := x.(string)
					if !ok {
						t.Skipf("dim_names_arg %v: Go's []string rules out non-string names", a)
					}
					names = append(names, s)
				}
				names = append([]string{""}, names...)
			default:
				t.Skipf("dim_names_arg %v: Go's []string rules out a non-list", a)
			}
			shape := []int(v.NdarrayShape)
			w := 8
			var strides []int
			if v.NdarrayStrides != nil {
				for _, s := range v.NdarrayStrides {
					strides = append(strides, s*w)
				}
			} else {
				strides = stride.Bytes(nil, stride.RowMajor(nil, shape), w)
			}
			n, _ := stride.NumElements(shape)
			src := newTensor(t, mem, arrow.PrimitiveTypes.Int64, max(n, 1), shape, strides, nil)
			defer src.Release()
			var got *fixedshape.Array
			var err error
			if names != nil && len(names) != len(shape) {
				// arrow-go's tensor constructor takes any names; FromTensor
				// checks the count.
				src2 := tensor.New(src.Data(), src.Shape(), src.Strides(), names)
				defer src2.Release()
				got, err = arrowconv.FromTensor(src2)
			} else {
				if names != nil {
					src2 := tensor.New(src.Data(), src.Shape(), src.Strides(), names)
					defer src2.Release()
					src = src2
				}
				got, err = arrowconv.FromTensor(src)
			}
			if len(shape) == 1 && v.ExpectedError {
				// pyarrow refuses a 1-D array; the spec allows 0-D tensors,
				// so fstensor reads it as a column of 0-D tensors.
				if err != nil {
					t.Fatal(err)
				}
				defer got.Release()
				if got.Len() != shape[0] || got.TensorType().NDim() != 0 {
					t.Errorf("got %d tensors of %d dims, want %d 0-D tensors", got.Len(), got.TensorType().NDim(), shape[0])
				}
				return
			}
			if !testvec.WantErr(t, err, testvec.InvalidIf(v.ExpectedError)) {
				return
			}
			defer got.Release()
			typ := got.TensorType()
			if diff := cmp.Diff([]int(v.ExpPhysicalShape), typ.PhysicalShape()); diff != "" {
				t.Errorf("physical shape (-want +got):\n%s", diff)
			}
			if v.ExpPermutation != nil {
				if diff := cmp.Diff([]int(v.ExpPermutation), effectivePerm(typ)); diff != "" {
					t.Errorf("permutation (-want +got):\n%s", diff)
				}
			}
			if v.ExpDimNamesPhysical != nil {
				if diff := cmp.Diff(v.ExpDimNamesPhysical, typ.PhysicalDimNames()); diff != "" {
					t.Errorf("dim names (-want +got):\n%s", diff)
				}
			}
			checkSameValues(t, src, got)
		})
	}
}

func TestFromListVectors(t *testing.T) {
	for _, v := range loadVectors(t, "from_list") {
		t.Run(v.ID, func(t *testing.T) {
			mem := checkedMem(t)
			switch v.ID {
			case "py-from-list-0d":
				// [np.array(1), np.array(2)] as a batch of two 0-D tensors.
				src := newTensor(t, mem, arrow.PrimitiveTypes.Int64, 2, []int{2}, []int{8}, nil)
				defer src.Release()
				got, err := arrowconv.FromTensor(src)
				if err != nil {
					t.Fatal(err)
				}
				defer got.Release()
				if want := elemType(t, v.StorageType); !arrow.TypeEqual(want, got.TensorType().StorageType()) {
					t.Errorf("storage type %v, want %v", got.TensorType().StorageType(), want)
				}
				col, _ := fixedshape.ColumnOf[int64](got)
				var want []int64
				for _, row := range v.ExpectedStorage {
					for _, x := range row {
						want = append(want, int64(x)-1) // newTensor holds 0, 1
					}
				}
				if diff := cmp.Diff(want, col.Values()); diff != "" {
					t.Errorf("storage (-want +got):\n%s", diff)
				}
			case "py-from-list-mixed-layout":
				// The same logical 2x3 tensor in C and in Fortran order.
				c := tensorOf(t, []int64{1, 2, 3, 4, 5, 6}, []int{2, 3}, []int{24, 8})
				defer c.Release()
				f := tensorOf(t, []int64{1, 4, 2, 5, 3, 6}, []int{2, 3}, []int{8, 16})
				defer f.Release()
				for _, src := range []tensor.Interface{c, f} {
					got, err := arrowconv.FromSlotTensor(src)
					if err != nil {
						t.Fatal(err)
					}
					col, _ := fixedshape.ColumnOf[int64](got)
					var want []int64
					for _, x := range v.ExpectedStorage[0] {
						want = append(want, int64(x))
					}
					if diff := cmp.Diff(want, col.Tensor(0).AppendLogical(nil)); diff != "" {
						t.Errorf("logical values (-want +got):\n%s", diff)
					}
					got.Release()
				}
			default:
				t.Skipf("%s concerns building from Python lists, not a tensor conversion", v.ID)
			}
		})
	}
}

// tensorOf returns a tensor over a Go slice (no Arrow allocation); t may
// be nil (examples).
func tensorOf(t testing.TB, data []int64, shape, strides []int) tensor.Interface {
	if t != nil {
		t.Helper()
	}
	buf := memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(data))
	d := array.NewData(arrow.PrimitiveTypes.Int64, len(data), []*memory.Buffer{nil, buf}, nil, 0, 0)
	defer d.Release()
	s64 := make([]int64, len(shape))
	st64 := make([]int64, len(strides))
	for i := range shape {
		s64[i], st64[i] = int64(shape[i]), int64(strides[i])
	}
	return tensor.New(d, s64, st64, nil)
}

func TestFromTensor(t *testing.T) {
	big := math.MaxInt / 2
	tests := []struct {
		name     string
		shape    []int // batch first
		strides  []int // bytes, int32 elements
		n        int   // buffer elements
		slot     bool
		copy     bool
		wantPerm []int // effective
		wantErr  error
		wantCopy bool
	}{
		{name: "0-D tensors", shape: []int{3}, strides: []int{4}, n: 3, wantPerm: nil},
		{name: "0-D slot", shape: []int{}, strides: []int{}, n: 1, slot: true, wantPerm: nil},
		{name: "3-cycle", shape: []int{2, 2, 3, 4}, strides: []int{96, 4, 32, 8}, n: 48, wantPerm: []int{2, 0, 1}},
		{name: "non-square transpose", shape: []int{2, 3, 2}, strides: []int{24, 4, 12}, n: 12, wantPerm: []int{1, 0}},
		{name: "size-1 axis stride ignored", shape: []int{2, 1, 3}, strides: []int{12, 996, 4}, n: 6, wantPerm: []int{0, 1}},
		{name: "gap refused", shape: []int{2, 2, 2}, strides: []int{32, 16, 4}, n: 16, wantErr: arrow.ErrInvalid},
		{name: "gap copied", shape: []int{2, 2, 2}, strides: []int{32, 16, 4}, n: 16, copy: true, wantPerm: []int{0, 1}, wantCopy: true},
		{name: "padded batch copied", shape: []int{2, 3}, strides: []int{16, 4}, n: 8, copy: true, wantPerm: []int{0}, wantCopy: true},
		{name: "overlap refused", shape: []int{2, 3}, strides: []int{4, 4}, n: 8, wantErr: arrow.ErrInvalid},
		{name: "broadcast batch copied", shape: []int{3, 4}, strides: []int{0, 4}, n: 4, copy: true, wantPerm: []int{0}, wantCopy: true},
		{name: "negative stride", shape: []int{2, 3}, strides: []int{12, -4}, n: 6, copy: true, wantErr: arrow.ErrInvalid},
		{name: "stride not a multiple of width", shape: []int{2, 3}, strides: []int{12, 3}, n: 6, wantErr: arrow.ErrInvalid},
		{name: "reach beyond buffer", shape: []int{2, 3}, strides: []int{12, 4}, n: 5, wantErr: arrow.ErrInvalid},
		{name: "wrong stride count", shape: []int{2, 3}, strides: []int{12}, n: 6, wantErr: arrow.ErrInvalid},
		{name: "size-0 dimension", shape: []int{2, 0, 3}, strides: []int{12, 12, 4}, n: 6, wantErr: arrow.ErrNotImplemented},
		{name: "empty batch", shape: []int{0, 3}, strides: []int{12, 4}, n: 1, wantPerm: []int{0}},
		{name: "no batch axis", shape: []int{}, strides: []int{}, n: 1, wantErr: arrow.ErrInvalid},
		{name: "negative dimension", shape: []int{2, -3}, strides: []int{12, 4}, n: 6, wantErr: arrow.ErrInvalid},
		{name: "overflowing shape", shape: []int{2, big, big}, strides: []int{4, 4, 4}, n: 6, wantErr: arrow.ErrInvalid},
		{name: "overflowing strides", shape: []int{2, 3}, strides: []int{4, big / 4 * 4}, n: 6, wantErr: arrow.ErrInvalid},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mem := checkedMem(t)
			src := newTensor(t, mem, arrow.PrimitiveTypes.Int32, tc.n, tc.shape, tc.strides, nil)
			defer src.Release()
			opts := []arrowconv.Option{arrowconv.WithAllocator(mem)}
			if tc.copy {
				opts = append(opts, arrowconv.WithCopy())
			}
			var got *fixedshape.Array
			var err error
			if tc.slot {
				got, err = arrowconv.FromSlotTensor(src, opts...)
			} else {
				got, err = arrowconv.FromTensor(src, opts...)
			}
			if !testvec.WantErr(t, err, tc.wantErr) {
				return
			}
			defer got.Release()
			if diff := cmp.Diff(tc.wantPerm, effectivePerm(got.TensorType())); diff != "" {
				t.Errorf("permutation (-want +got):\n%s", diff)
			}
			shared := got.Len() > 0 && &tensorBytes(src)[0] == &got.ValueBytes()[0]
			if got.Len() > 0 && shared == tc.wantCopy {
				t.Errorf("shared memory = %v, want %v", shared, !tc.wantCopy)
			}
			if tc.slot {
				if got.Len() != 1 {
					t.Fatalf("slot gave %d tensors", got.Len())
				}
				if g := got.ValueBytes(); getElem(g, arrow.PrimitiveTypes.Int32) != tensorAt(src, nil) {
					t.Errorf("0-D value %v, want %v", getElem(g, arrow.PrimitiveTypes.Int32), tensorAt(src, nil))
				}
				return
			}
			checkSameValues(t, src, got)
		})
	}
}

func TestStorageMismatchVector(t *testing.T) {
	for _, v := range loadVectors(t, "storage_invalid") {
		t.Run(v.ID, func(t *testing.T) {
			mem := checkedMem(t)
			st := array.MakeArrayOfNull(mem, elemType(t, v.StorageType), 0)
			defer st.Release()
			m, err := metadata.FromPhysical(v.PhysicalShape, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			typ := fixedshape.MustNewType(elemType(t, v.ValueType), m)
			if _, err := fixedshape.NewArray(typ, st); !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("%v storage for %v: err = %v, want arrow.ErrInvalid", st.DataType(), typ, err)
			}
		})
	}
}
