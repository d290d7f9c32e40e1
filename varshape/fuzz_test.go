package varshape_test

import (
	"errors"
	"math/bits"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/varshape"
)

// FuzzDeserialize checks that any metadata either fails with
// arrow.ErrInvalid or gives a type whose serialization reads back equal
// and byte-identical.
func FuzzDeserialize(f *testing.F) {
	for _, s := range []string{
		`{}`, ``, `{"permutation":[0,1,2],"dim_names":["x","y","z"],"uniform_shape":[null,1,null]}`,
		`{"permutation":[2,0,1]}`, `{"uniform_shape":[1.5,null,null]}`, `{"dim_names":[1,2,3]}`,
		`{"permutations":[1,2,0]}`, `{"shape":(3,4)}`, `{"dim_names":["a\u0000","b","c"]}`,
	} {
		f.Add(s)
	}
	st := varshape.StorageOf(arrow.PrimitiveTypes.Int16, 3)
	f.Fuzz(func(t *testing.T, data string) {
		typ, err := (&varshape.Type{}).Deserialize(st, data)
		if err != nil {
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
			return
		}
		s := typ.(*varshape.Type).Serialize()
		back, err := typ.Deserialize(st, s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if !typ.ExtensionEquals(back.(arrow.ExtensionType)) || back.(*varshape.Type).Serialize() != s {
			t.Fatalf("%q -> %s -> %s", data, s, back.(*varshape.Type).Serialize())
		}
	})
}

// FuzzArray builds arrays from arbitrary offsets, shapes, validity and
// values: NewArrayFromBuffers either refuses them with arrow.ErrInvalid or
// gives an array whose every view and conversion works without panicking.
func FuzzArray(f *testing.F) {
	f.Add(uint8(2), []byte{0, 0, 0, 0, 6, 0, 0, 0, 8, 0, 0, 0}, []byte{2, 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0}, uint8(3), make([]byte, 16))
	f.Add(uint8(2), []byte{0, 0, 0, 0, 6, 0, 0, 0, 4, 0, 0, 0}, []byte{2, 0, 0, 0, 3, 0, 0, 0, 255, 255, 255, 255, 2, 0, 0, 0}, uint8(1), make([]byte, 16))
	f.Fuzz(func(t *testing.T, n uint8, offs, shapes []byte, valid uint8, values []byte) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		rows := int(n % 8)
		typ := varshape.MustNewType(arrow.PrimitiveTypes.Int16, 2, varshape.Options{})
		nulls := rows - bits.OnesCount8(valid&(1<<rows-1))
		vb := memory.NewBufferBytes([]byte{valid})
		ob := memory.NewBufferBytes(offs[:len(offs)&^3])
		sb := memory.NewBufferBytes(shapes[:len(shapes)&^3])
		arr, err := varshape.NewArrayFromBuffers(typ, rows, vb, ob, memory.NewBufferBytes(values[:len(values)&^1]), sb, nulls)
		if err != nil {
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
			return
		}
		defer arr.Release()
		col, err := varshape.ColumnOf[int16](arr)
		if err != nil {
			return // misaligned values
		}
		for i := range col.Len() {
			x := col.Tensor(i)
			_ = x.AppendLogical(nil)
			_ = arr.ValueStr(i)
		}
		if fx, err := varshape.ToFixed(mem, arr); err == nil {
			fx.Release()
		}
		if _, err := varshape.Shapes(arr); err != nil {
			t.Fatal(err)
		}
		for _, text := range []string{"x[1:, ::-1]", "x.T", "x[0]"} {
			schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: typ, Nullable: true}}, nil)
			p, err := expr.Compile(text, schema, expr.WithAllocator(mem))
			if err != nil {
				t.Fatalf("%s: %v", text, err)
			}
			if out, err := p.EvalColumn(arr); err == nil {
				out.Release()
			} else if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("%s: %v", text, err)
			}
		}
	})
}

// FuzzBoolArray builds bool arrays from arbitrary offsets, shapes,
// validity and bits, with or without a permutation, and reads them from
// any slice offset: NewArrayFromBuffers refuses them with arrow.ErrInvalid
// or gives an array whose rows read the same through BoolAt, Row, the
// storage form and expr's ~x (checked against the naive negation),
// without panicking.
func FuzzBoolArray(f *testing.F) {
	f.Add(uint8(3), []byte{0, 0, 0, 0, 6, 0, 0, 0, 6, 0, 0, 0, 9, 0, 0, 0}, []byte{2, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0}, uint8(5), []byte{0xa5, 0x3c}, false, uint8(1))
	f.Add(uint8(2), []byte{3, 0, 0, 0, 7, 0, 0, 0, 8, 0, 0, 0}, []byte{2, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, uint8(3), []byte{0xff, 0x01}, true, uint8(0))
	f.Add(uint8(2), []byte{0, 0, 0, 0, 9, 0, 0, 0, 9, 0, 0, 0}, []byte{3, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0}, uint8(3), []byte{0xff}, false, uint8(0))
	f.Fuzz(func(t *testing.T, n uint8, offs, shapes []byte, valid uint8, values []byte, transposed bool, lo uint8) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		rows := int(n % 8)
		o := varshape.Options{}
		if transposed {
			o.Permutation = []int{1, 0}
		}
		typ := varshape.MustNewType(arrow.FixedWidthTypes.Boolean, 2, o)
		nulls := rows - bits.OnesCount8(valid&(1<<rows-1))
		vb := memory.NewBufferBytes([]byte{valid})
		ob := memory.NewBufferBytes(offs[:len(offs)&^3])
		sb := memory.NewBufferBytes(shapes[:len(shapes)&^3])
		full, err := varshape.NewArrayFromBuffers(typ, rows, vb, ob, memory.NewBufferBytes(values), sb, nulls)
		if err != nil {
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
			return
		}
		defer full.Release()
		arr := full
		if rows > 0 {
			arr = array.NewSlice(full, int64(int(lo)%rows), int64(rows)).(*varshape.Array)
			defer arr.Release()
		}
		want := boolRowsOf(t, arr)
		if fx, err := varshape.ToFixed(mem, arr); err == nil {
			fx.Release()
		}
		if _, err := varshape.Shapes(arr); err != nil {
			t.Fatal(err)
		}
		schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: typ, Nullable: true}}, nil)
		rec := array.NewRecordBatch(schema, []arrow.Array{arr}, int64(arr.Len()))
		defer rec.Release()
		st := varshape.StorageRecord(rec)
		defer st.Release()
		back, _, err := varshape.FromStorage(st.Schema().Field(0), st.Column(0))
		if err != nil {
			t.Fatalf("storage form: %v", err)
		}
		defer back.Release()
		if got := boolRowsOf(t, back); !slices.EqualFunc(want, got, func(a, b []bool) bool { return slices.Equal(a, b) && (a == nil) == (b == nil) }) {
			t.Fatalf("storage form %v, want %v", got, want)
		}
		p, err := expr.Compile("~x", schema, expr.WithAllocator(mem))
		if err != nil {
			t.Fatal(err)
		}
		out, err := p.EvalColumn(arr)
		if err != nil {
			t.Fatalf("~x: %v", err)
		}
		defer out.Release()
		neg := boolRowsOf(t, out.(*varshape.Array))
		for i, r := range want {
			for k := range r {
				r[k] = !r[k]
			}
			if !slices.Equal(r, neg[i]) {
				t.Fatalf("row %d: ~x is %v, want %v", i, neg[i], r)
			}
		}
	})
}

// boolRowsOf returns the elements of each row of a in logical order
// through BoolAt, nil for a null row, checking Row and ValueStr on the way.
func boolRowsOf(t *testing.T, a *varshape.Array) [][]bool {
	out := make([][]bool, a.Len())
	for i := range out {
		_ = a.ValueStr(i)
		if a.IsNull(i) {
			continue
		}
		shape := a.Shape(nil, i)
		out[i] = []bool{}
		var one *fixedshape.Array
		if prod(shape) > 0 {
			var err error
			if one, err = a.Row(i); err != nil {
				t.Fatalf("Row(%d): %v", i, err)
			}
			defer one.Release()
		}
		for idx := range testvec.Indices(shape) {
			v := a.BoolAt(i, idx...)
			if one != nil && one.BoolAt(0, idx...) != v {
				t.Fatalf("row %d %v: Row and BoolAt differ", i, idx)
			}
			out[i] = append(out[i], v)
		}
	}
	return out
}
