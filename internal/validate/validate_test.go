package validate_test

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/validate"
	"github.com/fstensor/fstensor/metadata"
)

// fromJSON returns an array of dt from JSON, sliced to [lo,hi) when hi > 0.
func fromJSON(t *testing.T, mem memory.Allocator, dt arrow.DataType, js string, lo, hi int) arrow.Array {
	t.Helper()
	arr, _, err := array.FromJSON(mem, dt, strings.NewReader(js))
	if err != nil {
		t.Fatalf("%v %s: %v", dt, js, err)
	}
	if hi > 0 {
		defer arr.Release()
		return array.NewSlice(arr, int64(lo), int64(hi))
	}
	return arr
}

// bytesBuf returns a buffer over b (Go memory, no allocator).
func bytesBuf(b []byte) *memory.Buffer { return memory.NewBufferBytes(b) }

func i32s(vs ...int32) *memory.Buffer {
	b := make([]byte, 4*len(vs))
	for i, v := range vs {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(v))
	}
	return bytesBuf(b)
}

func i64s(vs ...int64) *memory.Buffer {
	b := make([]byte, 8*len(vs))
	for i, v := range vs {
		binary.LittleEndian.PutUint64(b[8*i:], uint64(v))
	}
	return bytesBuf(b)
}

// bits returns a validity bitmap of the flags.
func bits(valid ...bool) *memory.Buffer {
	b := make([]byte, (len(valid)+7)/8)
	for i, v := range valid {
		if v {
			b[i/8] |= 1 << (i % 8)
		}
	}
	return bytesBuf(b)
}

func newData(dt arrow.DataType, n int, bufs []*memory.Buffer, children []arrow.ArrayData, nulls, off int) arrow.ArrayData {
	return array.NewData(dt, n, bufs, children, nulls, off)
}

func int32Data(vs ...int32) arrow.ArrayData {
	return newData(arrow.PrimitiveTypes.Int32, len(vs), []*memory.Buffer{nil, i32s(vs...)}, nil, 0, 0)
}

func stringData(offs []int32, data string) arrow.ArrayData {
	return newData(arrow.BinaryTypes.String, len(offs)-1, []*memory.Buffer{nil, i32s(offs...), bytesBuf([]byte(data))}, nil, 0, 0)
}

func tensorType(t *testing.T) *fixedshape.Type {
	t.Helper()
	typ, err := fixedshape.NewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{2, 2}, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	return typ
}

// fault is where a check should fail: Path and Row of *validate.Error.
type fault struct {
	Path string
	Row  int
}

func TestValidArrays(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	tests := []struct {
		name   string
		dt     arrow.DataType
		js     string
		lo, hi int
	}{
		{"null", arrow.Null, `[null, null]`, 0, 0},
		{"bool sliced", arrow.FixedWidthTypes.Boolean, `[true, null, false, true, true, false, true, false, true, true]`, 3, 9},
		{"int32 empty", arrow.PrimitiveTypes.Int32, `[]`, 0, 0},
		{"int32 sliced to 0 rows", arrow.PrimitiveTypes.Int32, `[1, 2, 3]`, 2, 2},
		{"int64 nulls sliced", arrow.PrimitiveTypes.Int64, `[1, null, 3, null]`, 1, 3},
		{"float16", arrow.FixedWidthTypes.Float16, `[1.5, null]`, 0, 0},
		{"decimal32", &arrow.Decimal32Type{Precision: 5, Scale: 2}, `["1.25", null]`, 0, 0},
		{"decimal64", &arrow.Decimal64Type{Precision: 12, Scale: 2}, `["1.25", null]`, 0, 0},
		{"decimal128", &arrow.Decimal128Type{Precision: 20, Scale: 2}, `["1.25", null, "3.50"]`, 1, 3},
		{"decimal256", &arrow.Decimal256Type{Precision: 40, Scale: 2}, `["1.25", null]`, 0, 0},
		{"date32", arrow.FixedWidthTypes.Date32, `["2024-01-02", null]`, 0, 0},
		{"date64", arrow.FixedWidthTypes.Date64, `["2024-01-02"]`, 0, 0},
		{"time32", arrow.FixedWidthTypes.Time32ms, `["12:00:00.001"]`, 0, 0},
		{"time64", arrow.FixedWidthTypes.Time64ns, `["12:00:00.000000001"]`, 0, 0},
		{"timestamp", arrow.FixedWidthTypes.Timestamp_us, `[1700000000000000, null]`, 0, 0},
		{"duration", arrow.FixedWidthTypes.Duration_s, `[1, null]`, 0, 0},
		{"interval month-day-nano", arrow.FixedWidthTypes.MonthDayNanoInterval, `[{"months": 1, "days": 2, "nanoseconds": 3}]`, 0, 0},
		{"fixed size binary", &arrow.FixedSizeBinaryType{ByteWidth: 3}, `["YWJj", null, "ZGVm"]`, 1, 3},
		{"string multibyte sliced", arrow.BinaryTypes.String, `["a", "é€", null, "日本語", ""]`, 1, 5},
		{"string empty", arrow.BinaryTypes.String, `[]`, 0, 0},
		{"large string", arrow.BinaryTypes.LargeString, `["x", "ÿ", null]`, 0, 0},
		{"binary", arrow.BinaryTypes.Binary, `["AP8=", null]`, 0, 0},
		{"large binary", arrow.BinaryTypes.LargeBinary, `["AP8="]`, 0, 0},
		{"string view", arrow.BinaryTypes.StringView, `["short", "a string longer than twelve bytes", null]`, 0, 0},
		{"binary view", arrow.BinaryTypes.BinaryView, `["AP8=", null]`, 0, 0},
		{"list sliced", arrow.ListOf(arrow.PrimitiveTypes.Int32), `[[1, 2], null, [], [3]]`, 1, 4},
		{"large list", arrow.LargeListOf(arrow.PrimitiveTypes.Int32), `[[1, 2], null, [3]]`, 0, 0},
		{"list view", arrow.ListViewOf(arrow.PrimitiveTypes.Int32), `[[1, 2], null, [3]]`, 0, 0},
		{"large list view", arrow.LargeListViewOf(arrow.PrimitiveTypes.Int32), `[[1, 2], [3]]`, 0, 0},
		{"fixed size list sliced", arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Float32), `[[1, 2], null, [5, 6]]`, 1, 3},
		{"struct sliced", arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true}, arrow.Field{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}),
			`[{"a": 1, "s": "x"}, null, {"a": null, "s": "ü"}]`, 1, 3},
		{"map", arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32), `[[{"key": "a", "value": 1}], null, []]`, 0, 0},
		{"list of struct of strings", arrow.ListOf(arrow.StructOf(arrow.Field{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true})),
			`[[{"s": "a"}, {"s": null}], [], [{"s": "bc"}]]`, 1, 3},
		{"sparse union", arrow.SparseUnionOf([]arrow.Field{{Name: "i", Type: arrow.PrimitiveTypes.Int32, Nullable: true}, {Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}}, []arrow.UnionTypeCode{5, 7}),
			`[[5, 1], [7, "x"], [5, null]]`, 1, 3},
		{"dense union", arrow.DenseUnionOf([]arrow.Field{{Name: "i", Type: arrow.PrimitiveTypes.Int32, Nullable: true}, {Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}}, []arrow.UnionTypeCode{0, 1}),
			`[[0, 1], [1, "x"], [0, 2]]`, 0, 0},
		{"dictionary", &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}, `["a", "b", null, "a"]`, 1, 4},
		{"run-end encoded", arrow.RunEndEncodedOf(arrow.PrimitiveTypes.Int32, arrow.BinaryTypes.String), `["a", "a", "b", null, null]`, 1, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			arr := fromJSON(t, mem, tt.dt, tt.js, tt.lo, tt.hi)
			defer arr.Release()
			if err := validate.Array("c", arr); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestValidTensorAndStringsInNullSlots(t *testing.T) {
	typ := tensorType(t)
	arr, err := fixedshape.FromSlice(typ, []float32{1, 2, 3, 4, 5, 6, 7, 8}, []bool{true, false})
	if err != nil {
		t.Fatal(err)
	}
	defer arr.Release()
	if err := validate.Array("x", arr); err != nil {
		t.Fatal(err)
	}
	sliced := array.NewSlice(arr, 1, 2)
	defer sliced.Release()
	if err := validate.Array("x", sliced); err != nil {
		t.Fatal(err)
	}
	// Invalid UTF-8 in a null slot: Arrow C++ checks non-null values only.
	s := newData(arrow.BinaryTypes.String, 2, []*memory.Buffer{bits(false, true), i32s(0, 1, 2), bytesBuf([]byte{0xff, 'a'})}, nil, 1, 0)
	defer s.Release()
	if err := validate.Data("s", s); err != nil {
		t.Fatal(err)
	}
}

// invalidArrays are arrays that break one invariant each, with the
// fault validate.Data reports.
var invalidArrays = func() []invalidArray {
	str := arrow.BinaryTypes.String
	i32 := arrow.PrimitiveTypes.Int32
	return []invalidArray{
		{"values buffer short", func(*testing.T) arrow.ArrayData {
			return newData(i32, 3, []*memory.Buffer{nil, i32s(1, 2)}, nil, 0, 0)
		}, fault{"c", -1}},
		{"values buffer short for the offset", func(*testing.T) arrow.ArrayData {
			return newData(i32, 2, []*memory.Buffer{nil, i32s(1, 2)}, nil, 0, 1)
		}, fault{"c", -1}},
		{"decimal128 of 8-byte values", func(*testing.T) arrow.ArrayData {
			return newData(&arrow.Decimal128Type{Precision: 20}, 2, []*memory.Buffer{nil, i64s(1, 2)}, nil, 0, 0)
		}, fault{"c", -1}},
		{"bitmap short", func(*testing.T) arrow.ArrayData {
			return newData(i32, 9, []*memory.Buffer{bits(true), i32s(1, 2, 3, 4, 5, 6, 7, 8, 9)}, nil, 0, 0)
		}, fault{"c", -1}},
		{"null count not the bitmap's", func(*testing.T) arrow.ArrayData {
			return newData(i32, 2, []*memory.Buffer{bits(true, false), i32s(1, 2)}, nil, 0, 0)
		}, fault{"c", -1}},
		{"nulls without bitmap", func(*testing.T) arrow.ArrayData {
			return newData(i32, 2, []*memory.Buffer{nil, i32s(1, 2)}, nil, 1, 0)
		}, fault{"c", -1}},
		{"string offsets past data (reproducer)", func(*testing.T) arrow.ArrayData {
			return stringData([]int32{0, 4194304, 3}, "abc")
		}, fault{"c", 0}},
		{"string offsets decrease", func(*testing.T) arrow.ArrayData {
			return stringData([]int32{0, 2, 1, 3}, "abc")
		}, fault{"c", 1}},
		{"string first offset negative", func(*testing.T) arrow.ArrayData {
			return stringData([]int32{-1, 2}, "abc")
		}, fault{"c", 0}},
		{"string last offset past data", func(*testing.T) arrow.ArrayData {
			return stringData([]int32{0, 1, 4}, "abc")
		}, fault{"c", 1}},
		{"string offsets buffer short", func(*testing.T) arrow.ArrayData {
			return newData(str, 3, []*memory.Buffer{nil, i32s(0, 1, 2), bytesBuf([]byte("abc"))}, nil, 0, 0)
		}, fault{"c", -1}},
		{"string sliced offsets past data", func(*testing.T) arrow.ArrayData {
			return newData(str, 1, []*memory.Buffer{nil, i32s(0, 1, 9), bytesBuf([]byte("abc"))}, nil, 0, 1)
		}, fault{"c", 0}},
		{"string invalid UTF-8", func(*testing.T) arrow.ArrayData {
			return stringData([]int32{0, 1, 3}, "a\xff\xfe")
		}, fault{"c", 1}},
		{"string split inside a rune", func(*testing.T) arrow.ArrayData {
			return stringData([]int32{0, 1, 2}, "é")
		}, fault{"c", 0}},
		{"large string offsets past data", func(*testing.T) arrow.ArrayData {
			return newData(arrow.BinaryTypes.LargeString, 1, []*memory.Buffer{nil, i64s(0, 1<<40), bytesBuf([]byte("abc"))}, nil, 0, 0)
		}, fault{"c", 0}},
		{"binary offsets decrease", func(*testing.T) arrow.ArrayData {
			return newData(arrow.BinaryTypes.Binary, 2, []*memory.Buffer{nil, i32s(0, 3, 2), bytesBuf([]byte("abc"))}, nil, 0, 0)
		}, fault{"c", 1}},
		{"list offsets past child", func(*testing.T) arrow.ArrayData {
			return newData(arrow.ListOf(i32), 2, []*memory.Buffer{nil, i32s(0, 1, 5)}, []arrow.ArrayData{int32Data(1, 2)}, 0, 0)
		}, fault{"c", 1}},
		{"large list offsets decrease", func(*testing.T) arrow.ArrayData {
			return newData(arrow.LargeListOf(i32), 2, []*memory.Buffer{nil, i64s(0, 2, 1)}, []arrow.ArrayData{int32Data(1, 2)}, 0, 0)
		}, fault{"c", 1}},
		{"list of struct of bad strings", func(*testing.T) arrow.ArrayData {
			st := arrow.StructOf(arrow.Field{Name: "s", Type: str, Nullable: true})
			s := stringData([]int32{0, 1, 7}, "ab")
			sd := newData(st, 2, []*memory.Buffer{nil}, []arrow.ArrayData{s}, 0, 0)
			return newData(arrow.ListOf(st), 1, []*memory.Buffer{nil, i32s(0, 2)}, []arrow.ArrayData{sd}, 0, 0)
		}, fault{"c.item.s", 1}},
		{"list view past child", func(*testing.T) arrow.ArrayData {
			return newData(arrow.ListViewOf(i32), 2, []*memory.Buffer{nil, i32s(0, 1), i32s(1, 2)}, []arrow.ArrayData{int32Data(1, 2)}, 0, 0)
		}, fault{"c", 1}},
		{"list view negative size", func(*testing.T) arrow.ArrayData {
			return newData(arrow.LargeListViewOf(i32), 1, []*memory.Buffer{nil, i64s(0), i64s(-1)}, []arrow.ArrayData{int32Data(1, 2)}, 0, 0)
		}, fault{"c", 0}},
		{"fixed size list child short", func(*testing.T) arrow.ArrayData {
			return newData(arrow.FixedSizeListOf(2, i32), 2, []*memory.Buffer{nil}, []arrow.ArrayData{int32Data(1, 2, 3)}, 0, 0)
		}, fault{"c", -1}},
		{"tensor storage child short", func(t *testing.T) arrow.ArrayData {
			return newData(tensorType(t), 2, []*memory.Buffer{nil}, []arrow.ArrayData{
				newData(arrow.PrimitiveTypes.Float32, 7, []*memory.Buffer{nil, i32s(0, 0, 0, 0, 0, 0, 0)}, nil, 0, 0)}, 0, 0)
		}, fault{"c", -1}},
		{"struct child short", func(*testing.T) arrow.ArrayData {
			st := arrow.StructOf(arrow.Field{Name: "a", Type: i32, Nullable: true})
			return newData(st, 3, []*memory.Buffer{nil}, []arrow.ArrayData{int32Data(1, 2)}, 0, 0)
		}, fault{"c.a", -1}},
		{"child of another type", func(*testing.T) arrow.ArrayData {
			return newData(arrow.ListOf(i32), 1, []*memory.Buffer{nil, i32s(0, 1)}, []arrow.ArrayData{stringData([]int32{0, 1}, "a")}, 0, 0)
		}, fault{"c.item", -1}},
		{"map null key", func(*testing.T) arrow.ArrayData {
			mt := arrow.MapOf(str, i32)
			keys := newData(str, 2, []*memory.Buffer{bits(true, false), i32s(0, 1, 1), bytesBuf([]byte("a"))}, nil, 1, 0)
			entries := newData(mt.Elem(), 2, []*memory.Buffer{nil}, []arrow.ArrayData{keys, int32Data(1, 2)}, 0, 0)
			return newData(mt, 2, []*memory.Buffer{nil, i32s(0, 1, 2)}, []arrow.ArrayData{entries}, 0, 0)
		}, fault{"c", 1}},
		{"sparse union bad type id", func(*testing.T) arrow.ArrayData {
			ut := arrow.SparseUnionOf([]arrow.Field{{Name: "i", Type: i32}}, []arrow.UnionTypeCode{3})
			return newData(ut, 2, []*memory.Buffer{nil, bytesBuf([]byte{3, 4})}, []arrow.ArrayData{int32Data(1, 2)}, 0, 0)
		}, fault{"c", 1}},
		{"sparse union child short", func(*testing.T) arrow.ArrayData {
			ut := arrow.SparseUnionOf([]arrow.Field{{Name: "i", Type: i32}}, []arrow.UnionTypeCode{3})
			return newData(ut, 2, []*memory.Buffer{nil, bytesBuf([]byte{3, 3})}, []arrow.ArrayData{int32Data(1)}, 0, 0)
		}, fault{"c.i", -1}},
		{"union with a validity bitmap", func(*testing.T) arrow.ArrayData {
			ut := arrow.SparseUnionOf([]arrow.Field{{Name: "i", Type: i32}}, []arrow.UnionTypeCode{3})
			return newData(ut, 1, []*memory.Buffer{bits(true), bytesBuf([]byte{3})}, []arrow.ArrayData{int32Data(1)}, 0, 0)
		}, fault{"c", -1}},
		{"dense union offset past child", func(*testing.T) arrow.ArrayData {
			ut := arrow.DenseUnionOf([]arrow.Field{{Name: "i", Type: i32}}, []arrow.UnionTypeCode{0})
			return newData(ut, 2, []*memory.Buffer{nil, bytesBuf([]byte{0, 0}), i32s(0, 2)}, []arrow.ArrayData{int32Data(1, 2)}, 0, 0)
		}, fault{"c", 1}},
		{"dense union offsets decrease", func(*testing.T) arrow.ArrayData {
			ut := arrow.DenseUnionOf([]arrow.Field{{Name: "i", Type: i32}}, []arrow.UnionTypeCode{0})
			return newData(ut, 2, []*memory.Buffer{nil, bytesBuf([]byte{0, 0}), i32s(1, 0)}, []arrow.ArrayData{int32Data(1, 2)}, 0, 0)
		}, fault{"c", 1}},
		{"dictionary index past dictionary", func(*testing.T) arrow.ArrayData {
			dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: str}
			d := newData(dt, 3, []*memory.Buffer{nil, i32s(0, 1, 2)}, nil, 0, 0)
			d.(*array.Data).SetDictionary(stringData([]int32{0, 1, 2}, "ab"))
			return d
		}, fault{"c", 2}},
		{"dictionary negative index", func(*testing.T) arrow.ArrayData {
			dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: str}
			d := newData(dt, 2, []*memory.Buffer{nil, i32s(0, -1)}, nil, 0, 0)
			d.(*array.Data).SetDictionary(stringData([]int32{0, 1, 2}, "ab"))
			return d
		}, fault{"c", 1}},
		{"dictionary with bad strings", func(*testing.T) arrow.ArrayData {
			dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: str}
			d := newData(dt, 1, []*memory.Buffer{nil, i32s(0)}, nil, 0, 0)
			d.(*array.Data).SetDictionary(stringData([]int32{0, 9}, "ab"))
			return d
		}, fault{"c.dictionary", 0}},
		{"dictionary missing", func(*testing.T) arrow.ArrayData {
			dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: str}
			return newData(dt, 1, []*memory.Buffer{nil, i32s(0)}, nil, 0, 0)
		}, fault{"c", -1}},
		{"run ends not increasing", func(*testing.T) arrow.ArrayData {
			rt := arrow.RunEndEncodedOf(i32, i32)
			return newData(rt, 3, []*memory.Buffer{nil}, []arrow.ArrayData{int32Data(2, 2, 3), int32Data(1, 2, 3)}, 0, 0)
		}, fault{"c.run_ends", 1}},
		{"run ends do not cover", func(*testing.T) arrow.ArrayData {
			rt := arrow.RunEndEncodedOf(i32, i32)
			return newData(rt, 4, []*memory.Buffer{nil}, []arrow.ArrayData{int32Data(1, 3), int32Data(1, 2)}, 0, 0)
		}, fault{"c.run_ends", 1}},
		{"run ends zero", func(*testing.T) arrow.ArrayData {
			rt := arrow.RunEndEncodedOf(i32, i32)
			return newData(rt, 1, []*memory.Buffer{nil}, []arrow.ArrayData{int32Data(0, 1), int32Data(1, 2)}, 0, 0)
		}, fault{"c.run_ends", 0}},
		{"more run ends than values", func(*testing.T) arrow.ArrayData {
			rt := arrow.RunEndEncodedOf(i32, i32)
			return newData(rt, 2, []*memory.Buffer{nil}, []arrow.ArrayData{int32Data(1, 2), int32Data(1)}, 0, 0)
		}, fault{"c", -1}},
		{"string view past its data buffer", func(*testing.T) arrow.ArrayData {
			view := make([]byte, 16)
			binary.LittleEndian.PutUint32(view, 20)    // length: out of line
			copy(view[4:], "abcd")                     // prefix
			binary.LittleEndian.PutUint32(view[8:], 0) // buffer 0
			binary.LittleEndian.PutUint32(view[12:], 0)
			return newData(arrow.BinaryTypes.StringView, 1, []*memory.Buffer{nil, bytesBuf(view), bytesBuf([]byte("abcdef"))}, nil, 0, 0)
		}, fault{"c", -1}},
		{"null array with a buffer", func(*testing.T) arrow.ArrayData {
			return newData(arrow.Null, 2, []*memory.Buffer{bytesBuf([]byte{1})}, nil, 2, 0)
		}, fault{"c", -1}},
	}
}()

type invalidArray struct {
	name string
	data func(t *testing.T) arrow.ArrayData
	want fault
}

func TestInvalidArrays(t *testing.T) {
	for _, tt := range invalidArrays {
		t.Run(tt.name, func(t *testing.T) {
			d := tt.data(t)
			defer d.Release()
			err := validate.Data("c", d)
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("error %v, want one wrapping arrow.ErrInvalid", err)
			}
			var ve *validate.Error
			if !errors.As(err, &ve) {
				t.Fatalf("error %T %v, want a *validate.Error", err, err)
			}
			if diff := cmp.Diff(tt.want, fault{ve.Path, ve.Row}); diff != "" {
				t.Errorf("%v: fault (-want +got):\n%s", err, diff)
			}
		})
	}
}

func TestRecord(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ints := fromJSON(t, mem, arrow.PrimitiveTypes.Int32, `[1, 2]`, 0, 0)
	defer ints.Release()
	bad := array.MakeFromData(stringData([]int32{0, 4194304, 3}, "abc"))
	defer bad.Release()
	schema := func(cols ...arrow.Array) *arrow.Schema {
		fs := make([]arrow.Field, len(cols))
		for i, c := range cols {
			fs[i] = arrow.Field{Name: string(rune('a' + i)), Type: c.DataType(), Nullable: true}
		}
		return arrow.NewSchema(fs, nil)
	}
	tests := []struct {
		name string
		rec  func() arrow.RecordBatch
		want *fault // nil: valid
	}{
		{"valid", func() arrow.RecordBatch { return array.NewRecordBatch(schema(ints), []arrow.Array{ints}, 2) }, nil},
		{"no columns", func() arrow.RecordBatch { return array.NewRecordBatch(arrow.NewSchema(nil, nil), nil, 0) }, nil},
		{"bad string column", func() arrow.RecordBatch {
			return array.NewRecordBatch(schema(ints, bad), []arrow.Array{ints, bad}, 2)
		}, &fault{"b", 0}},
		{"column of another type than its field", func() arrow.RecordBatch {
			sc := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int64}}, nil)
			return &record{RecordBatch: array.NewRecordBatch(schema(ints), []arrow.Array{ints}, 2), schema: sc}
		}, &fault{"a", -1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := tt.rec()
			defer rec.Release()
			err := validate.Record(rec)
			if tt.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var ve *validate.Error
			if !errors.Is(err, arrow.ErrInvalid) || !errors.As(err, &ve) {
				t.Fatalf("error %v, want a *validate.Error", err)
			}
			if diff := cmp.Diff(*tt.want, fault{ve.Path, ve.Row}); diff != "" {
				t.Errorf("%v: fault (-want +got):\n%s", err, diff)
			}
		})
	}
}

// record is a batch whose schema disagrees with its columns, as a
// caller's own RecordBatch type can.
type record struct {
	arrow.RecordBatch
	schema *arrow.Schema
}

func (r *record) Schema() *arrow.Schema { return r.schema }

// TestPanicIsError: an array whose method panics gives an error.
func TestPanicIsError(t *testing.T) {
	err := validate.Array("p", panicky{})
	if !errors.Is(err, arrow.ErrInvalid) {
		t.Fatalf("error %v, want one wrapping arrow.ErrInvalid", err)
	}
}

type panicky struct{ arrow.Array }

func (panicky) Data() arrow.ArrayData { panic("planted") }
