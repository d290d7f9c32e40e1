package arrowconv_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/arrowconv"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/pyrun"
	"github.com/fstensor/fstensor/metadata"
)

// withNullElems returns arr with the same buffers and a validity bitmap
// on its storage child in which the physical elements at the given
// positions of the child (tensor-major, the child's offset excluded) are
// null, as an IPC reader or a foreign producer can hand it over:
// fixedshape.NewArray would refuse it. The caller releases it.
func withNullElems(t testing.TB, mem memory.Allocator, arr *fixedshape.Array, elems []int) *fixedshape.Array {
	t.Helper()
	st := arr.Storage().Data()
	child := st.Children()[0]
	bm := memory.NewResizableBuffer(mem)
	defer bm.Release()
	bm.Resize(int(bitutil.BytesForBits(int64(child.Offset() + child.Len()))))
	bitutil.SetBitsTo(bm.Bytes(), 0, int64(child.Offset()+child.Len()), true)
	for _, k := range elems {
		bitutil.ClearBit(bm.Bytes(), child.Offset()+k)
	}
	nc := array.NewData(child.DataType(), child.Len(), []*memory.Buffer{bm, child.Buffers()[1]}, nil, len(elems), child.Offset())
	defer nc.Release()
	d := array.NewData(arr.DataType(), st.Len(), st.Buffers(), []arrow.ArrayData{nc}, st.NullN(), st.Offset())
	defer d.Release()
	return array.MakeFromData(d).(*fixedshape.Array)
}

// shiftChild returns arr without its first co tensors, dropped by an
// offset of co tensors on the storage child (the storage keeps offset 0
// and has no validity bitmap). The caller releases it.
func shiftChild(arr *fixedshape.Array, co int) *fixedshape.Array {
	st := arr.Storage().Data()
	size := arr.TensorType().ListSize()
	child := array.NewSliceData(st.Children()[0], int64(co*size), int64(st.Children()[0].Len()))
	defer child.Release()
	d := array.NewData(arr.DataType(), st.Len()-co, []*memory.Buffer{nil}, []arrow.ArrayData{child}, 0, 0)
	defer d.Release()
	return array.MakeFromData(d).(*fixedshape.Array)
}

// TestSlotTensorNullElements converts, tensor by tensor, columns whose
// valid tensors hold null elements: the tensors without a null element
// convert, sharing the values, and only those with one (or null ones)
// are refused; the whole column is refused by ToTensor as a whole.
func TestSlotTensorNullElements(t *testing.T) {
	tests := []struct {
		name      string
		shape     []int
		perm      []int
		n         int
		valid     []bool
		nullElems []int    // physical positions in the child
		childOff  int      // tensors dropped by an offset of the child (no nulls allowed)
		slice     [2]int64 // when not zero, the column converted is this slice
		wantBad   []int    // tensors SlotTensor refuses (of the slice)
	}{
		{name: "row 1 of 3, one null element", shape: []int{2, 3}, n: 3, nullElems: []int{6 + 4}, wantBad: []int{1}},
		{name: "non-square transpose", shape: []int{2, 3}, perm: []int{1, 0}, n: 3, nullElems: []int{6 + 4, 6 + 5}, wantBad: []int{1}},
		{name: "3-cycle", shape: []int{2, 3, 4}, perm: []int{2, 0, 1}, n: 3, nullElems: []int{2*24 + 23}, wantBad: []int{2}},
		{name: "0-D", shape: []int{}, n: 4, nullElems: []int{1, 3}, wantBad: []int{1, 3}},
		{name: "first and last element of a row", shape: []int{4}, n: 3, nullElems: []int{4, 7}, wantBad: []int{1}},
		{name: "sliced", shape: []int{2, 2}, n: 6, nullElems: []int{3*4 + 1}, slice: [2]int64{2, 5}, wantBad: []int{1}},
		{name: "sliced off a byte boundary", shape: []int{3}, n: 9, nullElems: []int{5*3 + 2, 8 * 3}, slice: [2]int64{3, 9}, wantBad: []int{2, 5}},
		{name: "null elements only outside the slice", shape: []int{2}, n: 4, nullElems: []int{0, 7}, slice: [2]int64{1, 3}},
		{name: "sliced, null tensors", shape: []int{2}, n: 8, valid: []bool{true, true, true, true, true, false, true, true}, nullElems: []int{10, 11, 15}, slice: [2]int64{4, 8}, wantBad: []int{1, 3}},
		{name: "child offset", shape: []int{2, 2}, n: 4, nullElems: []int{2*4 + 3}, childOff: 1, wantBad: []int{1}},
		{name: "child offset, sliced", shape: []int{2, 2}, n: 5, nullElems: []int{3*4 + 0}, childOff: 1, slice: [2]int64{1, 4}, wantBad: []int{1}},
		{name: "null tensor with null elements", shape: []int{2}, n: 3, valid: []bool{true, false, true}, nullElems: []int{2, 3}, wantBad: []int{1}},
		{name: "null tensor, null element in another", shape: []int{2}, n: 3, valid: []bool{false, true, true}, nullElems: []int{5}, wantBad: []int{0, 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			m := metadata.MustNew(tc.shape, nil, tc.perm)
			plain := seqColumn(t, mem, fixedshape.MustNewType(arrow.PrimitiveTypes.Int32, m), tc.n, tc.valid)
			defer plain.Release()
			arr := withNullElems(t, mem, plain, tc.nullElems)
			defer arr.Release()
			first := 0
			if tc.childOff > 0 {
				s := shiftChild(arr, tc.childOff)
				defer s.Release()
				arr, first = s, tc.childOff
			}
			if tc.slice != [2]int64{} {
				s := array.NewSlice(arr, tc.slice[0], tc.slice[1]).(*fixedshape.Array)
				defer s.Release()
				arr, first = s, first+int(tc.slice[0])
			}
			var bad []int
			for i := range arr.Len() {
				st, err := arrowconv.SlotTensor(arr, i)
				if err != nil {
					if !errors.Is(err, arrow.ErrInvalid) {
						t.Errorf("tensor %d: err = %v, want arrow.ErrInvalid", i, err)
					}
					bad = append(bad, i)
					continue
				}
				if &tensorBytes(st)[0] != &plain.ValueBytes()[(first+i)*m.Size()*4] {
					t.Errorf("tensor %d: SlotTensor copied the values", i)
				}
				checkTensorValues(t, st, m, first+i, false)
				st.Release()
			}
			if diff := cmp.Diff(tc.wantBad, bad); diff != "" {
				t.Errorf("tensors refused (-want +got):\n%s", diff)
			}
			// Whole-column conversion refuses any null, tensor or element.
			tt, err := arrowconv.ToTensor(arr)
			if len(tc.wantBad) > 0 {
				if !errors.Is(err, arrow.ErrInvalid) {
					t.Errorf("ToTensor err = %v, want arrow.ErrInvalid", err)
				}
			} else if err != nil {
				t.Errorf("ToTensor of a column without nulls: %v", err)
			}
			if tt != nil {
				tt.Release()
			}
		})
	}
}

// TestSlotTensorNullElementsSizeZero covers the size-0 dimension of the
// house tables: such a type cannot be made (arrow-go has no FixedSizeList
// of size 0), so there is no column to convert.
func TestSlotTensorNullElementsSizeZero(t *testing.T) {
	_, err := fixedshape.NewType(arrow.PrimitiveTypes.Int32, metadata.MustNew([]int{2, 0}, nil, nil))
	if !errors.Is(err, arrow.ErrNotImplemented) {
		t.Fatalf("NewType of shape (2,0): err = %v, want arrow.ErrNotImplemented", err)
	}
}

// newBitmap returns a validity bitmap of nbits bits, all set but those
// listed, from mem; it is released when the test ends, after the arrays
// that hold it.
func newBitmap(t *testing.T, mem memory.Allocator, nbits int, clear ...int) *memory.Buffer {
	bm := memory.NewResizableBuffer(mem)
	t.Cleanup(bm.Release)
	bm.Resize(int(bitutil.BytesForBits(int64(nbits))))
	bitutil.SetBitsTo(bm.Bytes(), 0, int64(nbits), true)
	for _, k := range clear {
		bitutil.ClearBit(bm.Bytes(), k)
	}
	return bm
}

// TestSlotTensorShortBuffers checks that the buffers SlotTensor reads are
// checked first: short or missing bitmaps and a short values buffer are
// errors, not panics, for the tensors they fail and not for the others.
func TestSlotTensorShortBuffers(t *testing.T) {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Int16, metadata.MustNew([]int{3, 3}, nil, nil))
	type buffers struct {
		tensorBits, elemBits, values *memory.Buffer // nil: none, or the column's values
		nulls, elemNulls             int
	}
	tests := []struct {
		name    string
		n       int
		bufs    func(t *testing.T, mem memory.Allocator, values *memory.Buffer) buffers
		wantBad []int
	}{
		{
			name: "element bitmap short", n: 3,
			bufs: func(t *testing.T, mem memory.Allocator, values *memory.Buffer) buffers {
				// Bits for elements 0..15: tensor 0 (0..8) only.
				return buffers{elemBits: newBitmap(t, mem, 16, 15), elemNulls: 1}
			},
			wantBad: []int{1, 2},
		},
		{
			name: "element bitmap missing with nulls", n: 2,
			bufs: func(t *testing.T, mem memory.Allocator, values *memory.Buffer) buffers {
				return buffers{elemNulls: 1}
			},
			wantBad: []int{0, 1},
		},
		{
			name: "tensor bitmap short", n: 9,
			bufs: func(t *testing.T, mem memory.Allocator, values *memory.Buffer) buffers {
				// Bits for tensors 0..7; tensor 2 is null.
				return buffers{tensorBits: newBitmap(t, mem, 8, 2), nulls: 1}
			},
			wantBad: []int{2, 8},
		},
		{
			name: "values buffer short", n: 3,
			bufs: func(t *testing.T, mem memory.Allocator, values *memory.Buffer) buffers {
				// Tensors 0 and 1 and one byte of tensor 2.
				return buffers{values: memory.NewBufferBytes(values.Bytes()[:2*9*2+1])}
			},
			wantBad: []int{2},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mem := checkedMem(t)
			plain := seqColumn(t, mem, typ, tc.n, nil)
			defer plain.Release()
			st := plain.Storage().Data()
			child := st.Children()[0]
			b := tc.bufs(t, mem, child.Buffers()[1])
			if b.values == nil {
				b.values = child.Buffers()[1]
			}
			nc := array.NewData(child.DataType(), child.Len(), []*memory.Buffer{b.elemBits, b.values}, nil, b.elemNulls, child.Offset())
			defer nc.Release()
			d := array.NewData(plain.DataType(), st.Len(), []*memory.Buffer{b.tensorBits}, []arrow.ArrayData{nc}, b.nulls, st.Offset())
			defer d.Release()
			arr := array.MakeFromData(d).(*fixedshape.Array)
			defer arr.Release()
			var bad []int
			for i := range arr.Len() {
				tt, err := arrowconv.SlotTensor(arr, i)
				if err != nil {
					if !errors.Is(err, arrow.ErrInvalid) {
						t.Errorf("tensor %d: err = %v, want arrow.ErrInvalid", i, err)
					}
					bad = append(bad, i)
					continue
				}
				tt.Release()
			}
			if diff := cmp.Diff(tc.wantBad, bad); diff != "" {
				t.Errorf("tensors refused (-want +got):\n%s", diff)
			}
		})
	}
}

func ExampleSlotTensor_nullElement() {
	// Three 2x2 tensors; element [1 0] of tensor 1 is null, as a foreign
	// producer may send it (fixedshape.NewArray refuses such a column).
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{2, 2}, nil, nil))
	values := memory.NewBufferBytes(arrow.Float32Traits.CastToBytes(make([]float32, 12)))
	valid := memory.NewBufferBytes([]byte{0b1011_1111, 0b1111})
	child := array.NewData(typ.ElemType(), 12, []*memory.Buffer{valid, values}, nil, 1, 0)
	defer child.Release()
	data := array.NewData(typ, 3, []*memory.Buffer{nil}, []arrow.ArrayData{child}, 0, 0)
	defer data.Release()
	arr := array.MakeFromData(data).(*fixedshape.Array)
	defer arr.Release()
	for i := range arr.Len() {
		t, err := arrowconv.SlotTensor(arr, i)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(i, t.Shape())
		t.Release()
	}
	_, err := arrowconv.ToTensor(arr)
	fmt.Println(err != nil)
	// Output:
	// 0 [2 2]
	// arrowconv: slot tensor: tensor 1 has a null element at index [1 0] (element 2 in storage order); a tensor cannot represent nulls
	// 2 [2 2]
	// true
}

// slotPyScript writes, as an IPC stream, tensor columns whose valid
// tensors hold null elements, and in the schema metadata key "outcomes"
// what pyarrow's FixedShapeTensorScalar.to_numpy (Arrow C++'s
// FixedShapeTensorType::MakeTensor) gives for each tensor of each column
// and of its slice [1:]: the elements in logical C order, or null when it
// refuses the tensor.
const slotPyScript = `
import json, sys
import pyarrow as pa

def outcomes(arr):
    out = []
    for i in range(len(arr)):
        try:
            out.append([float(v) for v in arr[i].to_numpy().ravel()])
        except pa.ArrowInvalid:
            out.append(None)
    return out

cols = {
    "m": pa.ExtensionArray.from_storage(pa.fixed_shape_tensor(pa.int32(), [2, 2]),
        pa.array([[0, 1, 2, 3], [4, None, 6, 7], [8, 9, 10, 11], None, [16, 17, 18, None]], pa.list_(pa.int32(), 4))),
    "s": pa.ExtensionArray.from_storage(pa.fixed_shape_tensor(pa.float64(), []),
        pa.array([[1.0], [None], [3.0], [None], [5.0]], pa.list_(pa.float64(), 1))),
    "v": pa.ExtensionArray.from_storage(pa.fixed_shape_tensor(pa.int16(), [3]),
        pa.array([[None, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10, None], [12, 13, 14]], pa.list_(pa.int16(), 3))),
}
res = {name: outcomes(a) for name, a in cols.items()}
res.update({name + "[1:]": outcomes(a[1:]) for name, a in cols.items()})
schema = pa.schema([(n, a.type) for n, a in cols.items()], metadata={"outcomes": json.dumps(res)})
w = pa.ipc.new_stream(sys.stdout.buffer, schema)
w.write_batch(pa.record_batch(list(cols.values()), schema=schema))
w.close()
`

// TestSlotTensorMatchesPyarrow converts, tensor by tensor, columns pyarrow
// wrote with null elements inside valid tensors (read with arrow-go's own
// IPC reader, which does not refuse them) and checks that SlotTensor
// converts exactly the tensors pyarrow converts, to the same values, in
// the columns and in their slices [1:].
func TestSlotTensorMatchesPyarrow(t *testing.T) {
	out := pyrun.Run(t, slotPyScript, nil, []string{"pyarrow"})
	mem := checkedMem(t)
	r, err := ipc.NewReader(bytes.NewReader(out), ipc.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Release()
	raw, _ := r.Schema().Metadata().GetValue("outcomes")
	var want map[string][][]float64
	if err := json.Unmarshal([]byte(raw), &want); err != nil {
		t.Fatal(err)
	}
	if !r.Next() {
		t.Fatalf("no batch: %v", r.Err())
	}
	rec := r.RecordBatch()
	for c, f := range rec.Schema().Fields() {
		col, ok := rec.Column(c).(*fixedshape.Array)
		if !ok {
			t.Fatalf("column %s is %T", f.Name, rec.Column(c))
		}
		slice := array.NewSlice(col, 1, int64(col.Len())).(*fixedshape.Array)
		defer slice.Release()
		for name, arr := range map[string]*fixedshape.Array{f.Name: col, f.Name + "[1:]": slice} {
			t.Run(name, func(t *testing.T) {
				var got [][]float64
				for i := range arr.Len() {
					st, err := arrowconv.SlotTensor(arr, i)
					if err != nil {
						if !errors.Is(err, arrow.ErrInvalid) {
							t.Errorf("tensor %d: err = %v, want arrow.ErrInvalid", i, err)
						}
						got = append(got, nil)
						continue
					}
					vals := []float64{}
					for _, idx := range indices(ints64(st.Shape())) {
						vals = append(vals, tensorAt(st, idx))
					}
					got = append(got, vals)
					st.Release()
				}
				if diff := cmp.Diff(want[name], got); diff != "" {
					t.Errorf("tensors (nil: refused) (-pyarrow +SlotTensor):\n%s", diff)
				}
			})
		}
	}
}

// BenchmarkSlotTensor converts one tensor of columns 100x apart in size
// whose child has nulls (the elements of every tenth tensor, itself
// null): the check reads the validity bits of that tensor only, so the
// cost does not grow with the column.
func BenchmarkSlotTensor(b *testing.B) {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{16, 16}, nil, nil))
	for _, n := range []int{100, 10000} {
		mem := memory.NewGoAllocator()
		valid := make([]bool, n)
		var nulls []int
		for i := range valid {
			valid[i] = i%10 != 0
			if !valid[i] {
				for k := range typ.ListSize() {
					nulls = append(nulls, i*typ.ListSize()+k)
				}
			}
		}
		plain := seqColumn(b, mem, typ, n, valid)
		arr := withNullElems(b, mem, plain, nulls)
		b.Run(fmt.Sprintf("op=slot_tensor/dtype=float32/shape=%dx16x16", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				t, err := arrowconv.SlotTensor(arr, n/2+1)
				if err != nil {
					b.Fatal(err)
				}
				t.Release()
			}
		})
		arr.Release()
		plain.Release()
	}
}
