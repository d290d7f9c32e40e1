package varshape_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/varshape"
)

// benchImages returns n uint8 images (h, w, 3) with h and w drawn from
// [lo, hi], in a column with a uniform channel axis.
func benchImages(b *testing.B, n, lo, hi int) *varshape.Array {
	b.Helper()
	typ := varshape.MustNewType(arrow.PrimitiveTypes.Uint8, 3, varshape.Options{
		DimNames: []string{"h", "w", "c"}, UniformShape: []int{varshape.Varies, varshape.Varies, 3}})
	bld, err := varshape.NewBuilder[uint8](memory.DefaultAllocator, typ)
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	buf := make([]uint8, hi*hi*3)
	for i := range buf {
		buf[i] = uint8(i)
	}
	for range n {
		h, w := lo+r.IntN(hi-lo+1), lo+r.IntN(hi-lo+1)
		if err := bld.Append([]int{h, w, 3}, buf[:h*w*3]); err != nil {
			b.Fatal(err)
		}
	}
	return bld.NewArray()
}

func BenchmarkTensor(b *testing.B) {
	arr := benchImages(b, 10000, 32, 64)
	defer arr.Release()
	col, err := varshape.ColumnOf[uint8](arr)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("op=view/rows=10000", func(b *testing.B) {
		b.ReportAllocs()
		var sink int
		for b.Loop() {
			for i := range col.Len() {
				sink += col.Tensor(i).Size()
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*col.Len()), "ns/row")
		_ = sink
	})
}

// BenchmarkEval evaluates a crop to the smallest side and a transpose to
// channels first over uint8 images (h, w, 3), h and w drawn from the side
// range, on one worker, through expr.Program.EvalColumn: impl=eval is end
// to end with the result column's allocation (ns/row is the whole cost
// of a row), impl=copy is copy() of the result bytes (from a written
// buffer of that size).
// The 300-row case stays in cache.
func BenchmarkEval(b *testing.B) {
	for _, sz := range []struct{ rows, lo, hi int }{{10000, 32, 64}, {10000, 96, 160}, {1000, 224, 288}, {300, 32, 64}} {
		benchEval(b, sz.rows, sz.lo, sz.hi)
	}
}

func benchEval(b *testing.B, rows, lo, hi int) {
	arr := benchImages(b, rows, lo, hi)
	defer arr.Release()
	typ := arr.TensorType()
	for _, op := range []struct{ name, text string }{
		{"crop", fmt.Sprintf("x[:%d, :%d]", lo, lo)},
		{"transpose", "x.transpose(2, 0, 1)"},
	} {
		p := compileVar(b, op.text, typ)
		out, err := p.EvalColumn(arr)
		if err != nil {
			b.Fatal(err)
		}
		nbytes := out.Data().Children()[0].Len()
		if _, ok := varshape.TypeOf(out.DataType()); ok {
			nbytes = out.Data().Children()[0].Children()[0].Len()
		}
		out.Release()
		name := fmt.Sprintf("op=%s/dtype=uint8/rows=%d/side=%d-%d", op.name, arr.Len(), lo, hi)
		b.Run(name+"/impl=eval", func(b *testing.B) {
			b.SetBytes(int64(nbytes))
			b.ReportAllocs()
			for b.Loop() {
				out, err := p.EvalColumn(arr)
				if err != nil {
					b.Fatal(err)
				}
				out.Release()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*arr.Len()), "ns/row")
		})
		b.Run(name+"/impl=copy", func(b *testing.B) {
			src, dst := make([]byte, nbytes), make([]byte, nbytes)
			// Written, so that src is memory of its own: the pages of a
			// fresh allocation read as one shared zero page, in cache.
			for i := range src {
				src[i] = byte(i)
			}
			b.SetBytes(int64(nbytes))
			b.ReportAllocs()
			for b.Loop() {
				copy(dst, src)
			}
		})
	}
}

// BenchmarkPlanPerRow measures what a row costs beside its elements: the
// plan lookup and dispatch, on 10,000 images of 1 to 8 pixels a side
// cropped to one pixel, with a warm plan cache (impl=cached) and a cold
// one compiling each of the 64 distinct shapes (impl=cold).
func BenchmarkPlanPerRow(b *testing.B) {
	arr := benchImages(b, 10000, 1, 8)
	defer arr.Release()
	warm := compileVar(b, "x[:1, :1]", arr.TensorType())
	for _, impl := range []string{"cached", "cold"} {
		b.Run("rows=10000/impl="+impl, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				p := warm
				if impl == "cold" {
					p = compileVar(b, "x[:1, :1]", arr.TensorType())
				}
				out, err := p.EvalColumn(arr)
				if err != nil {
					b.Fatal(err)
				}
				out.Release()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*arr.Len()), "ns/row")
		})
	}
}

// compileVar compiles text over x, a column of typ, on one worker.
func compileVar(tb testing.TB, text string, typ *varshape.Type) *expr.Program {
	tb.Helper()
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: typ, Nullable: true}}, nil)
	p, err := expr.Compile(text, schema, expr.WithWorkers(1))
	if err != nil {
		tb.Fatal(err)
	}
	return p
}
