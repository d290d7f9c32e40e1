package expr_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
)

// TestRawElemTypes evaluates view expressions over columns of element
// types without a Go type (16- and 32-byte decimals, 3-byte fixed-size
// binaries, timestamps). The reference is the same expression over an
// int64 column of the same layout whose elements are their own physical
// offsets: result element j must hold the raw bytes of the input element
// at the offset the int64 result names.
func TestRawElemTypes(t *testing.T) {
	elems := []arrow.DataType{
		&arrow.Decimal128Type{Precision: 20, Scale: 3},
		&arrow.Decimal256Type{Precision: 60, Scale: 0},
		&arrow.FixedSizeBinaryType{ByteWidth: 3},
		&arrow.TimestampType{Unit: arrow.Nanosecond},
	}
	tests := []struct {
		name        string
		shape, perm []int
		exprs       []string
	}{
		{"0-D", []int{}, nil, []string{"x", "x[None]", "x.reshape(1, 1)"}},
		{"non-square", []int{3, 5}, nil, []string{"x.T", "x[::-1, 1::2]", "x[1]", "x.reshape(-1)"}},
		{"3-cycle", []int{2, 3, 4}, []int{2, 0, 1}, []string{"x.transpose(2, 0, 1)", "x.T", "x[:, ::-2, 1:3]", "x.reshape(4, 6)", "x[..., 0]"}},
		{"null tensors", []int{4, 2}, []int{1, 0}, []string{"x.T", "x[::-1]"}},
	}
	for _, dt := range elems {
		for _, tt := range tests {
			t.Run(dt.String()+"/"+tt.name, func(t *testing.T) {
				mem := testvec.CheckedMem(t)
				m := metadata.MustNew(tt.shape, nil, tt.perm)
				typ := fixedshape.MustNewType(dt, m)
				ityp := fixedshape.MustNewType(arrow.PrimitiveTypes.Int64, m)
				valid := []bool{true, tt.name != "null tensors", true}
				size, w := m.Size(), typ.ElemWidth()

				offs := make([]int64, len(valid)*size)
				for i := range offs {
					offs[i] = int64(i % size)
				}
				icol, err := fixedshape.FromSlice(ityp, offs, valid)
				if err != nil {
					t.Fatal(err)
				}
				defer icol.Release()
				raw := make([]byte, len(valid)*size*w)
				for i := range raw {
					raw[i] = byte(i*13 + 5)
				}
				buf := memory.NewBufferBytes(raw)
				col0, err := fixedshape.NewArrayFromBuffer(typ, len(valid), buf)
				if err != nil {
					t.Fatal(err)
				}
				defer col0.Release()
				// The same values with icol's validity.
				d := array.NewData(typ, len(valid), []*memory.Buffer{icol.Data().Buffers()[0]}, []arrow.ArrayData{col0.Storage().Data().Children()[0]}, icol.NullN(), 0)
				defer d.Release()
				col := array.MakeFromData(d).(*fixedshape.Array)
				defer col.Release()

				for _, text := range tt.exprs {
					got, from := evalTraced(t, mem, text, col, icol)
					n := got.TensorType().ListSize()
					gb := got.ValueBytes()
					for i := range valid {
						if got.IsNull(i) != !valid[i] {
							t.Fatalf("%s: tensor %d null = %v", text, i, got.IsNull(i))
						}
						if !valid[i] {
							continue
						}
						for j := range n {
							src := int(from[i*n+j])
							want := raw[(i*size+src)*w:][:w]
							if g := gb[(i*n+j)*w:][:w]; !bytes.Equal(g, want) {
								t.Fatalf("%s: tensor %d element %d = %x, want %x (input offset %d)", text, i, j, g, want, src)
							}
						}
					}
					got.Release()
				}
			})
		}
	}
}

// TestBoolExprs evaluates view expressions over bool columns, whose
// elements are bits, against the same expressions over an int64 column of
// element offsets, through Eval and EvalInto.
func TestBoolExprs(t *testing.T) {
	tests := []struct {
		name        string
		shape, perm []int
		exprs       []string
	}{
		{"0-D", []int{}, nil, []string{"x", "x[None]", "x.reshape(1, 1)"}},
		{"non-square", []int{3, 5}, nil, []string{"x", "x.T", "x[::-1, 1::2]", "x[1]", "x.reshape(-1)"}},
		{"3-cycle", []int{2, 3, 4}, []int{2, 0, 1}, []string{"x", "x.transpose(2, 0, 1)", "x.T", "x[:, ::-2, 1:3]", "x.reshape(4, 6)", "x[..., 0]", "x.T.reshape(-1)[3:]"}},
		{"null tensors", []int{4, 2}, []int{1, 0}, []string{"x.T", "x[::-1]"}},
		{"wide rows", []int{3, 40}, nil, []string{"x[:, 3:37]", "x[1:]", "x.T"}},
		{"long rows", []int{3, 150}, nil, []string{"x[:, 3:137]", "x[1:]", "x.T", "x[:, ::-1]", "x.reshape(50, 9).T"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := testvec.CheckedMem(t)
			m := metadata.MustNew(tt.shape, nil, tt.perm)
			typ := fixedshape.MustNewType(arrow.FixedWidthTypes.Boolean, m)
			ityp := fixedshape.MustNewType(arrow.PrimitiveTypes.Int64, m)
			valid := []bool{true, tt.name != "null tensors", true}
			size := m.Size()
			offs := make([]int64, len(valid)*size)
			vals := make([]bool, len(offs))
			for i := range offs {
				offs[i] = int64(i % size)
				vals[i] = (i*7+i/3)%5 < 2
			}
			icol, err := fixedshape.FromSlice(ityp, offs, valid)
			if err != nil {
				t.Fatal(err)
			}
			defer icol.Release()
			col, err := fixedshape.FromBools(mem, typ, vals, valid)
			if err != nil {
				t.Fatal(err)
			}
			defer col.Release()
			// A slice: bit offsets that are not byte-aligned.
			sl := array.NewSlice(col, 1, 3).(*fixedshape.Array)
			defer sl.Release()
			isl := array.NewSlice(icol, 1, 3).(*fixedshape.Array)
			defer isl.Release()
			for _, c := range []struct {
				in, ref *fixedshape.Array
				first   int
			}{{col, icol, 0}, {sl, isl, 1}} {
				for _, text := range tt.exprs {
					got, from := evalTraced(t, mem, text, c.in, c.ref)
					n := got.TensorType().ListSize()
					into := make([]byte, (c.in.Len()*n+7)/8)
					plan, err := expr.CompilePlan(expr.MustParse(text, expr.Input(typ)))
					if err != nil {
						t.Fatal(err)
					}
					if err := plan.EvalInto(into, c.in); err != nil {
						t.Fatal(err)
					}
					bits, first := got.ValueBits()
					for i := range c.in.Len() {
						row := c.first + i
						if got.IsNull(i) != !valid[row] {
							t.Fatalf("%s: tensor %d null = %v", text, i, got.IsNull(i))
						}
						if !valid[row] {
							continue
						}
						for j := range n {
							want := vals[row*size+int(from[i*n+j])]
							if g := bitutil.BitIsSet(bits, first+i*n+j); g != want {
								t.Fatalf("%s (first %d): tensor %d element %d = %v, want %v", text, c.first, i, j, g, want)
							}
							if g := bitutil.BitIsSet(into, i*n+j); g != want {
								t.Fatalf("%s: EvalInto tensor %d element %d = %v, want %v", text, i, j, g, want)
							}
						}
					}
					got.Release()
				}
			}
		})
	}
}

// evalTraced evaluates text over in and over ref, a column of the same
// shape and validity whose int64 elements number in's elements, and
// returns the result over in and, for each of its elements, the number of
// the input element it holds. The caller releases the result.
func evalTraced(t *testing.T, mem memory.Allocator, text string, in, ref *fixedshape.Array) (*fixedshape.Array, []int64) {
	t.Helper()
	e, err := expr.Parse(text, expr.Input(in.TensorType()))
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	got, err := evalTensors(e, in, expr.WithAllocator(mem))
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	r, err := evalTensors(expr.MustParse(text, expr.Input(ref.TensorType())), ref, expr.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Release()
	rc, err := fixedshape.ColumnOf[int64](r)
	if err != nil {
		t.Fatal(err)
	}
	return got, slices.Clone(rc.Values())
}
