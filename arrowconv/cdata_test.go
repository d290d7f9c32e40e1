//go:build cgo

package arrowconv_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/cdata"
	"github.com/fstensor/fstensor/arrowconv"
	"github.com/fstensor/fstensor/arrowconv/internal/cabi"
	"github.com/fstensor/fstensor/fixedshape"
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

func TestCDataRecordBatch(t *testing.T) {
	mem := checkedMem(t)
	rec := testRecord(t, mem, 6, true)
	defer rec.Release()
	sliced := rec.NewSlice(1, 5)
	defer sliced.Release()
	var carr cdata.CArrowArray
	var csch cdata.CArrowSchema
	arrowconv.ExportRecordBatch(sliced, &carr, &csch)
	got, err := arrowconv.ImportRecordBatch(&carr, &csch)
	cdata.ReleaseCArrowSchema(&csch)
	if err != nil {
		t.Fatal(err)
	}
	defer got.Release()
	checkRecordsEqual(t, sliced, got)
	want := sliced.Column(1).(*fixedshape.Array)
	if &got.Column(1).(*fixedshape.Array).ValueBytes()[0] != &want.ValueBytes()[0] {
		t.Error("record import copied the data")
	}
}
