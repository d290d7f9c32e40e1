package expr_test

import (
	"testing"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
)

// BenchmarkGraph times graph expressions through Compile and
// Program.Eval on one worker, over 16384 rows of two float32 (768,)
// columns (48 MiB each): row normalization (bytes: the output), the L2
// distance and dot product of the two columns (bytes: the input read),
// a mask (a bool tensor, bytes: the input), the square root of a sum
// (bytes: the output; of two columns, so that the engine runs it, where
// a one-column chain would run as a Plan), a where (bytes: the output)
// and a projection by a constant 768x128 matrix (bytes: the input), each
// beside impl=copy of the same bytes.
func BenchmarkGraph(b *testing.B) {
	const rows, dim = 16384, 768
	typ := mustFixed(b, f32, dim)
	mem := memory.NewGoAllocator()
	vals := make([]float32, rows*dim)
	for i := range vals {
		vals[i] = float32(i%1000)/1000 - 0.5
	}
	a1, err := fromSlice(typ, vals, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer a1.Release()
	other := make([]float32, len(vals))
	for i := range other {
		other[i] = float32(i%997)/997 - 0.5
	}
	a2, err := fromSlice(typ, other, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer a2.Release()
	n := rows
	c1, c2 := a1, a2
	schema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: typ}, {Name: "b", Type: typ}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{c1, c2}, int64(n))
	defer rec.Release()
	w := make([]float32, dim*128)
	for i := range w {
		w[i] = float32(i%7) / 7
	}
	load := expr.WithLoad(func(string) (expr.Const, error) { return expr.Array([]int{dim, 128}, w), nil })
	inBytes, outBytes := int64(n*dim*4), int64(n*dim*4)
	for _, c := range []struct {
		op, text string
		bytes    int64
	}{
		{"normalize", "a / norm(a, axis=-1, keepdims=True)", outBytes},
		{"l2", "norm(a - b, axis=-1)", 2 * inBytes},
		{"dot", "dot(a, b)", 2 * inBytes},
		{"mask", "a > 0", inBytes},
		{"sqrt", "sqrt(a + b)", outBytes},
		{"where", "where(a > 0, a, b)", outBytes},
		{"project", `a @ load("W")`, inBytes},
	} {
		p, err := expr.Compile(c.text, schema, expr.WithWorkers(1), expr.WithAllocator(mem), load)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("op="+c.op+"/impl=expr", func(b *testing.B) {
			b.SetBytes(c.bytes)
			b.ReportAllocs()
			for b.Loop() {
				out, err := p.Eval(rec)
				if err != nil {
					b.Fatal(err)
				}
				out.Release()
			}
		})
		b.Run("op="+c.op+"/impl=copy", func(b *testing.B) {
			src := make([]byte, c.bytes)
			dst := make([]byte, c.bytes)
			b.SetBytes(c.bytes)
			b.ReportAllocs()
			for b.Loop() {
				copy(dst, src)
			}
		})
	}
}

// BenchmarkIntChain times integer arithmetic chains, a mask and a where
// over 64 224x224x3 images (uint8, and int16 and int32 as depth maps or
// scans hold them) through Compile and Program.Eval on one worker (bytes:
// the input), beside op=copy of the same bytes.
func BenchmarkIntChain(b *testing.B) {
	b.Run("dtype=uint8", func(b *testing.B) { benchIntChain[uint8](b, arrow.PrimitiveTypes.Uint8) })
	b.Run("dtype=int16", func(b *testing.B) { benchIntChain[int16](b, arrow.PrimitiveTypes.Int16) })
	b.Run("dtype=int32", func(b *testing.B) { benchIntChain[int32](b, arrow.PrimitiveTypes.Int32) })
}

func benchIntChain[T int16 | int32 | uint8](b *testing.B, dt arrow.DataType) {
	const n = 64
	typ := mustFixed(b, dt, 224, 224, 3)
	vals := make([]T, n*224*224*3)
	for i := range vals {
		vals[i] = T(i * 7)
	}
	x, err := fromSlice(typ, vals, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer x.Release()
	bytes := int64(len(vals)) * int64(unsafe.Sizeof(vals[0]))
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: typ}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{x}, n)
	defer rec.Release()
	mem := memory.NewGoAllocator()
	for _, c := range []struct{ op, text string }{
		{"mul", "x * 2"},
		{"add", "x + 1"},
		{"mul-astype", "(x * 2).astype(float32)"},
		{"mask", "x > 128"},
		{"where", "where(x > 128, x, 0)"},
	} {
		p, err := expr.Compile(c.text, schema, expr.WithWorkers(1), expr.WithAllocator(mem))
		if err != nil {
			b.Fatal(err)
		}
		b.Run("op="+c.op+"/impl=expr", func(b *testing.B) {
			b.SetBytes(bytes)
			b.ReportAllocs()
			for b.Loop() {
				out, err := p.Eval(rec)
				if err != nil {
					b.Fatal(err)
				}
				out.Release()
			}
		})
	}
	b.Run("op=copy/impl=copy", func(b *testing.B) {
		src := x.(*fixedshape.Array).ValueBytes()
		dst := make([]byte, len(src))
		b.SetBytes(bytes)
		b.ReportAllocs()
		for b.Loop() {
			copy(dst, src)
		}
	})
}
