package peers_test

import (
	"testing"

	"github.com/fstensor/fstensor/bench"
)

// BenchmarkMaterialize times the cases of package bench with the Go peers
// beside fstensor: float32 cases (bench.Cases) with gorgonia.org/tensor,
// float64 matrix cases (bench.MatrixCases) with gonum's mat and gorgonia;
// impl=expr is fstensor on GOMAXPROCS workers, impl=expr-w1 on one, and
// impl=copy a copy() of the result's bytes. Throughput counts result bytes.
func BenchmarkMaterialize(b *testing.B) {
	for _, s := range sizes(b) {
		for _, c := range bench.Cases(s) {
			benchCase(b, c, []contender[float32]{gorgoniaContender[float32]()})
		}
		for _, c := range bench.MatrixCases(s) {
			benchCase(b, c, []contender[float64]{
				fstensorContender[float64]("expr", 0),
				fstensorContender[float64]("expr-w1", 1),
				gonumContender(),
				gorgoniaContender[float64](),
			})
		}
	}
}

func benchCase[T float](b *testing.B, c bench.Case, cs []contender[T]) {
	in := input[T](c)
	n := outLen(b, c) * c.ElemWidth()
	for _, ct := range cs {
		run, _ := ct.setup(b, c, in)
		if run == nil {
			continue
		}
		b.Run(c.Name()+"/impl="+ct.impl, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(n))
			for b.Loop() {
				run()
			}
		})
	}
	if c.DType == "float64" {
		src, dst := make([]byte, n), make([]byte, n)
		b.Run(c.Name()+"/impl=copy", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(n))
			for b.Loop() {
				copy(dst, src)
			}
		})
	}
}
