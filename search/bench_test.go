package search_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/search"
)

// benchDim is the embedding size of the benchmarks.
const benchDim = 768

// benchRows returns the number of rows of the top-k benchmarks:
// $FSTENSOR_TOPK_ROWS, or 100,000 (the 1,000,000-row comparison with
// FAISS needs 3 GB: FSTENSOR_TOPK_ROWS=1000000).
func benchRows(b *testing.B) int {
	if s := os.Getenv("FSTENSOR_TOPK_ROWS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			b.Fatalf("FSTENSOR_TOPK_ROWS=%q is not a positive row count", s)
		}
		return n
	}
	return 100_000
}

var benchData struct {
	sync.Mutex
	n    int
	vals []float32
}

// embeddings returns n x 768 standard normal float32 values, generated
// once per process and size.
func embeddings(n int) []float32 {
	benchData.Lock()
	defer benchData.Unlock()
	if benchData.n != n {
		benchData.vals = nil
		vals := make([]float32, n*benchDim)
		r := rand.New(rand.NewPCG(1, 1))
		for i := range vals {
			vals[i] = float32(r.NormFloat64())
		}
		benchData.n, benchData.vals = n, vals
	}
	return benchData.vals
}

func benchColumn(b *testing.B, vals []float32) *fixedshape.Array {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{benchDim}, nil, nil))
	a, err := fixedshape.FromSlice(typ, vals, nil)
	if err != nil {
		b.Fatal(err)
	}
	return a
}

// benchCopy runs the sub-benchmark name, the copy() baseline of reading
// vals: vals copied through a reused 32 MiB destination.
func benchCopy(b *testing.B, name string, vals []float32) {
	b.Run(name, func(b *testing.B) {
		dst := make([]float32, 8<<20)
		b.SetBytes(int64(len(vals) * 4))
		b.ReportAllocs()
		for b.Loop() {
			for src := vals; len(src) > 0; {
				n := copy(dst, src)
				src = src[n:]
			}
		}
	})
}

// BenchmarkRowwise scores 16,384 float32 tensors of 768 elements (48 MiB)
// against one query; bytes are the column's.
func BenchmarkRowwise(b *testing.B) {
	const n = 16384
	vals := embeddings(n)[:n*benchDim]
	col := benchColumn(b, vals)
	q := benchColumn(b, vals[:benchDim])
	mem := memory.NewGoAllocator()
	for _, m := range []search.Metric{search.MetricDot, search.MetricCosine, search.MetricL2} {
		b.Run(fmt.Sprintf("op=%v/dtype=float32/shape=%dx%d/impl=search", m, n, benchDim), func(b *testing.B) {
			b.SetBytes(int64(len(vals) * 4))
			b.ReportAllocs()
			for b.Loop() {
				res, err := search.Rowwise(m, col, q, search.WithAllocator(mem))
				if err != nil {
					b.Fatal(err)
				}
				res.Release()
			}
		})
	}
	benchCopy(b, fmt.Sprintf("op=dot/dtype=float32/shape=%dx%d/impl=copy", n, benchDim), vals)
}

// BenchmarkTopK searches benchRows x 768 float32 rows (one batch in
// memory) for the 10 nearest rows of 1 and 64 queries, once before the
// timed searches; bytes are the column's.
func BenchmarkTopK(b *testing.B) {
	n := benchRows(b)
	vals := embeddings(n)
	col := benchColumn(b, vals)
	for _, nq := range []int{1, 64} {
		r := rand.New(rand.NewPCG(2, uint64(nq)))
		qv := make([]float32, nq*benchDim)
		for i := range qv {
			qv[i] = float32(r.NormFloat64())
		}
		queries := benchColumn(b, qv)
		for _, m := range []search.Metric{search.MetricDot, search.MetricL2} {
			b.Run(fmt.Sprintf("metric=%v/rows=%d/dim=%d/queries=%d/k=10/impl=search", m, n, benchDim, nq), func(b *testing.B) {
				b.SetBytes(int64(len(vals) * 4))
				b.ReportAllocs()
				topK(b, col, queries, m) // once before the timed loop, as faiss_bench.py does
				for b.Loop() {
					topK(b, col, queries, m)
				}
			})
		}
	}
	benchCopy(b, fmt.Sprintf("rows=%d/dim=%d/impl=copy", n, benchDim), vals)
}

// topK searches col for the 10 rows nearest to each of queries under m.
func topK(b *testing.B, col, queries *fixedshape.Array, m search.Metric) {
	tk, err := search.NewTopK(col.TensorType(), queries, 10, m)
	if err != nil {
		b.Fatal(err)
	}
	if err := tk.Add(col); err != nil {
		b.Fatal(err)
	}
	_ = tk.Results()
}
