package parquetconv_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/varshape"
)

// Shared test helpers (internal/testsupport/testvec).
var (
	checkedMem = testvec.CheckedMem
	seqColumn  = testvec.SeqColumn
)

// elemTypes are every element type a tensor column can have.
var elemTypes = []arrow.DataType{
	arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Uint8,
	arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Uint16,
	arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Uint32,
	arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Uint64,
	arrow.FixedWidthTypes.Float16, arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Float64,
}

// Shapes every table covers (a size-0 dimension cannot be a column type,
// see fixedshape.NewType).
var (
	shape0D        = metadata.MustNew([]int{}, nil, nil)
	shapeNonSquare = metadata.MustNew([]int{2, 3}, []string{"h", "w"}, []int{1, 0})
	shapeCycle3    = metadata.MustNew([]int{2, 3, 4}, []string{"a", "b", "c"}, []int{2, 0, 1})
	shapeVector    = metadata.MustNew([]int{5}, nil, nil)
)

// colSpec describes one tensor column of a test record; null, when not
// nil, tells which rows hold a null tensor.
type colSpec struct {
	name string
	elem arrow.DataType
	meta metadata.Metadata
	null func(row int) bool
}

// buildRecord is testvec.BuildRecord of specs.
func buildRecord(t testing.TB, mem memory.Allocator, n int, specs ...colSpec) arrow.RecordBatch {
	t.Helper()
	tv := make([]testvec.ColSpec, len(specs))
	for i, c := range specs {
		tv[i] = testvec.ColSpec{Name: c.name, Elem: c.elem, Meta: c.meta, Null: c.null}
	}
	return testvec.BuildRecord(t, mem, n, tv...)
}

// everyThird makes rows 1, 4, 7, ... null.
func everyThird(row int) bool { return row%3 == 1 }

// allNull makes every row null.
func allNull(int) bool { return true }

// testRecord returns a record of n rows with an int32 id column and
// tensor columns: a 3-cycle float32 [2,3,4] with names, a 0-D int64, a
// non-square transposed uint8 [2,3], and, when nulls, a float64 [2]
// column with every third tensor null.
func testRecord(t testing.TB, mem memory.Allocator, n int, nulls bool) arrow.RecordBatch {
	t.Helper()
	specs := []colSpec{
		{"cyc", arrow.PrimitiveTypes.Float32, shapeCycle3, nil},
		{"scalar", arrow.PrimitiveTypes.Int64, shape0D, nil},
		{"tr", arrow.PrimitiveTypes.Uint8, shapeNonSquare, nil},
	}
	if nulls {
		specs = append(specs, colSpec{"nul", arrow.PrimitiveTypes.Float64, metadata.MustNew([]int{2}, nil, nil), everyThird})
	}
	return buildRecord(t, mem, n, specs...)
}

// mixedRecord returns buildRecord's record with an int64 "key" and a
// nullable string "label" column added after the tensors.
func mixedRecord(t testing.TB, mem memory.Allocator, n int, specs ...colSpec) arrow.RecordBatch {
	t.Helper()
	rec := buildRecord(t, mem, n, specs...)
	defer rec.Release()
	keys := array.NewInt64Builder(mem)
	defer keys.Release()
	labels := array.NewStringBuilder(mem)
	defer labels.Release()
	for i := range n {
		keys.Append(int64(i) * 1_000_003)
		if i%4 == 2 {
			labels.AppendNull()
		} else {
			labels.Append(fmt.Sprintf("label-%d", i))
		}
	}
	k := keys.NewArray()
	defer k.Release()
	l := labels.NewArray()
	defer l.Release()
	fields := append(rec.Schema().Fields(),
		arrow.Field{Name: "key", Type: arrow.PrimitiveTypes.Int64},
		arrow.Field{Name: "label", Type: arrow.BinaryTypes.String, Nullable: true})
	cols := append(append([]arrow.Array{}, rec.Columns()...), k, l)
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(n))
}

// bytesColumn returns a column of typ over a copy of raw, the physical
// bytes of len(raw)/(ListSize*ElemWidth) valid tensors.
func bytesColumn(t testing.TB, mem memory.Allocator, typ *fixedshape.Type, raw []byte) *fixedshape.Array {
	t.Helper()
	buf := memory.NewResizableBuffer(mem)
	defer buf.Release()
	buf.Resize(len(raw))
	copy(buf.Bytes(), raw)
	arr, err := fixedshape.NewArrayFromBuffer(typ, len(raw)/(typ.ListSize()*typ.ElemWidth()), buf)
	if err != nil {
		t.Fatal(err)
	}
	return arr
}

// sliceRecord returns rows [i, j) of rec (columns with a non-zero
// offset); the caller releases it.
func sliceRecord(rec arrow.RecordBatch, i, j int) arrow.RecordBatch {
	return rec.NewSlice(int64(i), int64(j))
}

// checkRecordsEqual compares two records: the schemas must be equal,
// tensor columns must have the same type metadata, nulls at the same
// rows and the same physical bytes in every valid tensor (bit for bit:
// NaN payloads and signs count), other columns must be array.Equal.
func checkRecordsEqual(t testing.TB, want, got arrow.RecordBatch) {
	t.Helper()
	if !want.Schema().Equal(got.Schema()) {
		t.Fatalf("schema:\n got %v\nwant %v", got.Schema(), want.Schema())
	}
	if want.NumRows() != got.NumRows() {
		t.Fatalf("%d rows, want %d", got.NumRows(), want.NumRows())
	}
	for i, w := range want.Columns() {
		g := got.Column(i)
		name := want.Schema().Field(i).Name
		if wt, ok := w.(*fixedshape.Array); ok {
			gt, ok := g.(*fixedshape.Array)
			if !ok {
				t.Fatalf("column %q is %T, want *fixedshape.Array", name, g)
			}
			if wt.TensorType().Serialize() != gt.TensorType().Serialize() {
				t.Errorf("column %q metadata %s, want %s", name, gt.TensorType().Serialize(), wt.TensorType().Serialize())
			}
			checkTensorBits(t, name, wt, gt)
			continue
		}
		if wv, ok := w.(*varshape.Array); ok {
			// Null rows' storage is not compared.
			gv, ok := g.(*varshape.Array)
			if !ok {
				t.Fatalf("column %q is %T, want *varshape.Array", name, g)
			}
			if !arrow.TypeEqual(wv.DataType(), gv.DataType()) {
				t.Errorf("column %q type %v, want %v", name, gv.DataType(), wv.DataType())
			}
			for r := range wv.Len() {
				if ws, gs := wv.ValueStr(r), gv.ValueStr(r); ws != gs {
					t.Errorf("column %q row %d: %s, want %s", name, r, gs, ws)
				}
			}
			continue
		}
		if !array.Equal(w, g) {
			t.Errorf("column %q:\n got %v\nwant %v", name, g, w)
		}
	}
}

// checkTensorBits compares two tensor columns of the same type bit for
// bit: validity per row, then the physical bytes of every valid tensor.
func checkTensorBits(t testing.TB, name string, want, got *fixedshape.Array) {
	t.Helper()
	if want.Len() != got.Len() {
		t.Fatalf("column %q: %d tensors, want %d", name, got.Len(), want.Len())
	}
	size := want.TensorType().ListSize() * want.TensorType().ElemWidth()
	wb, gb := want.ValueBytes(), got.ValueBytes()
	bad := 0
	for r := range want.Len() {
		if want.IsNull(r) != got.IsNull(r) {
			t.Errorf("column %q row %d: null %v, want %v", name, r, got.IsNull(r), want.IsNull(r))
			bad++
		} else if want.IsValid(r) && !bytes.Equal(wb[r*size:(r+1)*size], gb[r*size:(r+1)*size]) {
			t.Errorf("column %q row %d:\n got % x\nwant % x", name, r, clip(gb[r*size:(r+1)*size]), clip(wb[r*size:(r+1)*size]))
			bad++
		}
		if bad >= 5 {
			t.Fatalf("column %q: stopping after %d differing rows", name, bad)
		}
	}
}

// clip shortens b for an error message.
func clip(b []byte) []byte { return b[:min(len(b), 64)] }

// checkReadAll reads every batch of r and compares them, in order, with
// the rows of want; it fails unless the batches cover want exactly.
func checkReadAll(t testing.TB, want arrow.RecordBatch, r array.RecordReader) {
	t.Helper()
	if !r.Schema().Equal(want.Schema()) {
		t.Fatalf("schema:\n got %v\nwant %v", r.Schema(), want.Schema())
	}
	rows := 0
	for r.Next() {
		got := r.RecordBatch()
		if rows+int(got.NumRows()) > int(want.NumRows()) {
			t.Fatalf("read more than %d rows", want.NumRows())
		}
		w := sliceRecord(want, rows, rows+int(got.NumRows()))
		checkRecordsEqual(t, w, got)
		w.Release()
		rows += int(got.NumRows())
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	if rows != int(want.NumRows()) {
		t.Errorf("read %d rows, want %d", rows, want.NumRows())
	}
}
