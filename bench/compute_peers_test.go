package bench_test

import (
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

// peersDim is the width of the rows of BenchmarkPeersCompute.
const peersDim = 768

// peersCases are the expressions bench/peers/compute_peers.py times on
// NumPy, numexpr, polars and DuckDB (x is column a). Throughput counts
// the bytes of cols columns: those written by an element-wise case, those
// read by a case whose result is one number per row.
var peersCases = []struct {
	name, text string
	cols       int
}{
	{"normalize", "x / norm(x, axis=-1, keepdims=True)", 1},
	{"l2distance", "norm(a - b, axis=-1)", 2},
	{"rownorm", "norm(x, axis=-1)", 1},
	{"affine", "x * 2 + 1", 1},
	{"dot", "dot(a, b)", 2},
}

// peersRows is the number of rows of BenchmarkPeersCompute:
// $FSTENSOR_COMPUTE_ROWS, or 10,000 (the comparison of
// bench/peers/compute_peers.sh sets 200,000: 614 MB a column).
func peersRows(b *testing.B) int {
	if s := os.Getenv("FSTENSOR_COMPUTE_ROWS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			b.Fatalf("FSTENSOR_COMPUTE_ROWS=%q is not a positive row count", s)
		}
		return n
	}
	return 10_000
}

// peersBatch returns a batch of rows x 768 float32 columns x, a (the same
// array as x) and b, uniform in [-1, 1).
func peersBatch(b *testing.B, rows int) arrow.RecordBatch {
	typ, err := fixedshape.NewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{peersDim}, nil, nil))
	if err != nil {
		b.Fatal(err)
	}
	col := func(seed uint32) arrow.Array {
		vals := make([]float32, rows*peersDim)
		s := seed
		for i := range vals {
			s = s*1664525 + 1013904223 // a linear congruential generator: values, not randomness, matter
			vals[i] = float32(int32(s>>8)-1<<23) / (1 << 23)
		}
		a, err := fixedshape.FromSlice(typ, vals, nil)
		if err != nil {
			b.Fatal(err)
		}
		return a
	}
	a, c := col(1), col(2)
	defer a.Release()
	defer c.Release()
	f := arrow.Field{Type: typ, Nullable: true}
	fields := []arrow.Field{f, f, f}
	fields[0].Name, fields[1].Name, fields[2].Name = "x", "a", "b"
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), []arrow.Array{a, a, c}, int64(rows))
}

// BenchmarkPeersCompute evaluates the cases of compute_peers.py with
// expr.Compile and Program.Eval on one worker over an in-memory batch,
// each Eval taking its result's memory as Program does by default: the
// memory of the result released before it (impl=expr), or new memory of
// Go's heap for every result (impl=expr-fresh, through WithAllocator and
// freshAllocator),
// beside a copy() of the bytes a case writes (or reads, for a case that
// reduces rows to numbers). A case that Compile refuses is skipped with
// its error.
// freshAllocator is Go's heap under a type of its own, whose results
// expr does not reuse (it reuses those of a *memory.GoAllocator).
type freshAllocator struct{ memory.Allocator }

func BenchmarkPeersCompute(b *testing.B) {
	rows := peersRows(b)
	var rec arrow.RecordBatch
	defer func() {
		if rec != nil {
			rec.Release()
		}
	}()
	for _, pc := range peersCases {
		b.Run(fmt.Sprintf("case=%s/rows=%d/dim=%d", pc.name, rows, peersDim), func(b *testing.B) {
			if rec == nil {
				rec = peersBatch(b, rows) // made on first use: -bench may select nothing
			}
			p, err := expr.Compile(pc.text, rec.Schema(), expr.WithInput("x"), expr.WithWorkers(1))
			if err != nil {
				b.Skipf("case=%s: %s: %v", pc.name, pc.text, err)
			}
			colBytes := rows * peersDim * 4
			bytes := pc.cols * colBytes
			eval := func(b *testing.B, p *expr.Program) {
				b.ReportAllocs()
				b.SetBytes(int64(bytes))
				for b.Loop() {
					out, err := p.Eval(rec)
					if err != nil {
						b.Fatal(err)
					}
					out.Release()
				}
			}
			b.Run("impl=expr", func(b *testing.B) { eval(b, p) })
			// Each result on memory new to the process or zeroed
			// again by Go: the page faults or the clearing the default
			// avoids.
			pf, err := expr.Compile(pc.text, rec.Schema(), expr.WithInput("x"), expr.WithWorkers(1), expr.WithAllocator(freshAllocator{memory.NewGoAllocator()}))
			if err != nil {
				b.Fatal(err)
			}
			b.Run("impl=expr-fresh", func(b *testing.B) { eval(b, pf) })
			b.Run("impl=copy", func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(bytes))
				dst := memory.NewGoAllocator().Allocate(bytes)
				for i := 0; i < len(dst); i += 4096 {
					dst[i] = 1 // fault the pages in before timing
				}
				for b.Loop() {
					for k := range pc.cols { // columns a, then b
						copy(dst[k*colBytes:], rec.Column(1+k).(*fixedshape.Array).ValueBytes())
					}
				}
			})
		})
	}
}
