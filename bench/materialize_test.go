package bench_test

import (
	"runtime"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/bench"
	"github.com/fstensor/fstensor/expr"
)

// BenchmarkMaterialize times the materialization cases (bench.Cases):
// impl=expr is Plan.EvalInto into a reused buffer on GOMAXPROCS workers
// (impl=expr-w1: on one, as NumPy and the Go peers run),
// impl=eval is expr.Eval end to end (allocating the result column),
// impl=relabel is the zero-copy result where one exists, and impl=copy is
// copy() of as many bytes as the result holds. Throughput counts result
// bytes.
func BenchmarkMaterialize(b *testing.B) {
	for _, s := range sizes(b) {
		for _, c := range bench.Cases(s) {
			benchCase[float32](b, c)
		}
	}
}

func benchCase[T float](b *testing.B, c bench.Case) {
	in := column[T](b, c.Batch, c.Shape)
	defer in.Release()
	p, err := expr.CompilePlan(expr.MustParse(c.Expr, expr.Input(in.TensorType())))
	must(b, err)
	n := c.Batch * p.Metadata().Size() * c.ElemWidth()
	dst := make([]byte, n)
	name := c.Name()
	b.Run(name+"/impl=expr", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(n))
		for b.Loop() {
			if err := p.EvalInto(dst, in); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run(name+"/impl=expr-w1", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(n))
		for b.Loop() {
			if err := p.EvalInto(dst, in, expr.WithWorkers(1)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run(name+"/impl=eval", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(n))
		for b.Loop() {
			out, err := p.Eval(in, expr.WithAllocator(memory.DefaultAllocator))
			if err != nil {
				b.Fatal(err)
			}
			out.Release()
		}
	})
	if _, ok := p.Relabel(); ok {
		// O(1): ns/op is the figure, so no SetBytes.
		b.Run(name+"/impl=relabel", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				out, err := p.Eval(in, expr.WithRelabel())
				if err != nil {
					b.Fatal(err)
				}
				out.Release()
			}
		})
	}
	copyBaseline(b, name, dst, in.ValueBytes(), n)
}

// BenchmarkScaling shows where per-call overhead ends: a transpose (x.T)
// of float32 tensors against the batch size (1 to 100k tensors of 16x16)
// and against the tensor size (4x4 to 2048x2048 in about 16 MiB), on one
// and two workers (procs=, which sets GOMAXPROCS), each beside a copy() of
// the same bytes.
func BenchmarkScaling(b *testing.B) {
	type point struct {
		sweep string
		batch int
		side  int
	}
	var points []point
	batches := []int{1, 10, 100, 1000, 10000, 100000}
	sides := []int{4, 16, 64, 256, 1024, 2048}
	if testing.Short() {
		batches, sides = []int{1, 100}, []int{4, 64}
	}
	for _, n := range batches {
		points = append(points, point{"batch", n, 16})
	}
	for _, side := range sides {
		points = append(points, point{"tensor", max(1, (16<<20)/(4*side*side)), side})
	}
	for _, pt := range points {
		in := column[float32](b, pt.batch, []int{pt.side, pt.side})
		p, err := expr.CompilePlan(expr.MustParse("x.T", expr.Input(in.TensorType())))
		must(b, err)
		n := len(in.ValueBytes())
		dst := make([]byte, n)
		name := "op=transpose/sweep=" + pt.sweep + "/dtype=float32/" + shapeKey(pt.batch, pt.side, pt.side)
		for _, procs := range []int{1, 2} {
			b.Run(name+"/procs="+itoa(procs)+"/impl=expr", func(b *testing.B) {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
				b.ReportAllocs()
				b.SetBytes(int64(n))
				for b.Loop() {
					if err := p.EvalInto(dst, in); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		copyBaseline(b, name+"/procs=1", dst, in.ValueBytes(), n)
		in.Release()
	}
}

// BenchmarkMemcpy measures the hardware: copy() bandwidth of one
// goroutine, and of two goroutines each copying half, at both sizes.
func BenchmarkMemcpy(b *testing.B) {
	for _, s := range sizes(b) {
		n := s.Bytes()
		src, dst := make([]byte, n), make([]byte, n)
		for i := range src {
			src[i] = byte(i)
		}
		for _, g := range []int{1, 2} {
			b.Run("op=memcpy/size="+s.String()+"/goroutines="+itoa(g), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(n))
				for b.Loop() {
					parallelCopy(dst, src, g)
				}
			})
		}
	}
}

// parallelCopy copies src into dst on g goroutines, each a contiguous
// share, the calling one included.
func parallelCopy(dst, src []byte, g int) {
	if g <= 1 {
		copy(dst, src)
		return
	}
	done := make(chan struct{}, g-1)
	share := (len(src) + g - 1) / g
	for w := 1; w < g; w++ {
		lo, hi := min(w*share, len(src)), min((w+1)*share, len(src))
		go func() {
			copy(dst[lo:hi], src[lo:hi])
			done <- struct{}{}
		}()
	}
	copy(dst[:share], src[:share])
	for w := 1; w < g; w++ {
		<-done
	}
}
