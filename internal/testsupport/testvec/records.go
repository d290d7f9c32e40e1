package testvec

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

// ColSpec describes one tensor column of a record built by BuildRecord;
// Null, when not nil, tells which rows hold a null tensor.
type ColSpec struct {
	Name string
	Elem arrow.DataType
	Meta metadata.Metadata
	Null func(row int) bool
}

// BuildRecord returns a record of n rows: an int32 "id" column (0..n-1)
// then one SeqColumn per spec, each field nullable with metadata
// {"note": name}. The caller releases it.
func BuildRecord(t testing.TB, mem memory.Allocator, n int, specs ...ColSpec) arrow.RecordBatch {
	t.Helper()
	ids := array.NewInt32Builder(mem)
	defer ids.Release()
	for i := range n {
		ids.Append(int32(i))
	}
	idArr := ids.NewArray()
	defer idArr.Release()
	fields := []arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int32}}
	arrs := []arrow.Array{idArr}
	for _, c := range specs {
		typ, err := fixedshape.NewType(c.Elem, c.Meta)
		if err != nil {
			t.Fatal(err)
		}
		var valid []bool
		if c.Null != nil {
			valid = make([]bool, n)
			for i := range valid {
				valid[i] = !c.Null(i)
			}
		}
		a := SeqColumn(t, mem, typ, n, valid)
		defer a.Release()
		fields = append(fields, arrow.Field{Name: c.Name, Type: typ, Nullable: true, Metadata: arrow.NewMetadata([]string{"note"}, []string{c.Name})})
		arrs = append(arrs, a)
	}
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, int64(n))
}

// Record returns the BuildRecord record of n rows with tensor columns: a
// 3-cycle float32 [2,3,4] with names, a 0-D int64, a non-square
// transposed uint8 [2,3], and, when nulls, a float64 [2] column with
// every third tensor null. The caller releases it.
func Record(t testing.TB, mem memory.Allocator, n int, nulls bool) arrow.RecordBatch {
	t.Helper()
	specs := []ColSpec{
		{"cyc", arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{2, 3, 4}, []string{"a", "b", "c"}, []int{2, 0, 1}), nil},
		{"scalar", arrow.PrimitiveTypes.Int64, metadata.MustNew([]int{}, nil, nil), nil},
		{"tr", arrow.PrimitiveTypes.Uint8, metadata.MustNew([]int{2, 3}, nil, []int{1, 0}), nil},
	}
	if nulls {
		specs = append(specs, ColSpec{"nul", arrow.PrimitiveTypes.Float64, metadata.MustNew([]int{2}, nil, nil), func(row int) bool { return row%3 == 1 }})
	}
	return BuildRecord(t, mem, n, specs...)
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

// BatchWriter is a writer of record batches, as those of arrowipc,
// parquetconv, tensorio and arrow-go's ipc package are.
type BatchWriter interface {
	Write(arrow.RecordBatch) error
	Close() error
}

// WriteAll writes recs to w in order and closes it, failing the test on
// an error.
func WriteAll(t testing.TB, w BatchWriter, recs ...arrow.RecordBatch) {
	t.Helper()
	for _, rec := range recs {
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}
