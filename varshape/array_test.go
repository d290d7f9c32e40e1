package varshape_test

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/varshape"
)

// iota returns n values start, start+1, ...
func iota(start, n int) []int32 {
	v := make([]int32, n)
	for i := range v {
		v[i] = int32(start + i)
	}
	return v
}

func prod(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

// logical returns the elements of row i of c in logical order.
func logical[T fixedshape.Elem](c *varshape.Column[T], i int) []T {
	return c.Tensor(i).AppendLogical(nil)
}

func TestBuildAndView(t *testing.T) {
	i32 := arrow.PrimitiveTypes.Int32
	tests := []struct {
		name   string
		o      varshape.Options
		shapes [][]int // logical; nil = null row
	}{
		{"identity", varshape.Options{}, [][]int{{2, 3}, {1, 4}, nil, {3, 3}}},
		{"transpose", varshape.Options{Permutation: []int{1, 0}, DimNames: []string{"h", "w"}}, [][]int{{2, 3}, {4, 1}, {3, 2}}},
		{"3-cycle", varshape.Options{Permutation: []int{2, 0, 1}}, [][]int{{2, 3, 4}, {1, 2, 3}, nil, {4, 3, 2}}},
		{"size-0", varshape.Options{}, [][]int{{0, 3}, {2, 0}, {1, 1}}},
		{"uniform", varshape.Options{UniformShape: []int{-1, 3}}, [][]int{{1, 3}, nil, {4, 3}}},
		{"all-null", varshape.Options{}, [][]int{nil, nil}},
		{"empty", varshape.Options{}, [][]int{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := testvec.CheckedMem(t)
			nd := 2
			if len(tt.o.Permutation) > 0 {
				nd = len(tt.o.Permutation)
			}
			typ := varshape.MustNewType(i32, nd, tt.o)
			vals := make([][]int32, len(tt.shapes))
			for i, s := range tt.shapes {
				if s != nil {
					vals[i] = iota(100*i, prod(s))
				}
			}
			arr, err := varshape.FromSlices(mem, typ, tt.shapes, vals)
			if err != nil {
				t.Fatal(err)
			}
			defer arr.Release()
			if err := arr.Validate(); err != nil {
				t.Fatal(err)
			}
			for _, off := range []int{0, 1} {
				if off > arr.Len() {
					continue
				}
				sl := array.NewSlice(arr, int64(off), int64(arr.Len())).(*varshape.Array)
				col, err := varshape.ColumnOf[int32](sl)
				if err != nil {
					sl.Release()
					t.Fatal(err)
				}
				for i := off; i < arr.Len(); i++ {
					if tt.shapes[i] == nil {
						if !col.IsNull(i - off) {
							t.Errorf("row %d not null", i)
						}
						continue
					}
					if diff := cmp.Diff(tt.shapes[i], col.Tensor(i-off).Shape()); diff != "" {
						t.Errorf("slice %d row %d shape (-want +got):\n%s", off, i, diff)
					}
					if diff := cmp.Diff(tt.shapes[i], sl.Shape(nil, i-off)); diff != "" {
						t.Errorf("slice %d row %d Shape (-want +got):\n%s", off, i, diff)
					}
					if diff := cmp.Diff(vals[i], logical(col, i-off), cmp.Comparer(func(a, b []int32) bool { return slices.Equal(a, b) })); diff != "" {
						t.Errorf("slice %d row %d values (-want +got):\n%s", off, i, diff)
					}
				}
				sl.Release()
			}
		})
	}
}

// TestPhysicalStorage checks that the shape column holds physical shapes
// and the data the physical row-major elements.
func TestPhysicalStorage(t *testing.T) {
	mem := testvec.CheckedMem(t)
	typ := varshape.MustNewType(arrow.PrimitiveTypes.Int32, 2, varshape.Options{Permutation: []int{1, 0}})
	arr, err := varshape.FromSlices(mem, typ, [][]int{{2, 3}}, [][]int32{{0, 1, 2, 3, 4, 5}})
	if err != nil {
		t.Fatal(err)
	}
	defer arr.Release()
	if diff := cmp.Diff([]int{3, 2}, arr.PhysicalShape(nil, 0)); diff != "" {
		t.Errorf("physical shape (-want +got):\n%s", diff)
	}
	col, _ := varshape.ColumnOf[int32](arr)
	// Logical [[0,1,2],[3,4,5]] stored as its transpose.
	if diff := cmp.Diff([]int32{0, 3, 1, 4, 2, 5}, col.Tensor(0).PhysicalData()); diff != "" {
		t.Errorf("physical data (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{1, 2}, col.Tensor(0).ElemStrides()); diff != "" {
		t.Errorf("strides (-want +got):\n%s", diff)
	}
	if got, want := arr.ValueStr(0), "(2,3):[[0,1,2],[3,4,5]]"; got != want {
		t.Errorf("ValueStr = %s, want %s", got, want)
	}
}

func TestAppendErrors(t *testing.T) {
	mem := testvec.CheckedMem(t)
	typ := varshape.MustNewType(arrow.PrimitiveTypes.Int32, 2, varshape.Options{UniformShape: []int{-1, 3}})
	tests := []struct {
		name  string
		shape []int
		n     int
	}{
		{"ndim", []int{6}, 6},
		{"negative", []int{-1, 3}, 0},
		{"uniform", []int{2, 2}, 4},
		{"count", []int{2, 3}, 5},
		{"overflow", []int{math.MaxInt / 2, 3}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := varshape.NewBuilder[int32](mem, typ)
			if err != nil {
				t.Fatal(err)
			}
			if err := b.Append(tt.shape, make([]int32, tt.n)); !errors.Is(err, arrow.ErrInvalid) {
				t.Errorf("got %v, want ErrInvalid", err)
			}
			b.NewArray().Release()
		})
	}
	if _, err := varshape.NewBuilder[float32](mem, typ); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("element type: got %v", err)
	}
}

// storage builds a struct storage array from raw parts, for validation.
func storage(mem memory.Allocator, nd int, offs []int32, shapes []int32, valid []bool) arrow.Array {
	st := varshape.StorageOf(arrow.PrimitiveTypes.Int32, nd).(*arrow.StructType)
	b := array.NewStructBuilder(mem, st)
	defer b.Release()
	lb := b.FieldBuilder(0).(*array.ListBuilder)
	vb := lb.ValueBuilder().(*array.Int32Builder)
	sb := b.FieldBuilder(1).(*array.FixedSizeListBuilder)
	svb := sb.ValueBuilder().(*array.Int32Builder)
	for i := range valid {
		b.Append(valid[i])
		lb.Append(true)
		for k := offs[i]; k < offs[i+1]; k++ {
			vb.Append(k)
		}
		sb.Append(true)
		svb.AppendValues(shapes[i*nd:(i+1)*nd], nil)
	}
	return b.NewArray()
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name    string
		offs    []int32
		shapes  []int32
		valid   []bool
		uniform []int
		wantErr bool
	}{
		{"ok", []int32{0, 6, 8}, []int32{2, 3, 1, 2}, []bool{true, true}, nil, false},
		{"count", []int32{0, 6, 8}, []int32{2, 3, 1, 3}, []bool{true, true}, nil, true},
		{"negative", []int32{0, 6, 6}, []int32{2, 3, -1, 0}, []bool{true, true}, nil, true},
		{"null-row-unchecked", []int32{0, 6, 6}, []int32{2, 3, -1, 7}, []bool{true, false}, nil, false},
		{"uniform", []int32{0, 6, 8}, []int32{2, 3, 1, 2}, []bool{true, true}, []int{-1, 3}, true},
		{"overflow", []int32{0, 6, 6}, []int32{2, 3, 1 << 30, 1 << 30}, []bool{true, true}, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := testvec.CheckedMem(t)
			s := storage(mem, 2, tt.offs, tt.shapes, tt.valid)
			defer s.Release()
			typ := varshape.MustNewType(arrow.PrimitiveTypes.Int32, 2, varshape.Options{UniformShape: tt.uniform})
			arr, err := varshape.NewArray(typ, s)
			if tt.wantErr {
				if !errors.Is(err, arrow.ErrInvalid) {
					t.Errorf("got %v, want ErrInvalid", err)
				}
				if arr != nil {
					arr.Release()
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			arr.Release()
		})
	}
}

func TestFixedConversions(t *testing.T) {
	mem := testvec.CheckedMem(t)
	ft := fixedshape.MustNewType(arrow.PrimitiveTypes.Int32, metadata.MustNew([]int{2, 3, 4}, []string{"a", "b", "c"}, []int{2, 0, 1}))
	b, err := fixedshape.NewBuilder[int32](mem, ft)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		if i == 2 {
			b.AppendNull()
			continue
		}
		if err := b.Append(iota(100*i, 24)); err != nil {
			t.Fatal(err)
		}
	}
	full := b.NewArray()
	b.Release()
	defer full.Release()
	fixed := array.NewSlice(full, 1, 5).(*fixedshape.Array)
	defer fixed.Release()

	v, err := varshape.FromFixed(mem, fixed)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Release()
	if err := v.Validate(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{2, 3, 4}, v.TensorType().UniformShape()); diff != "" {
		t.Errorf("uniform (-want +got):\n%s", diff)
	}
	fc, _ := fixedshape.ColumnOf[int32](fixed)
	vc, err := varshape.ColumnOf[int32](v)
	if err != nil {
		t.Fatal(err)
	}
	for i := range fixed.Len() {
		if fixed.IsNull(i) != v.IsNull(i) {
			t.Fatalf("row %d null mismatch", i)
		}
		if fixed.IsNull(i) {
			continue
		}
		if diff := cmp.Diff(fc.Tensor(i).AppendLogical(nil), vc.Tensor(i).AppendLogical(nil)); diff != "" {
			t.Errorf("row %d (-want +got):\n%s", i, diff)
		}
		if &fc.Tensor(i).PhysicalData()[0] != &vc.Tensor(i).PhysicalData()[0] {
			t.Errorf("row %d was copied", i)
		}
	}
	back, err := varshape.ToFixed(mem, v)
	if err != nil {
		t.Fatal(err)
	}
	defer back.Release()
	if !arrow.TypeEqual(back.DataType(), fixed.DataType()) || !bytes.Equal(back.ValueBytes(), fixed.ValueBytes()) {
		t.Errorf("ToFixed gave %v", back)
	}
	if &back.ValueBytes()[0] != &fixed.ValueBytes()[0] {
		t.Errorf("ToFixed copied a dense column")
	}

	// A null row without elements forces a copy; a differing row fails.
	typ := varshape.MustNewType(arrow.PrimitiveTypes.Int32, 2, varshape.Options{})
	same, err := varshape.FromSlices(mem, typ, [][]int{{2, 2}, nil, {2, 2}}, [][]int32{{1, 2, 3, 4}, nil, {5, 6, 7, 8}})
	if err != nil {
		t.Fatal(err)
	}
	defer same.Release()
	cp, err := varshape.ToFixed(mem, same)
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Release()
	if got, want := cp.String(), "[[[1,2],[3,4]] (null) [[5,6],[7,8]]]"; got != want {
		t.Errorf("copied ToFixed = %s, want %s", got, want)
	}
	diff, err := varshape.FromSlices(mem, typ, [][]int{{2, 2}, {2, 2}, {1, 4}}, [][]int32{{1, 2, 3, 4}, {1, 2, 3, 4}, {1, 2, 3, 4}})
	if err != nil {
		t.Fatal(err)
	}
	defer diff.Release()
	if _, err := varshape.ToFixed(mem, diff); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("differing rows: got %v", err)
	} else {
		t.Log(err)
	}
	row, err := diff.Row(2)
	if err != nil {
		t.Fatal(err)
	}
	defer row.Release()
	if got, want := row.String(), "[[[1,2,3,4]]]"; got != want {
		t.Errorf("Row(2) = %s, want %s", got, want)
	}
}

func TestIPCRoundTrip(t *testing.T) {
	mem := testvec.CheckedMem(t)
	typ := varshape.MustNewType(arrow.PrimitiveTypes.Float32, 3, varshape.Options{
		DimNames: []string{"c", "h", "w"}, Permutation: []int{2, 0, 1}, UniformShape: []int{3, -1, -1}})
	shapes := [][]int{{3, 2, 2}, nil, {3, 1, 4}, {3, 0, 2}, {3, 2, 5}}
	vals := make([][]float32, len(shapes))
	for i, s := range shapes {
		for k := range prod(s) {
			vals[i] = append(vals[i], float32(i*100+k))
		}
	}
	full, err := varshape.FromSlices(mem, typ, shapes, vals)
	if err != nil {
		t.Fatal(err)
	}
	defer full.Release()
	arr := array.NewSlice(full, 1, 5)
	defer arr.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "t", Type: typ, Nullable: true}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{arr}, int64(arr.Len()))
	defer rec.Release()
	var buf bytes.Buffer
	w, err := ipc.NewFileWriter(&buf, ipc.WithSchema(schema), ipc.WithAllocator(mem), ipc.WithZstd())
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	back := readIPCFile(t, mem, bytes.NewReader(buf.Bytes()))
	defer back.Release()
	if !arrow.TypeEqual(back.DataType(), typ) {
		t.Errorf("type %v, want %v", back.DataType(), typ)
	}
	if err := back.Validate(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(arr.(*varshape.Array).String(), back.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// readIPCFile reads column 0 of the first batch of the IPC file f, which
// must be a variable-shape column; the caller releases it.
func readIPCFile(t *testing.T, mem memory.Allocator, f ipc.ReadAtSeeker) *varshape.Array {
	t.Helper()
	r, err := ipc.NewFileReader(f, ipc.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rec, err := r.Record(0)
	if err != nil {
		t.Fatal(err)
	}
	col, ok := rec.Column(0).(*varshape.Array)
	if !ok {
		t.Fatalf("read %v", rec.Column(0).DataType())
	}
	col.Retain()
	return col
}

func TestShapes(t *testing.T) {
	mem := testvec.CheckedMem(t)
	typ := varshape.MustNewType(arrow.PrimitiveTypes.Int32, 2, varshape.Options{Permutation: []int{1, 0}})
	shapes := [][]int{{2, 3}, {1, 1}, nil, {2, 3}, {0, 4}, {1, 1}, {2, 3}}
	vals := make([][]int32, len(shapes))
	for i, s := range shapes {
		vals[i] = iota(0, prod(s))
	}
	arr, err := varshape.FromSlices(mem, typ, shapes, vals)
	if err != nil {
		t.Fatal(err)
	}
	defer arr.Release()
	got, err := varshape.Shapes(arr)
	if err != nil {
		t.Fatal(err)
	}
	want := []varshape.ShapeCount{{[]int{2, 3}, 3}, {[]int{1, 1}, 2}, {[]int{0, 4}, 1}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
