//go:build cgo

package varshape_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/cdata"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/varshape"
)

// TestBoolCData exports bool columns, sliced so that rows start at bit
// offsets that are not multiples of 8, through the C Data interface in
// the storage form (StorageRecord: arrow-go's exporter drops the children
// of a struct-backed extension array) and imports them back: the type is
// rebuilt from the extension keys and every row keeps its bits.
func TestBoolCData(t *testing.T) {
	mem := testvec.CheckedMem(t)
	typ := varshape.MustNewType(boolType, 3, varshape.Options{Permutation: []int{2, 0, 1}, UniformShape: []int{varshape.Varies, 2, varshape.Varies}})
	shapes := [][]int{{1, 2, 3}, {3, 2, 1}, nil, {2, 2, 0}, {5, 2, 3}, {1, 2, 1}}
	vals := boolValues(shapes)
	a, err := varshape.FromBools(mem, typ, shapes, vals)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "m", Type: typ, Nullable: true}}, nil)
	for _, lo := range []int{0, 1, 3} {
		s := array.NewSlice(a, int64(lo), int64(a.Len()))
		rec := array.NewRecordBatch(schema, []arrow.Array{s}, int64(s.Len()))
		s.Release()
		st := varshape.StorageRecord(rec)
		rec.Release()
		var carr cdata.CArrowArray
		var csch cdata.CArrowSchema
		cdata.ExportArrowRecordBatch(st, &carr, &csch)
		st.Release()
		imp, err := cdata.ImportCRecordBatch(&carr, &csch)
		cdata.ReleaseCArrowSchema(&csch)
		if err != nil {
			t.Fatal(err)
		}
		back, ok := imp.Column(0).(*varshape.Array)
		if ok {
			back.Retain()
		} else if back, _, err = varshape.FromStorage(imp.Schema().Field(0), imp.Column(0)); err != nil {
			t.Fatal(err)
		}
		imp.Release()
		if !arrow.TypeEqual(back.DataType(), typ) {
			t.Errorf("from %d: type %v, want %v", lo, back.DataType(), typ)
		}
		if diff := cmp.Diff(wantBoolRows(shapes[lo:], vals[lo:]), gotBoolRows(t, back)); diff != "" {
			t.Errorf("from %d (-want +got):\n%s", lo, diff)
		}
		back.Release()
	}
}
