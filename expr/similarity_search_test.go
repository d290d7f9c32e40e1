package expr_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/search"
	"github.com/google/go-cmp/cmp"
)

// TestSimilarityMatchesSearch checks that a float32 similarity gives the
// same bits through expr (eval 'dot(x, q)') as through package search,
// row by row (search.Rowwise) and as the score of the one-query search
// of the command (search.TopK): both accumulate in float32 in numeric's
// kernels.
func TestSimilarityMatchesSearch(t *testing.T) {
	metrics := []search.Metric{search.MetricDot, search.MetricCosine, search.MetricL2, search.MetricSquaredL2}
	tests := []struct {
		name  string
		shape []int
		perm  []int
		rows  int
		scale float64
		nulls bool // tensor 1 is null
	}{
		{"384", []int{384}, nil, 7, 1, false},
		{"384 large values", []int{384}, nil, 5, 1e3, false},
		{"one element", []int{1}, nil, 3, 1, false},
		{"17", []int{17}, nil, 4, 1, false},
		{"1031", []int{1031}, nil, 3, 1, false},
		{"non-square 12x32", []int{12, 32}, nil, 3, 1, false},
		{"3-cycle permutation", []int{4, 6, 16}, []int{1, 2, 0}, 3, 1, false},
		{"null tensors", []int{384}, nil, 4, 1, true},
	}
	for _, tt := range tests {
		for _, m := range metrics {
			t.Run(fmt.Sprintf("%s/%v", tt.name, m), func(t *testing.T) {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				meta := metadata.MustNew(tt.shape, nil, tt.perm)
				typ, err := fixedshape.NewType(arrow.PrimitiveTypes.Float32, meta)
				if err != nil {
					t.Fatal(err)
				}
				d := typ.ListSize()
				r := rand.New(rand.NewPCG(uint64(d), 27))
				vals := make([]float32, tt.rows*d)
				for i := range vals {
					vals[i] = float32(r.NormFloat64() * tt.scale)
				}
				q := make([]float32, d)
				for i := range q {
					q[i] = float32(r.NormFloat64())
				}
				var valid []bool
				if tt.nulls {
					valid = make([]bool, tt.rows)
					for i := range valid {
						valid[i] = i != 1
					}
				}
				col, err := fixedshape.FromSlice(typ, vals, valid)
				if err != nil {
					t.Fatal(err)
				}
				defer col.Release()
				// The query in logical (row-major) order, as expr's constant.
				qtyp, err := fixedshape.NewType(arrow.PrimitiveTypes.Float32, metadata.MustNew(tt.shape, nil, nil))
				if err != nil {
					t.Fatal(err)
				}
				qa, err := fixedshape.FromSlice(qtyp, q, nil)
				if err != nil {
					t.Fatal(err)
				}
				defer qa.Release()

				got := evalSimilarity(t, mem, m, col, tt.shape, q)
				rw, err := search.Rowwise(m, col, qa, search.WithAllocator(mem))
				if err != nil {
					t.Fatal(err)
				}
				defer rw.Release()
				want := bitsOf(rw.(*array.Float32).Float32Values())
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("expr against search.Rowwise, float32 bits (-want +got):\n%s", diff)
				}

				tk, err := search.NewTopK(typ, qa, tt.rows, m)
				if err != nil {
					t.Fatal(err)
				}
				if err := tk.Add(col); err != nil {
					t.Fatal(err)
				}
				fromTopK := make([]uint32, tt.rows)
				for _, h := range tk.Results()[0] {
					fromTopK[h.Row] = math.Float32bits(float32(h.Score))
				}
				if diff := cmp.Diff(fromTopK, got); diff != "" {
					t.Errorf("expr against search.TopK, float32 bits (-want +got):\n%s", diff)
				}
			})
		}
	}
}

// evalSimilarity evaluates m(x, float32(q)) over col with expr.
func evalSimilarity(t *testing.T, mem memory.Allocator, m search.Metric, col *fixedshape.Array, shape []int, q []float32) []uint32 {
	t.Helper()
	e := expr.Similarity(expr.Input(col.TensorType()), m, expr.Array(shape, q))
	out, err := expr.EvalArray(e, col, expr.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Release()
	f, ok := out.(*array.Float32)
	if !ok {
		t.Fatalf("result type %v, want float32", out.DataType())
	}
	return bitsOf(f.Float32Values())
}

func bitsOf(v []float32) []uint32 {
	b := make([]uint32, len(v))
	for i, x := range v {
		b[i] = math.Float32bits(x)
	}
	return b
}
