package varshape_test

import (
	"errors"
	"math/bits"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/expr"
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
