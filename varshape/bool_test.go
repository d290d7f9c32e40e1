package varshape_test

import (
	"bytes"
	"errors"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/varshape"
)

var boolType = arrow.FixedWidthTypes.Boolean

// boolRow is one row as the tests compare it: logical shape and elements
// in logical row-major order; nil for a null row.
type boolRow struct {
	Shape  []int
	Values []bool
}

// boolValues returns rows of the given logical shapes (nil: null) whose
// elements follow a pattern that differs between rows.
func boolValues(shapes [][]int) [][]bool {
	vals := make([][]bool, len(shapes))
	for i, s := range shapes {
		if s == nil {
			continue
		}
		vals[i] = make([]bool, prod(s))
		for k := range vals[i] {
			vals[i][k] = (i*7+k*k)%3 == 0
		}
	}
	return vals
}

func wantBoolRows(shapes [][]int, vals [][]bool) []*boolRow {
	out := make([]*boolRow, len(shapes))
	for i, s := range shapes {
		if s != nil {
			out[i] = &boolRow{Shape: s, Values: vals[i]}
		}
	}
	return out
}

// gotBoolRows reads every row of a through BoolAt, in logical order, and
// checks that Row(i) and RowBits agree with it.
func gotBoolRows(t *testing.T, a *varshape.Array) []*boolRow {
	t.Helper()
	out := make([]*boolRow, a.Len())
	for i := range out {
		if a.IsNull(i) {
			continue
		}
		shape := a.Shape(nil, i)
		r := &boolRow{Shape: shape, Values: []bool{}}
		var one *fixedshape.Array // nil for a row of no element (no fixed-shape type)
		if prod(shape) > 0 {
			var err error
			if one, err = a.Row(i); err != nil {
				t.Fatalf("Row(%d): %v", i, err)
			}
			defer one.Release()
		}
		bits, first, n := a.RowBits(i)
		if n != prod(shape) {
			t.Errorf("RowBits(%d): %d elements for shape %v", i, n, shape)
		}
		for idx := range testvec.Indices(shape) {
			v := a.BoolAt(i, idx...)
			if one != nil && one.BoolAt(0, idx...) != v {
				t.Errorf("row %d %v: Row and BoolAt differ (BoolAt %v)", i, idx, v)
			}
			r.Values = append(r.Values, v)
		}
		ones := 0
		for k := range n {
			if bitutil.BitIsSet(bits, first+k) {
				ones++
			}
		}
		if want := count(r.Values); ones != want {
			t.Errorf("RowBits(%d): %d set bits, BoolAt %d", i, ones, want)
		}
		out[i] = r
	}
	return out
}

func count(v []bool) int {
	n := 0
	for _, b := range v {
		if b {
			n++
		}
	}
	return n
}

func TestBoolColumn(t *testing.T) {
	tests := []struct {
		name   string
		ndim   int
		o      varshape.Options
		shapes [][]int // logical; nil = null row
	}{
		{"non-square", 2, varshape.Options{}, [][]int{{2, 3}, {1, 5}, {3, 3}}},
		{"transpose", 2, varshape.Options{Permutation: []int{1, 0}, DimNames: []string{"h", "w"}}, [][]int{{2, 3}, {4, 1}, {3, 5}}},
		{"3-cycle", 3, varshape.Options{Permutation: []int{2, 0, 1}}, [][]int{{2, 3, 4}, {1, 2, 3}, nil, {4, 3, 2}}},
		{"size-0", 2, varshape.Options{}, [][]int{{0, 3}, {2, 0}, {1, 1}, {3, 1}}},
		{"uniform", 2, varshape.Options{UniformShape: []int{-1, 3}}, [][]int{{1, 3}, nil, {4, 3}, {3, 3}}},
		{"nulls", 1, varshape.Options{}, [][]int{nil, {9}, nil, {7}, nil}},
		{"all-null", 2, varshape.Options{}, [][]int{nil, nil}},
		{"empty", 2, varshape.Options{}, [][]int{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := testvec.CheckedMem(t)
			typ, err := varshape.NewType(boolType, tt.ndim, tt.o)
			if err != nil {
				t.Fatal(err)
			}
			vals := boolValues(tt.shapes)
			a, err := varshape.FromBools(mem, typ, tt.shapes, vals)
			if err != nil {
				t.Fatal(err)
			}
			defer a.Release()
			if err := a.Validate(); err != nil {
				t.Fatal(err)
			}
			want := wantBoolRows(tt.shapes, vals)
			if diff := cmp.Diff(want, gotBoolRows(t, a)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			// Slices start rows at bit offsets that are not multiples
			// of 8 and list offsets that do not start at 0.
			for lo := 1; lo < a.Len(); lo++ {
				s := array.NewSlice(a, int64(lo), int64(a.Len())).(*varshape.Array)
				if diff := cmp.Diff(want[lo:], gotBoolRows(t, s)); diff != "" {
					t.Errorf("slice from %d (-want +got):\n%s", lo, diff)
				}
				s.Release()
			}
			back := ipcRoundTrip(t, mem, a)
			defer back.Release()
			if diff := cmp.Diff(want, gotBoolRows(t, back)); diff != "" {
				t.Errorf("IPC (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(a.String(), back.String()); diff != "" {
				t.Errorf("IPC String (-want +got):\n%s", diff)
			}
		})
	}
}

// ipcRoundTrip writes a, sliced from row 1 when it has rows, to an IPC
// stream and reads it back; the caller releases the result.
func ipcRoundTrip(t *testing.T, mem memory.Allocator, a *varshape.Array) *varshape.Array {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{{Name: "t", Type: a.DataType(), Nullable: true}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{a}, int64(a.Len()))
	defer rec.Release()
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(schema), ipc.WithAllocator(mem))
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := ipc.NewReader(&buf, ipc.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Release()
	if !r.Next() {
		t.Fatal(r.Err())
	}
	col, ok := r.RecordBatch().Column(0).(*varshape.Array)
	if !ok {
		t.Fatalf("read %v", r.RecordBatch().Column(0).DataType())
	}
	if !arrow.TypeEqual(col.DataType(), a.DataType()) {
		t.Errorf("type %v, want %v", col.DataType(), a.DataType())
	}
	if err := col.Validate(); err != nil {
		t.Fatal(err)
	}
	col.Retain()
	return col
}

// TestBoolChildOffset reads a column whose data child starts at bit 5
// of its buffer, as a sliced list<bool> does.
func TestBoolChildOffset(t *testing.T) {
	mem := testvec.CheckedMem(t)
	typ := varshape.MustNewType(boolType, 1, varshape.Options{})
	shapes := [][]int{{5}, {3}, {9}, {6}}
	vals := boolValues(shapes)
	a, err := varshape.FromBools(mem, typ, shapes, vals)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	// Row 0's 5 elements dropped from the child, offsets rebased.
	sd := a.Storage().Data()
	list := sd.Children()[0]
	child := array.NewSliceData(list.Children()[0], 5, int64(list.Children()[0].Len()))
	defer child.Release()
	offs := memory.NewResizableBuffer(mem)
	defer offs.Release()
	offs.Resize(4 * 4)
	copy(arrow.Int32Traits.CastFromBytes(offs.Bytes()), []int32{0, 3, 12, 18})
	nl := array.NewData(list.DataType(), 3, []*memory.Buffer{nil, offs}, []arrow.ArrayData{child}, 0, 0)
	defer nl.Release()
	shp := array.NewSliceData(sd.Children()[1], 1, 4)
	defer shp.Release()
	st := array.NewData(sd.DataType(), 3, []*memory.Buffer{nil}, []arrow.ArrayData{nl, shp}, 0, 0)
	defer st.Release()
	storage := array.MakeFromData(st)
	defer storage.Release()
	b, err := varshape.NewArray(typ, storage)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	if _, first, _ := b.RowBits(0); first%8 != 5 {
		t.Errorf("row 0 starts at bit %d, want 5 mod 8", first)
	}
	want := wantBoolRows(shapes[1:], vals[1:])
	if diff := cmp.Diff(want, gotBoolRows(t, b)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	f, err := varshape.ToFixed(mem, b) // rows of 3, 9, 6: not fixed
	if err == nil {
		f.Release()
		t.Error("ToFixed of rows of three shapes: no error")
	}
}

func TestBoolFixedConversions(t *testing.T) {
	mem := testvec.CheckedMem(t)
	typ := varshape.MustNewType(boolType, 2, varshape.Options{Permutation: []int{1, 0}})
	shapes := [][]int{{2, 3}, nil, {2, 3}, {2, 3}}
	vals := boolValues(shapes)
	a, err := varshape.FromBools(mem, typ, shapes, vals)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	for _, lo := range []int{0, 1, 3} {
		s := array.NewSlice(a, int64(lo), int64(a.Len())).(*varshape.Array)
		f, err := varshape.ToFixed(mem, s)
		if err != nil {
			t.Fatal(err)
		}
		back, err := varshape.FromFixed(mem, f)
		if err != nil {
			t.Fatal(err)
		}
		want := wantBoolRows(shapes[lo:], vals[lo:])
		if diff := cmp.Diff(want, gotBoolRows(t, back)); diff != "" {
			t.Errorf("from %d (-want +got):\n%s", lo, diff)
		}
		for i, r := range want {
			if r == nil {
				continue
			}
			k := 0
			for idx := range testvec.Indices(r.Shape) {
				if got := f.BoolAt(i, idx...); got != r.Values[k] {
					t.Errorf("from %d: ToFixed row %d %v = %v, want %v", lo, i, idx, got, r.Values[k])
				}
				k++
			}
		}
		back.Release()
		f.Release()
		s.Release()
	}
	// A column whose rows are not back to back (a null row between
	// them holds no element) is copied, bit by bit, from bit 1.
	st := a.Storage().Data()
	list := st.Children()[0]
	offs := memory.NewResizableBuffer(mem)
	defer offs.Release()
	offs.Resize(4 * 4)
	copy(arrow.Int32Traits.CastFromBytes(offs.Bytes()), []int32{1, 7, 7, 13})
	nl := array.NewData(list.DataType(), 3, []*memory.Buffer{nil, offs}, list.Children(), 0, 0)
	defer nl.Release()
	shp := array.NewSliceData(st.Children()[1], 0, 3)
	defer shp.Release()
	valid := memory.NewBufferBytes([]byte{0b101})
	sd := array.NewData(st.DataType(), 3, []*memory.Buffer{valid}, []arrow.ArrayData{nl, shp}, 1, 0)
	defer sd.Release()
	storage := array.MakeFromData(sd)
	defer storage.Release()
	gap, err := varshape.NewArray(typ, storage)
	if err != nil {
		t.Fatal(err)
	}
	defer gap.Release()
	f, err := varshape.ToFixed(mem, gap)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Release()
	back, err := varshape.FromFixed(mem, f)
	if err != nil {
		t.Fatal(err)
	}
	defer back.Release()
	if diff := cmp.Diff(gotBoolRows(t, gap), gotBoolRows(t, back)); diff != "" {
		t.Errorf("copied (-want +got):\n%s", diff)
	}
}

func TestBoolErrors(t *testing.T) {
	mem := testvec.CheckedMem(t)
	typ := varshape.MustNewType(boolType, 2, varshape.Options{UniformShape: []int{-1, 3}})
	tests := []struct {
		name   string
		typ    *varshape.Type
		shapes [][]int
		vals   [][]bool
	}{
		{"not-bool", varshape.MustNewType(arrow.PrimitiveTypes.Int8, 2, varshape.Options{}), [][]int{{1, 1}}, [][]bool{{true}}},
		{"count", typ, [][]int{{1, 3}}, [][]bool{{true}}},
		{"ndim", typ, [][]int{{3}}, [][]bool{{true, true, true}}},
		{"uniform", typ, [][]int{{1, 2}}, [][]bool{{true, true}}},
		{"negative", typ, [][]int{{-1, 3}}, [][]bool{{}}},
		{"overflow", typ, [][]int{{math.MaxInt/2 + 1, 3}}, [][]bool{{}}},
		{"rows", typ, [][]int{{1, 3}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := varshape.FromBools(mem, tt.typ, tt.shapes, tt.vals)
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Errorf("got %v, want ErrInvalid", err)
			}
			if a != nil {
				a.Release()
			}
		})
	}
	a, err := varshape.FromBools(mem, typ, [][]int{{1, 3}}, [][]bool{{true, false, true}})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	if _, err := varshape.ColumnOf[uint8](a); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("ColumnOf[uint8] of bools: got %v, want ErrInvalid", err)
	}
	if b := a.RowBytes(0); b != nil {
		t.Errorf("RowBytes of a bool row: %v, want nil", b)
	}
}

// TestBoolShortValues checks that a values buffer of fewer bits than the
// offsets name is refused.
func TestBoolShortValues(t *testing.T) {
	typ := varshape.MustNewType(boolType, 1, varshape.Options{})
	for _, tt := range []struct {
		name  string
		bytes int
		want  bool
	}{{"9-bits-in-1-byte", 1, false}, {"9-bits-in-2-bytes", 2, true}} {
		t.Run(tt.name, func(t *testing.T) {
			offs := memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{0, 9}))
			shapes := memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{9}))
			vals := memory.NewBufferBytes(make([]byte, tt.bytes))
			a, err := varshape.NewArrayFromBuffers(typ, 1, nil, offs, vals, shapes, 0)
			if tt.want {
				if err != nil {
					t.Fatal(err)
				}
				a.Release()
				return
			}
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Errorf("got %v, want ErrInvalid", err)
			}
			if a != nil {
				a.Release()
			}
		})
	}
}
