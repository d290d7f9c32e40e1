package engine_test

import (
	"fmt"
	"testing"

	"github.com/fstensor/fstensor/expr/internal/engine"
	"github.com/fstensor/fstensor/search"
)

// benchCase is one benchmark: a graph over columns of rows rows, and the
// bytes its copy() baseline moves (the result's, or the bytes read).
type benchCase struct {
	name   string
	inputs []engine.Input
	roots  []*engine.Node
	rows   int
	// baseline is the bytes of the copy() beside it; setBytes those
	// the engine's benchmark reports.
	baseline int
}

func benchCases() []benchCase {
	f32, u8 := engine.Float32, engine.Uint8
	x := in(0, f32, 768)
	img := in(0, u8, 224, 224, 3)
	mean := konst(f32, []int{3}, 0.485*255, 0.456*255, 0.406*255)
	std := konst(f32, []int{3}, 0.229*255, 0.224*255, 0.225*255)
	a, b := in(0, f32, 768), in(1, f32, 768)
	two := []engine.Input{{DType: f32, Shape: []int{768}}, {DType: f32, Shape: []int{768}}}
	sim := &engine.Node{Op: engine.OpSimilarity, Metric: search.MetricDot, DType: f32, Args: []*engine.Node{a, b}}
	return []benchCase{
		{"op=normalize/dtype=float32/shape=200000x768", []engine.Input{{DType: f32, Shape: []int{768}}},
			[]*engine.Node{bin(engine.Div, x, red(engine.Norm, x, f32, true, 0))}, 200000, 200000 * 768 * 4},
		{"op=standardize/dtype=uint8/shape=1000x224x224x3", []engine.Input{{DType: u8, Shape: []int{224, 224, 3}}},
			[]*engine.Node{bin(engine.Div, bin(engine.Sub, cast(img, f32), mean), std)}, 1000, 1000 * 224 * 224 * 3 * 4},
		{"op=dot/dtype=float32/shape=200000x768", two, []*engine.Node{sim}, 200000, 2 * 200000 * 768 * 4},
		{"op=norm_diff/dtype=float32/shape=200000x768", two,
			[]*engine.Node{red(engine.Norm, bin(engine.Sub, a, b), f32, false, 0)}, 200000, 2 * 200000 * 768 * 4},
		{"op=matmul/dtype=float32/shape=200000x768/n=128", []engine.Input{{DType: f32, Shape: []int{1, 768}}},
			[]*engine.Node{matmulNode(in(0, f32, 1, 768), konst(f32, []int{768, 128}, ramp(768*128)...))}, 200000, 200000 * 128 * 4},
		{"op=softmax/dtype=float32/shape=200000x768", []engine.Input{{DType: f32, Shape: []int{768}}},
			[]*engine.Node{softmax(x)}, 200000, 200000 * 768 * 4},
		{"op=affine/dtype=float32/shape=200000x768", []engine.Input{{DType: f32, Shape: []int{768}}},
			[]*engine.Node{bin(engine.Add, bin(engine.Mul, x, konst(f32, nil, 2)), konst(f32, nil, 1))}, 200000, 200000 * 768 * 4},
	}
}

// softmax is exp(x - x.max(axis=-1, keepdims=True)) divided by its sum
// over the last axis, of a one-axis float32 x.
func softmax(x *engine.Node) *engine.Node {
	e := un(engine.Exp, bin(engine.Sub, x, red(engine.Max, x, engine.Float32, true, 0)))
	return bin(engine.Div, e, red(engine.Sum, e, engine.Float32, true, 0))
}

// ramp returns n values from -1 to 1.
func ramp(n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = 2*float64(i)/float64(n) - 1
	}
	return v
}

// BenchmarkRun runs each case with one worker (and three for
// normalize), beside a copy() of its baseline bytes.
func BenchmarkRun(b *testing.B) {
	for _, bc := range benchCases() {
		var in []engine.Column
		for k, d := range bc.inputs {
			n := numel(d.Shape) * d.DType.Width() * bc.rows
			v := unsafeBytes(make([]uint64, (n+7)/8))[:n]
			for j := range min(len(v), 1<<16) {
				v[j] = byte(j*7 + k) // small floats and bytes; no NaN
				if j%4 == 3 && d.DType == engine.Float32 {
					v[j] = 0x3f
				}
			}
			for j := 1 << 16; j < len(v); j *= 2 {
				copy(v[j:], v[:j])
			}
			in = append(in, engine.Column{Values: v})
		}
		out := make([]engine.Column, len(bc.roots))
		for i, r := range bc.roots {
			n := numel(r.Shape) * r.DType.Width() * bc.rows
			out[i] = engine.Column{Values: unsafeBytes(make([]uint64, (n+7)/8))[:n]}
			for j := 0; j < n; j += 4096 {
				out[i].Values[j] = 1 // faulted in before timing, as copy()'s destination
			}
		}
		for _, w := range []int{1, 3} {
			if w > 1 && bc.name[:12] != "op=normalize" {
				continue
			}
			p, err := engine.Compile(bc.inputs, bc.roots, engine.Options{Workers: w})
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/workers=%d/impl=engine", bc.name, w), func(b *testing.B) {
				b.SetBytes(int64(bc.baseline))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := p.Run(in, bc.rows, out); err != nil {
						b.Fatal(err)
					}
				}
				if r := bc.roots[0]; r.Op == engine.OpMatMul {
					k, n := r.Args[1].Shape[0], r.Args[1].Shape[1]
					flops := 2 * float64(bc.rows) * float64(numel(r.Shape)/n) * float64(k*n)
					b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
				}
			})
		}
		b.Run(bc.name+"/impl=copy", func(b *testing.B) {
			// Both written first: an untouched src reads the kernel's
			// one zero page from cache, faster than any column.
			src := make([]byte, bc.baseline)
			dst := make([]byte, bc.baseline)
			for i := range src {
				src[i], dst[i] = byte(i), 1
			}
			b.SetBytes(int64(bc.baseline))
			b.ReportAllocs()
			for b.Loop() {
				copy(dst, src)
			}
		})
	}
}
