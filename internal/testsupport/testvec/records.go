package testvec

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

// Record returns a record of n rows with an int32 id column and tensor
// columns of SeqColumn values: a 3-cycle float32 [2,3,4] with names, a
// 0-D int64, a non-square transposed uint8 [2,3], and, when nulls, a
// float64 [2] column with every third tensor null. Each tensor field has
// the metadata "note" = its name. The caller releases it.
func Record(t testing.TB, mem memory.Allocator, n int, nulls bool) arrow.RecordBatch {
	t.Helper()
	type col struct {
		name string
		elem arrow.DataType
		meta metadata.Metadata
	}
	cols := []col{
		{"cyc", arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{2, 3, 4}, []string{"a", "b", "c"}, []int{2, 0, 1})},
		{"scalar", arrow.PrimitiveTypes.Int64, metadata.MustNew([]int{}, nil, nil)},
		{"tr", arrow.PrimitiveTypes.Uint8, metadata.MustNew([]int{2, 3}, nil, []int{1, 0})},
	}
	if nulls {
		cols = append(cols, col{"nul", arrow.PrimitiveTypes.Float64, metadata.MustNew([]int{2}, nil, nil)})
	}
	ids := array.NewInt32Builder(mem)
	defer ids.Release()
	for i := range n {
		ids.Append(int32(i))
	}
	idArr := ids.NewArray()
	defer idArr.Release()
	fields := []arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int32}}
	arrs := []arrow.Array{idArr}
	for _, c := range cols {
		typ := fixedshape.MustNewType(c.elem, c.meta)
		var valid []bool
		if c.name == "nul" {
			valid = make([]bool, n)
			for i := range valid {
				valid[i] = i%3 != 1
			}
		}
		a := SeqColumn(t, mem, typ, n, valid)
		defer a.Release()
		fields = append(fields, arrow.Field{Name: c.name, Type: typ, Nullable: true, Metadata: arrow.NewMetadata([]string{"note"}, []string{c.name})})
		arrs = append(arrs, a)
	}
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, int64(n))
}

// CheckRecordsEqual compares two records column by column, tensor
// columns by their logical values and types, and fails t on the first
// schema difference or on each differing column.
func CheckRecordsEqual(t testing.TB, want, got arrow.RecordBatch) {
	t.Helper()
	if !want.Schema().Equal(got.Schema()) {
		t.Fatalf("schema:\n got %v\nwant %v", got.Schema(), want.Schema())
	}
	for i, w := range want.Columns() {
		g := got.Column(i)
		if wt, ok := w.(*fixedshape.Array); ok {
			gt, ok := g.(*fixedshape.Array)
			if !ok {
				t.Fatalf("column %d is %T, want *fixedshape.Array", i, g)
			}
			if wt.TensorType().Serialize() != gt.TensorType().Serialize() {
				t.Errorf("column %d metadata %s, want %s", i, gt.TensorType().Serialize(), wt.TensorType().Serialize())
			}
			if !fixedshape.Equal(wt, gt) {
				t.Errorf("column %d:\n got %v\nwant %v", i, gt, wt)
			}
			continue
		}
		if !array.Equal(w, g) {
			t.Errorf("column %d:\n got %v\nwant %v", i, g, w)
		}
	}
}

// ExampleRecord returns a record of one column "m" of n 2x2 int32
// tensors stored transposed (permutation [1,0]), tensor i holding
// 4i..4i+3 in storage order, in Go memory. The caller releases it.
func ExampleRecord(n int) arrow.RecordBatch {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Int32, metadata.MustNew([]int{2, 2}, nil, []int{1, 0}))
	data := make([]int32, 4*n)
	for i := range data {
		data[i] = int32(i)
	}
	arr, err := fixedshape.FromSlice(typ, data, nil)
	if err != nil {
		panic(err)
	}
	defer arr.Release()
	return array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "m", Type: typ}}, nil), []arrow.Array{arr}, int64(n))
}
