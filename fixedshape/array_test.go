package fixedshape_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
)

func iota64(n int) []int64 {
	xs := make([]int64, n)
	for i := range xs {
		xs[i] = int64(i)
	}
	return xs
}

// logical returns the elements of a dense physical tensor in logical
// row-major order, computed naively from the definition L[i] = P[perm[i]].
func logical(phys []int64, shape, perm []int) []int64 {
	p := slices.Clone(perm)
	if p == nil {
		for i := range shape {
			p = append(p, i)
		}
	}
	pshape := make([]int, len(shape))
	for i, ax := range p {
		pshape[ax] = shape[i]
	}
	var out []int64
	idx := make([]int, len(shape))
	var rec func(k int)
	rec = func(k int) {
		if k == len(shape) {
			// physical index: pidx[perm[i]] = idx[i]
			pidx := make([]int, len(shape))
			for i, ax := range p {
				pidx[ax] = idx[i]
			}
			off := 0
			for ax := range pshape {
				off = off*pshape[ax] + pidx[ax]
			}
			out = append(out, phys[off])
			return
		}
		for idx[k] = 0; idx[k] < shape[k]; idx[k]++ {
			rec(k + 1)
		}
	}
	rec(0)
	return out
}

func TestBuilderAndViews(t *testing.T) {
	tests := []struct {
		name  string
		shape []int
		perm  []int
		names []string
		nulls []int
	}{
		{name: "0-D", shape: []int{}},
		{name: "vector", shape: []int{5}, nulls: []int{1}},
		{name: "non-square", shape: []int{3, 4}, names: []string{"x", "y"}},
		{name: "non-square transpose", shape: []int{4, 3}, perm: []int{1, 0}, nulls: []int{0, 2}},
		{name: "3-cycle", shape: []int{2, 3, 4}, perm: []int{2, 0, 1}, names: []string{"a", "b", "c"}, nulls: []int{3}},
		{name: "other 3-cycle", shape: []int{4, 7, 3}, perm: []int{1, 2, 0}},
		{name: "all null", shape: []int{2, 2}, nulls: []int{0, 1, 2, 3}},
	}
	const n = 4
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := testvec.CheckedMem(t)
			m := metadata.MustNew(tt.shape, tt.names, tt.perm)
			typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Int64, m)
			b, err := fixedshape.NewBuilder[int64](mem, typ)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Release()
			size := m.Size()
			all := iota64(n * size)
			for i := range n {
				if slices.Contains(tt.nulls, i) {
					b.AppendNull()
					continue
				}
				if err := b.Append(all[i*size : (i+1)*size]); err != nil {
					t.Fatal(err)
				}
			}
			if err := b.Append(all[:size+1]); !errors.Is(err, arrow.ErrInvalid) {
				t.Errorf("Append of %d elements: %v, want ErrInvalid", size+1, err)
			}
			arr := b.NewArray()
			defer arr.Release()
			if arr.Len() != n || arr.NullN() != len(tt.nulls) {
				t.Fatalf("Len, NullN = %d, %d", arr.Len(), arr.NullN())
			}
			if err := arr.Validate(); err != nil {
				t.Fatal(err)
			}
			col, err := fixedshape.ColumnOf[int64](arr)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := fixedshape.ColumnOf[float64](arr); !errors.Is(err, arrow.ErrInvalid) {
				t.Errorf("ColumnOf[float64]: %v, want ErrInvalid", err)
			}
			for i := range n {
				if col.IsNull(i) != slices.Contains(tt.nulls, i) {
					t.Errorf("IsNull(%d) = %v", i, col.IsNull(i))
				}
				if col.IsNull(i) {
					continue
				}
				tens := col.Tensor(i)
				phys := all[i*size : (i+1)*size]
				if diff := cmp.Diff(phys, tens.PhysicalData()); diff != "" {
					t.Errorf("tensor %d Data (-want +got):\n%s", i, diff)
				}
				want := logical(phys, tt.shape, tt.perm)
				if diff := cmp.Diff(want, slices.Collect(tens.All())); diff != "" {
					t.Errorf("tensor %d All (-want +got):\n%s", i, diff)
				}
				if diff := cmp.Diff(want, tens.AppendLogical(nil)); diff != "" {
					t.Errorf("tensor %d AppendLogical (-want +got):\n%s", i, diff)
				}
				if diff := cmp.Diff(tt.shape, tens.Shape(), equateEmpty); diff != "" {
					t.Errorf("Shape (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(m.ElemStrides(), tens.ElemStrides(), equateEmpty); diff != "" {
					t.Errorf("ElemStrides (-want +got):\n%s", diff)
				}
				// At agrees with All at every logical index.
				k := 0
				forEachIndex(tt.shape, func(idx []int) {
					if got := tens.At(idx...); got != want[k] {
						t.Errorf("tensor %d At%v = %d, want %d", i, idx, got, want[k])
					}
					k++
				})
			}
			// A logical view appends as the same tensor.
			b2, err := fixedshape.NewBuilder[int64](mem, typ)
			if err != nil {
				t.Fatal(err)
			}
			defer b2.Release()
			for i := range n {
				if col.IsNull(i) {
					b2.AppendNull()
				} else if err := b2.AppendTensor(col.Tensor(i)); err != nil {
					t.Fatal(err)
				}
			}
			arr2 := b2.NewArray()
			defer arr2.Release()
			if !fixedshape.Equal(arr, arr2) || !array.Equal(arr, arr2) {
				t.Errorf("rebuilt from views:\n%v\n%v", arr, arr2)
			}
		})
	}
}

func forEachIndex(shape []int, f func([]int)) {
	idx := make([]int, len(shape))
	var rec func(k int)
	rec = func(k int) {
		if k == len(shape) {
			f(idx)
			return
		}
		for idx[k] = 0; idx[k] < shape[k]; idx[k]++ {
			rec(k + 1)
		}
	}
	rec(0)
}

func TestAtPanics(t *testing.T) {
	m := metadata.MustNew([]int{2, 3}, nil, nil)
	tens, err := fixedshape.NewTensor(make([]float32, 6), m)
	if err != nil {
		t.Fatal(err)
	}
	for _, idx := range [][]int{{2, 0}, {0, 3}, {-1, 0}, {0}, {0, 0, 0}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("At%v did not panic", idx)
				}
			}()
			tens.At(idx...)
		}()
	}
	if _, err := fixedshape.NewTensor(make([]float32, 5), m); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("NewTensor of 5 elements for (2,3): %v", err)
	}
}

// TestSliced checks views of sliced arrays and of storage whose child has
// its own offset, and the Arrow C++ slice vector.
func TestSliced(t *testing.T) {
	mem := testvec.CheckedMem(t)
	m := metadata.MustNew([]int{3, 4}, []string{"x", "y"}, nil)
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Int64, m)
	b, _ := fixedshape.NewBuilder[int64](mem, typ)
	defer b.Release()
	all := iota64(36)
	for i := range 3 {
		if err := b.Append(all[i*12 : (i+1)*12]); err != nil {
			t.Fatal(err)
		}
	}
	arr := b.NewArray()
	defer arr.Release()

	// cpp-slice-1: tensors [0,2) of values 0..35 equal the array of 0..23.
	head := array.NewSlice(arr, 0, 2).(*fixedshape.Array)
	defer head.Release()
	want, err := fixedshape.FromSlice(typ, all[:24], nil)
	if err != nil {
		t.Fatal(err)
	}
	defer want.Release()
	if !fixedshape.Equal(head, want) || !array.Equal(head, want) {
		t.Errorf("slice [0,2):\n%v\nwant\n%v", head, want)
	}

	tail := array.NewSlice(arr, 1, 3).(*fixedshape.Array)
	defer tail.Release()
	col, err := fixedshape.ColumnOf[int64](tail)
	if err != nil {
		t.Fatal(err)
	}
	if got := col.Tensor(0).At(0, 0); got != 12 {
		t.Errorf("sliced tensor 0 At(0,0) = %d, want 12", got)
	}
	if diff := cmp.Diff(all[12:], col.Values()); diff != "" {
		t.Errorf("sliced Values (-want +got):\n%s", diff)
	}

	// Storage whose child starts at element 5 of its buffer.
	values := array.NewInt64Builder(mem)
	defer values.Release()
	values.AppendValues(iota64(5+24), nil)
	child := values.NewArray()
	defer child.Release()
	shifted := array.NewSlice(child, 5, 29)
	defer shifted.Release()
	fslData := array.NewData(typ.StorageType(), 2, []*memory.Buffer{nil}, []arrow.ArrayData{shifted.Data()}, 0, 0)
	defer fslData.Release()
	storage := array.MakeFromData(fslData)
	defer storage.Release()
	arr2, err := fixedshape.NewArray(typ, storage)
	if err != nil {
		t.Fatal(err)
	}
	defer arr2.Release()
	col2, err := fixedshape.ColumnOf[int64](arr2)
	if err != nil {
		t.Fatal(err)
	}
	if got := col2.Tensor(1).At(2, 3); got != 5+12+11 {
		t.Errorf("child-offset tensor 1 At(2,3) = %d, want %d", got, 5+12+11)
	}
	if got := arr2.ValueStr(0); got != "[[5,6,7,8],[9,10,11,12],[13,14,15,16]]" {
		t.Errorf("ValueStr(0) = %s", got)
	}
}

func TestValidate(t *testing.T) {
	mem := testvec.CheckedMem(t)
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Int32, metadata.MustNew([]int{2}, nil, nil))
	fsl := array.NewFixedSizeListBuilderWithField(mem, 2, arrow.Field{Name: "item", Type: arrow.PrimitiveTypes.Int32, Nullable: true})
	defer fsl.Release()
	vb := fsl.ValueBuilder().(*array.Int32Builder)
	fsl.Append(true)
	vb.AppendValues([]int32{1, 2}, nil)
	fsl.AppendNull() // appends two null elements: a null tensor may hold them
	fsl.Append(true)
	vb.Append(3)
	vb.AppendNull() // a valid tensor with a null element
	storage := fsl.NewArray()
	defer storage.Release()

	if _, err := fixedshape.NewArray(typ, storage); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("NewArray with a null element in a valid tensor: %v, want ErrInvalid", err)
	}
	head := array.NewSlice(storage, 0, 2)
	defer head.Release()
	arr, err := fixedshape.NewArray(typ, head)
	if err != nil {
		t.Fatalf("nulls inside a null tensor: %v", err)
	}
	defer arr.Release()
	if got := arr.ValueStr(1); got != array.NullValueStr {
		t.Errorf("ValueStr(null) = %s", got)
	}

	// A child shorter than the tensors need.
	short := array.NewInt32Builder(mem)
	defer short.Release()
	short.AppendValues([]int32{1, 2, 3}, nil)
	sc := short.NewArray()
	defer sc.Release()
	d := array.NewData(typ.StorageType(), 2, []*memory.Buffer{nil}, []arrow.ArrayData{sc.Data()}, 0, 0)
	defer d.Release()
	bad := array.MakeFromData(d)
	defer bad.Release()
	if _, err := fixedshape.NewArray(typ, bad); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("NewArray with a short child: %v, want ErrInvalid", err)
	}
	// Validity bitmaps that a reader took from its input: missing for a
	// null count, or shorter than the values; arrow-go reads them
	// unchecked.
	oneByte := memory.NewBufferBytes([]byte{0xff})
	twoBytes := memory.NewBufferBytes([]byte{0xff, 0xfe})
	bitmapTests := []struct {
		name                   string
		tensorBits             *memory.Buffer
		tensorNulls, tensorOff int
		elemBits               *memory.Buffer
		elemNulls, elemOff     int
		wantErr                bool
	}{
		{"tensor nulls without a bitmap", nil, 1, 0, nil, 0, 0, true},
		{"element nulls without a bitmap", nil, 0, 0, nil, 1, 0, true},
		{"tensor bitmap too short for the offset", oneByte, 1, 7, nil, 0, 0, true},  // tensors [7, 9): 2 bytes
		{"element bitmap too short for the offset", nil, 0, 0, oneByte, 1, 6, true}, // elements [6, 10): 2 bytes
		{"bitmaps that fit", twoBytes, 1, 7, nil, 0, 0, false},                      // tensor 8 is null
	}
	for _, tt := range bitmapTests {
		const tensors = 2
		elems := 2 * (tt.tensorOff + tensors)
		child := array.NewData(arrow.PrimitiveTypes.Int32, elems, []*memory.Buffer{tt.elemBits, memory.NewBufferBytes(make([]byte, 4*(tt.elemOff+elems)))}, nil, tt.elemNulls, tt.elemOff)
		d := array.NewData(typ.StorageType(), tensors, []*memory.Buffer{tt.tensorBits}, []arrow.ArrayData{child}, tt.tensorNulls, tt.tensorOff)
		child.Release()
		st := array.MakeFromData(d)
		d.Release()
		arr, err := fixedshape.NewArray(typ, st)
		st.Release()
		if got := errors.Is(err, arrow.ErrInvalid); got != tt.wantErr {
			t.Errorf("%s: NewArray error %v, want an ErrInvalid: %v", tt.name, err, tt.wantErr)
		}
		if arr != nil {
			arr.Release()
		}
	}

	// A storage of n tensors of 2**30 elements over an empty child: the
	// element count n*2**30 overflows a 32-bit int (to a negative number
	// for 3, to 0 for 4) and must still be refused.
	huge := fixedshape.MustNewType(arrow.PrimitiveTypes.Int8, metadata.MustNew([]int{1 << 30}, nil, nil))
	for _, n := range []int{1, 3, 4} {
		empty := array.NewData(arrow.PrimitiveTypes.Int8, 0, []*memory.Buffer{nil, nil}, nil, 0, 0)
		d := array.NewData(huge.StorageType(), n, []*memory.Buffer{nil}, []arrow.ArrayData{empty}, 0, 0)
		empty.Release()
		st := array.MakeFromData(d)
		d.Release()
		if arr, err := fixedshape.NewArray(huge, st); !errors.Is(err, arrow.ErrInvalid) {
			t.Errorf("NewArray of %d tensors of 2**30 elements over an empty child: %v, want ErrInvalid", n, err)
			if arr != nil {
				arr.Release()
			}
		}
		st.Release()
	}
	other := fixedshape.MustNewType(arrow.PrimitiveTypes.Int64, metadata.MustNew([]int{2}, nil, nil))
	if _, err := fixedshape.NewArray(other, storage); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("NewArray with int32 storage for int64: %v, want ErrInvalid", err)
	}
}

func TestFromSlice(t *testing.T) {
	typ := fixedshape.MustNewType(arrow.FixedWidthTypes.Float16, metadata.MustNew([]int{2, 2}, nil, []int{1, 0}))
	data := make([]float16.Num, 8)
	for i := range data {
		data[i] = float16.New(float32(i))
	}
	arr, err := fixedshape.FromSlice(typ, data, []bool{true, false})
	if err != nil {
		t.Fatal(err)
	}
	defer arr.Release()
	col, err := fixedshape.ColumnOf[float16.Num](arr)
	if err != nil {
		t.Fatal(err)
	}
	data[2] = float16.New(42) // the array aliases data
	if got := col.Tensor(0).At(0, 1).Float32(); got != 42 {
		t.Errorf("At(0,1) after writing data[2] = %v, want 42 (physical [1,0] is logical [0,1])", got)
	}
	if !arr.IsNull(1) || arr.NullN() != 1 {
		t.Errorf("validity not applied")
	}
	for _, tt := range []struct {
		name  string
		data  []float16.Num
		valid []bool
	}{
		{"partial tensor", data[:7], nil},
		{"validity length", data, []bool{true}},
	} {
		if _, err := fixedshape.FromSlice(typ, tt.data, tt.valid); !errors.Is(err, arrow.ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", tt.name, err)
		}
	}
	if _, err := fixedshape.FromSlice(typ, []float32{1, 2, 3, 4}, nil); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("float32 slice for float16 type: %v, want ErrInvalid", err)
	}
}

func TestEqualAcrossPermutations(t *testing.T) {
	mem := testvec.CheckedMem(t)
	// The same logical 2x3 tensor stored row-major and transposed.
	rowMajor := fixedshape.MustNewType(arrow.PrimitiveTypes.Int64, metadata.MustNew([]int{2, 3}, nil, nil))
	transposed := fixedshape.MustNewType(arrow.PrimitiveTypes.Int64, metadata.MustNew([]int{2, 3}, []string{"r", "c"}, []int{1, 0}))
	a, _ := fixedshape.FromSlice(rowMajor, []int64{1, 2, 3, 4, 5, 6, 0, 0, 0, 0, 0, 0}, []bool{true, false})
	defer a.Release()
	b, _ := fixedshape.FromSlice(transposed, []int64{1, 4, 2, 5, 3, 6, 9, 9, 9, 9, 9, 9}, []bool{true, false})
	defer b.Release()
	if !fixedshape.Equal(a, b) {
		t.Errorf("logically equal columns reported different:\n%v\n%v", a, b)
	}
	c, _ := fixedshape.FromSlice(transposed, []int64{1, 2, 3, 4, 5, 6, 0, 0, 0, 0, 0, 0}, []bool{true, false})
	defer c.Release()
	if fixedshape.Equal(a, c) {
		t.Errorf("different values reported equal")
	}
	d, _ := fixedshape.FromSlice(rowMajor, []int64{1, 2, 3, 4, 5, 6, 0, 0, 0, 0, 0, 0}, nil)
	defer d.Release()
	if fixedshape.Equal(a, d) {
		t.Errorf("different nulls reported equal")
	}
	if got, want := b.ValueStr(0), "[[1,2,3],[4,5,6]]"; got != want {
		t.Errorf("ValueStr of the transposed tensor = %s, want %s (logical order)", got, want)
	}
	_ = mem
}

func TestMarshalJSON(t *testing.T) {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Int8, metadata.MustNew([]int{2, 2}, nil, []int{1, 0}))
	arr, _ := fixedshape.FromSlice(typ, []int8{1, 3, 2, 4, 0, 0, 0, 0}, []bool{true, false})
	defer arr.Release()
	b, err := arr.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), `[[[1,2],[3,4]],null]`; got != want {
		t.Errorf("MarshalJSON = %s, want %s", got, want)
	}
	scalar := fixedshape.MustNewType(arrow.PrimitiveTypes.Float64, metadata.Metadata{})
	s, _ := fixedshape.FromSlice(scalar, []float64{1.5, -2}, nil)
	defer s.Release()
	if got := s.ValueStr(1); got != "-2" {
		t.Errorf("0-D ValueStr = %s, want -2", got)
	}
	if b, _ := s.MarshalJSON(); string(b) != `[1.5,-2]` {
		t.Errorf("0-D MarshalJSON = %s", b)
	}
}

func TestNewArrayFromBuffer(t *testing.T) {
	mem := testvec.CheckedMem(t)
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Int16, metadata.MustNew([]int{2, 3}, nil, []int{1, 0}))
	buf := memory.NewResizableBuffer(mem)
	defer buf.Release()
	buf.Resize(2 * 6 * 2)
	vals := []int16{1, 4, 2, 5, 3, 6, 7, 10, 8, 11, 9, 12}
	for i, v := range vals {
		buf.Bytes()[2*i], buf.Bytes()[2*i+1] = byte(v), byte(v>>8)
	}
	arr, err := fixedshape.NewArrayFromBuffer(typ, 2, buf)
	if err != nil {
		t.Fatal(err)
	}
	defer arr.Release()
	if got := arr.ValueStr(1); got != "[[7,8,9],[10,11,12]]" {
		t.Errorf("ValueStr(1) = %s", got)
	}
	// 3 tensors overrun the buffer; MaxInt/2+1 tensors overflow int in
	// n*ListSize and MaxInt/6 in n*ListSize*ElemWidth, on either word size.
	for _, n := range []int{3, -1, math.MaxInt/2 + 1, math.MaxInt / 6} {
		if _, err := fixedshape.NewArrayFromBuffer(typ, n, buf); !errors.Is(err, arrow.ErrInvalid) {
			t.Errorf("n=%d: %v, want ErrInvalid", n, err)
		}
	}
}
