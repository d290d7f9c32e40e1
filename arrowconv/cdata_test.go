//go:build cgo

package arrowconv_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/cdata"
	"github.com/fstensor/fstensor/arrowconv"
	"github.com/fstensor/fstensor/arrowconv/internal/cabi"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/varshape"
)

func TestCDataArray(t *testing.T) {
	mem := checkedMem(t)
	rec := testRecord(t, mem, 5, true)
	defer rec.Release()
	for i, col := range rec.Columns()[1:] {
		arr := col.(*fixedshape.Array)
		name := rec.Schema().Field(i + 1).Name
		t.Run(name, func(t *testing.T) {
			var carr cdata.CArrowArray
			var csch cdata.CArrowSchema
			arrowconv.ExportArray(arr, name, &carr, &csch)
			// The exported data is the storage: child 0 is the elements,
			// whose values buffer is the Go array's memory.
			child := cabi.ChildArray(&carr, 0)
			if child == nil {
				t.Fatal("exported array has no child")
			}
			if got, want := cabi.BufferAddress(child, 1), addr(arr.Storage().Data().Children()[0].Buffers()[1].Bytes()); got != want {
				t.Errorf("exported values at %#x, want the Go buffer at %#x", got, want)
			}
			got, field, err := arrowconv.ImportArray(&carr, &csch)
			cdata.ReleaseCArrowSchema(&csch)
			if err != nil {
				t.Fatal(err)
			}
			defer got.Release()
			if field.Name != name {
				t.Errorf("field name %q, want %q", field.Name, name)
			}
			if !fixedshape.Equal(arr, got) || got.TensorType().Serialize() != arr.TensorType().Serialize() {
				t.Errorf("imported %v %v, want %v %v", got.TensorType(), got, arr.TensorType(), arr)
			}
			if &got.ValueBytes()[0] != &arr.ValueBytes()[0] {
				t.Error("import copied the data")
			}
		})
	}
}

// cdataRoundTrip exports rec through the C Data Interface and imports it
// back; the caller releases the result.
func cdataRoundTrip(t *testing.T, rec arrow.RecordBatch) arrow.RecordBatch {
	t.Helper()
	var carr cdata.CArrowArray
	var csch cdata.CArrowSchema
	arrowconv.ExportRecordBatch(rec, &carr, &csch)
	got, err := arrowconv.ImportRecordBatch(&carr, &csch)
	cdata.ReleaseCArrowSchema(&csch)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestCDataRecordBatch(t *testing.T) {
	mem := checkedMem(t)
	rec := testRecord(t, mem, 6, true)
	defer rec.Release()
	sliced := rec.NewSlice(1, 5)
	defer sliced.Release()
	got := cdataRoundTrip(t, sliced)
	defer got.Release()
	checkRecordsEqual(t, sliced, got)
	want := sliced.Column(1).(*fixedshape.Array)
	if &got.Column(1).(*fixedshape.Array).ValueBytes()[0] != &want.ValueBytes()[0] {
		t.Error("record import copied the data")
	}
}

// TestCDataVarShape: variable-shape columns (float32 and bool, with null
// rows, sliced) go through ExportRecordBatch and ImportRecordBatch as
// their struct storage with the extension keys and come back as
// variable-shape columns equal to the originals; a variable-shape column
// whose storage is inconsistent is refused on import.
func TestCDataVarShape(t *testing.T) {
	mem := checkedMem(t)
	f32 := varshape.MustNewType(arrow.PrimitiveTypes.Float32, 2, varshape.Options{DimNames: []string{"h", "w"}})
	x, err := varshape.FromSlices(mem, f32, [][]int{{1, 2}, {2, 2}, nil, {3, 1}},
		[][]float32{{1, 2}, {3, 4, 5, 6}, {}, {7, 8, 9}})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Release()
	bt := varshape.MustNewType(arrow.FixedWidthTypes.Boolean, 1, varshape.Options{})
	m, err := varshape.FromBools(mem, bt, [][]int{{3}, nil, {9}, {2}}, [][]bool{
		{true, false, true}, nil, {false, true, true, false, true, false, false, true, true}, {false, true},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: f32}, {Name: "m", Type: bt}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{x, m}, 4)
	defer rec.Release()
	for _, r := range [][2]int64{{0, 4}, {1, 4}, {3, 4}} {
		t.Run(fmt.Sprintf("rows=%d-%d", r[0], r[1]), func(t *testing.T) {
			sliced := rec.NewSlice(r[0], r[1])
			defer sliced.Release()
			got := cdataRoundTrip(t, sliced)
			defer got.Release()
			if !got.Schema().Equal(sliced.Schema()) {
				t.Errorf("schema %v, want %v", got.Schema(), sliced.Schema())
			}
			for i := range sliced.NumCols() {
				if g, w := got.Column(int(i)).String(), sliced.Column(int(i)).String(); g != w {
					t.Errorf("column %d: %s, want %s", i, g, w)
				}
			}
		})
	}

	// A storage record whose shape says 3 elements where its data list
	// holds 2.
	one := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "x", Type: f32}}, nil), []arrow.Array{x}, 4)
	defer one.Release()
	bad := varshape.StorageRecord(one)
	defer bad.Release()
	st := bad.Column(0).(*array.Struct)
	shape := st.Field(1).(*array.FixedSizeList).ListValues().(*array.Int32)
	shape.Int32Values()[1] = 3 // row 0 becomes (1, 3)
	defer func() { shape.Int32Values()[1] = 2 }()
	var carr cdata.CArrowArray
	var csch cdata.CArrowSchema
	cdata.ExportArrowRecordBatch(bad, &carr, &csch)
	got, err := arrowconv.ImportRecordBatch(&carr, &csch)
	cdata.ReleaseCArrowSchema(&csch)
	if err == nil {
		got.Release()
		t.Fatal("an inconsistent variable-shape column was imported")
	}
	if !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("import of an inconsistent column: %v, want an error wrapping arrow.ErrInvalid", err)
	}
}
