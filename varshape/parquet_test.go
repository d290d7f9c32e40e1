package varshape_test

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/parquetconv"
	"github.com/fstensor/fstensor/varshape"
)

// parquetColumn is a float32 column with a permutation, names, a uniform
// dimension and, when nulls is set, a null row.
func parquetColumn(t *testing.T, mem memory.Allocator, nulls bool) *varshape.Array {
	t.Helper()
	typ := varshape.MustNewType(arrow.PrimitiveTypes.Float32, 3, varshape.Options{
		DimNames: []string{"c", "h", "w"}, Permutation: []int{2, 0, 1}, UniformShape: []int{3, -1, -1}})
	shapes := [][]int{{3, 2, 2}, {3, 1, 4}, {3, 2, 5}, {3, 3, 1}}
	if nulls {
		shapes[1] = nil
	}
	vals := make([][]float32, len(shapes))
	for i, s := range shapes {
		for k := range prod(s) {
			vals[i] = append(vals[i], float32(i*100+k))
		}
	}
	arr, err := varshape.FromSlices(mem, typ, shapes, vals)
	if err != nil {
		t.Fatal(err)
	}
	return arr
}

// TestParquetRoundTrip writes a variable-shape column through parquetconv,
// which writes its storage struct with the extension keys (null rows
// included), and reads the type back from the stored Arrow schema.
func TestParquetRoundTrip(t *testing.T) {
	for _, tt := range []struct {
		name   string
		nulls  bool
		offset int
	}{{"dense", false, 0}, {"sliced", false, 1}, {"nulls", true, 0}} {
		t.Run(tt.name, func(t *testing.T) {
			mem := testvec.CheckedMem(t)
			full := parquetColumn(t, mem, tt.nulls)
			defer full.Release()
			arr := array.NewSlice(full, int64(tt.offset), int64(full.Len())).(*varshape.Array)
			defer arr.Release()
			schema := arrow.NewSchema([]arrow.Field{{Name: "img", Type: arr.DataType(), Nullable: true}}, nil)
			ext := array.NewRecordBatch(schema, []arrow.Array{arr}, int64(arr.Len()))
			defer ext.Release()
			rec := ext
			var buf bytes.Buffer
			w, err := parquetconv.NewWriter(&buf, schema, parquetconv.WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			werr := w.Write(rec)
			if err := w.Close(); err != nil && werr == nil {
				werr = err
			}
			if werr != nil {
				t.Fatal(werr)
			}
			r, err := parquetconv.NewReader(bytes.NewReader(buf.Bytes()), parquetconv.WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			defer r.Release()
			var got []string
			for r.Next() {
				col, ok := r.RecordBatch().Column(0).(*varshape.Array)
				if !ok {
					t.Logf("read %v %v", r.RecordBatch().Column(0).DataType(), r.Schema().Field(0).Metadata)
					c, _, err := varshape.FromStorage(r.Schema().Field(0), r.RecordBatch().Column(0))
					if err != nil {
						t.Fatal(err)
					}
					defer c.Release()
					col = c
				}
				if !arrow.TypeEqual(col.DataType(), arr.DataType()) {
					t.Errorf("type %v, want %v", col.DataType(), arr.DataType())
				}
				if err := col.Validate(); err != nil {
					t.Fatal(err)
				}
				for i := range col.Len() {
					got = append(got, col.ValueStr(i))
				}
			}
			if err := r.Err(); err != nil {
				t.Fatal(err)
			}
			var want []string
			for i := range arr.Len() {
				want = append(want, arr.ValueStr(i))
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestBoolParquetRoundTrip writes bool columns, sliced so that rows start
// at bit offsets that are not multiples of 8, with null rows, through
// parquetconv and reads them back bit for bit.
func TestBoolParquetRoundTrip(t *testing.T) {
	mem := testvec.CheckedMem(t)
	typ := varshape.MustNewType(boolType, 2, varshape.Options{Permutation: []int{1, 0}, DimNames: []string{"h", "w"}})
	shapes := [][]int{{1, 3}, {3, 3}, nil, {2, 0}, {5, 2}, nil, {1, 1}}
	vals := boolValues(shapes)
	full, err := varshape.FromBools(mem, typ, shapes, vals)
	if err != nil {
		t.Fatal(err)
	}
	defer full.Release()
	for _, lo := range []int{0, 1, 4} {
		arr := array.NewSlice(full, int64(lo), int64(full.Len())).(*varshape.Array)
		schema := arrow.NewSchema([]arrow.Field{{Name: "m", Type: typ, Nullable: true}}, nil)
		rec := array.NewRecordBatch(schema, []arrow.Array{arr}, int64(arr.Len()))
		arr.Release()
		var buf bytes.Buffer
		w, err := parquetconv.NewWriter(&buf, schema, parquetconv.WithAllocator(mem))
		if err != nil {
			t.Fatal(err)
		}
		werr := w.Write(rec)
		rec.Release()
		if err := w.Close(); err != nil && werr == nil {
			werr = err
		}
		if werr != nil {
			t.Fatalf("from %d: %v", lo, werr)
		}
		r, err := parquetconv.NewReader(bytes.NewReader(buf.Bytes()), parquetconv.WithAllocator(mem))
		if err != nil {
			t.Fatal(err)
		}
		var got []*boolRow
		for r.Next() {
			col, ok := r.RecordBatch().Column(0).(*varshape.Array)
			if !ok || !arrow.TypeEqual(col.DataType(), typ) {
				t.Fatalf("from %d: read %v, want %v", lo, r.RecordBatch().Column(0).DataType(), typ)
			}
			got = append(got, gotBoolRows(t, col)...)
		}
		if err := r.Err(); err != nil {
			t.Fatal(err)
		}
		r.Release()
		if diff := cmp.Diff(wantBoolRows(shapes[lo:], vals[lo:]), got); diff != "" {
			t.Errorf("from %d (-want +got):\n%s", lo, diff)
		}
	}
}
