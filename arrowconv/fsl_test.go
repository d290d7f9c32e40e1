package arrowconv_test

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/arrowconv"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/google/go-cmp/cmp"
)

func TestWrapUnwrap(t *testing.T) {
	tests := []struct {
		name    string
		storage arrow.DataType
		meta    func() (metadata.Metadata, error)
		valid   []bool
		wantErr bool
	}{
		{name: "0-D", storage: arrow.FixedSizeListOf(1, arrow.PrimitiveTypes.Int64), meta: func() (metadata.Metadata, error) { return metadata.New([]int{}, nil, nil) }},
		{name: "3-cycle", storage: arrow.FixedSizeListOf(24, arrow.PrimitiveTypes.Float32), meta: func() (metadata.Metadata, error) {
			return metadata.New([]int{2, 3, 4}, []string{"a", "b", "c"}, []int{2, 0, 1})
		}},
		{name: "non-square, element child, not null", storage: arrow.FixedSizeListOfField(6, arrow.Field{Name: "element", Type: arrow.PrimitiveTypes.Uint16}), meta: func() (metadata.Metadata, error) { return metadata.New([]int{2, 3}, nil, nil) }},
		{name: "null tensors", storage: arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Int8), valid: []bool{true, false, true}, meta: func() (metadata.Metadata, error) { return metadata.New([]int{2}, nil, nil) }},
		{name: "list size mismatch", storage: arrow.FixedSizeListOf(5, arrow.PrimitiveTypes.Int8), meta: func() (metadata.Metadata, error) { return metadata.New([]int{2, 3}, nil, nil) }, wantErr: true},
		{name: "string elements", storage: arrow.FixedSizeListOf(2, arrow.BinaryTypes.String), meta: func() (metadata.Metadata, error) { return metadata.New([]int{2}, nil, nil) }, wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mem := checkedMem(t)
			m, err := tc.meta()
			if err != nil {
				t.Fatal(err)
			}
			fsl := tc.storage.(*arrow.FixedSizeListType)
			var st arrow.Array
			if fixedshape.ElemTypeOK(fsl.Elem()) {
				typ, err := fixedshape.NewTypeWithStorage(fsl, metadata.MustNew([]int{int(fsl.Len())}, nil, nil))
				if err != nil {
					t.Fatal(err)
				}
				col := seqColumn(t, mem, typ, 3, tc.valid)
				st = col.Storage()
				st.Retain()
				col.Release()
			} else {
				st = array.MakeArrayOfNull(mem, fsl, 0)
			}
			defer st.Release()
			arr, err := arrowconv.Wrap(st, m)
			if !testvec.WantErr(t, err, testvec.InvalidIf(tc.wantErr)) {
				return
			}
			defer arr.Release()
			if !arr.TensorType().Metadata().Equal(m) || arr.NullN() != st.NullN() {
				t.Errorf("wrapped %v with %d nulls, want %v with %d", arr.TensorType(), arr.NullN(), m, st.NullN())
			}
			if &arr.ValueBytes()[0] != &st.Data().Children()[0].Buffers()[1].Bytes()[0] {
				t.Error("Wrap copied the values")
			}
			back, bm := arrowconv.Unwrap(arr)
			defer back.Release()
			if !bm.Equal(m) || !array.Equal(back, st) {
				t.Errorf("Unwrap gave %v %v, want %v %v", bm, back, m, st)
			}
		})
	}
}

// nestedFSL builds FSL<FSL<int32, inner>, outer> of n lists holding
// 0, 1, 2, ... with the given outer and inner validity (nil: all valid).
func nestedFSL(t *testing.T, mem memory.Allocator, n, outer, inner int, outerValid, innerValid []bool) arrow.Array {
	t.Helper()
	total := n * outer * inner
	vals := memory.NewResizableBuffer(mem)
	defer vals.Release()
	vals.Resize(total * 4)
	putSeq(vals.Bytes(), arrow.PrimitiveTypes.Int32, total)
	leaf := array.NewData(arrow.PrimitiveTypes.Int32, total, []*memory.Buffer{nil, vals}, nil, 0, 0)
	defer leaf.Release()
	innerType := arrow.FixedSizeListOf(int32(inner), arrow.PrimitiveTypes.Int32)
	ibits, inulls := bitmap(mem, innerValid)
	if ibits != nil {
		defer ibits.Release()
	}
	mid := array.NewData(innerType, n*outer, []*memory.Buffer{ibits}, []arrow.ArrayData{leaf}, inulls, 0)
	defer mid.Release()
	obits, onulls := bitmap(mem, outerValid)
	if obits != nil {
		defer obits.Release()
	}
	top := array.NewData(arrow.FixedSizeListOf(int32(outer), innerType), n, []*memory.Buffer{obits}, []arrow.ArrayData{mid}, onulls, 0)
	defer top.Release()
	return array.MakeFromData(top)
}

// bitmap returns a validity bitmap for valid and its null count; nil, 0
// for a nil valid.
func bitmap(mem memory.Allocator, valid []bool) (*memory.Buffer, int) {
	if valid == nil {
		return nil, 0
	}
	b := memory.NewResizableBuffer(mem)
	b.Resize((len(valid) + 7) / 8)
	nulls := 0
	for i, v := range valid {
		if v {
			b.Bytes()[i/8] |= 1 << (i % 8)
		} else {
			nulls++
		}
	}
	return b, nulls
}

func TestFromNested(t *testing.T) {
	tests := []struct {
		name       string
		n          int
		outerValid []bool
		innerValid []bool
		slice      [2]int
		wantErr    bool
	}{
		{name: "plain", n: 2},
		{name: "sliced", n: 4, slice: [2]int{1, 3}},
		{name: "null tensors", n: 3, outerValid: []bool{true, false, true}},
		{name: "sliced null tensors", n: 4, outerValid: []bool{true, false, true, false}, slice: [2]int{1, 4}},
		{name: "inner null inside a valid tensor", n: 2, innerValid: []bool{true, true, true, true, false, true}, wantErr: true},
		{name: "inner null outside the slice", n: 2, innerValid: []bool{true, true, true, false, true, true}, slice: [2]int{0, 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mem := checkedMem(t)
			nested := nestedFSL(t, mem, tc.n, 3, 4, tc.outerValid, tc.innerValid)
			defer nested.Release()
			first := 0
			if tc.slice != [2]int{} {
				s := array.NewSlice(nested, int64(tc.slice[0]), int64(tc.slice[1]))
				defer s.Release()
				nested, first = s, tc.slice[0]
			}
			arr, err := arrowconv.FromNested(nested, []string{"row", "col"})
			if !testvec.WantErr(t, err, testvec.InvalidIf(tc.wantErr)) {
				return
			}
			defer arr.Release()
			if diff := cmp.Diff([]int{3, 4}, arr.TensorType().Shape()); diff != "" {
				t.Errorf("shape (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{"row", "col"}, arr.TensorType().DimNames()); diff != "" {
				t.Errorf("names (-want +got):\n%s", diff)
			}
			col, err := fixedshape.ColumnOf[int32](arr)
			if err != nil {
				t.Fatal(err)
			}
			for i := range arr.Len() {
				if got, want := arr.IsNull(i), nested.IsNull(i); got != want {
					t.Errorf("tensor %d null = %v, want %v", i, got, want)
				}
				if arr.IsNull(i) {
					continue
				}
				for r := range 3 {
					for c := range 4 {
						if got, want := col.Tensor(i).At(r, c), int32((first+i)*12+r*4+c); got != want {
							t.Fatalf("tensor %d [%d,%d] = %d, want %d", i, r, c, got, want)
						}
					}
				}
			}
		})
	}
}

func TestFromNestedInvalid(t *testing.T) {
	mem := checkedMem(t)
	tests := []struct {
		name string
		arr  arrow.Array
	}{
		{name: "not a list", arr: array.MakeArrayOfNull(mem, arrow.PrimitiveTypes.Int32, 2)},
		{name: "bool leaves", arr: array.MakeArrayOfNull(mem, arrow.FixedSizeListOf(2, arrow.FixedWidthTypes.Boolean), 0)},
		{name: "string leaves", arr: array.MakeArrayOfNull(mem, arrow.FixedSizeListOf(2, arrow.BinaryTypes.String), 0)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			defer tc.arr.Release()
			if _, err := arrowconv.FromNested(tc.arr, nil); !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("err = %v, want arrow.ErrInvalid", err)
			}
		})
	}
}
