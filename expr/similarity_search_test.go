package expr_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/half"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
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
		nulls bool // tensors 1, 301, 601, ... are null
	}{
		{"384", []int{384}, nil, 7, 1, false},
		{"384 large values", []int{384}, nil, 5, 1e3, false},
		{"0-D", []int{}, nil, 3, 1, false},
		{"one element", []int{1}, nil, 3, 1, false},
		{"17", []int{17}, nil, 4, 1, false},
		{"1031", []int{1031}, nil, 3, 1, false},
		{"non-square 12x32", []int{12, 32}, nil, 3, 1, false},
		{"3-cycle permutation", []int{4, 6, 16}, []int{1, 2, 0}, 3, 1, false},
		{"null tensors", []int{384}, nil, 4, 1, true},
		{"rows across kernel calls", []int{40}, nil, 600, 1, true},
	}
	for _, tt := range tests {
		for _, m := range metrics {
			t.Run(fmt.Sprintf("%s/%v", tt.name, m), func(t *testing.T) {
				mem := testvec.CheckedMem(t)
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
						valid[i] = i%300 != 1
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
	out, err := evalPlan(e, col, expr.WithAllocator(mem))
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

// TestSimilarityMatchesSearchTypes checks that expr accumulates where
// search does for other element types: float32 for float16 tensors
// against a float16 constant, float64 for int16 tensors against a float32
// constant (NumPy's float32 result is the rounded float64 score).
func TestSimilarityMatchesSearchTypes(t *testing.T) {
	const d, rows = 384, 5
	r := rand.New(rand.NewPCG(16, 27))
	f16 := make([]float16.Num, rows*d)
	i16 := make([]int16, rows*d)
	for i := range f16 {
		f16[i] = float16.New(float32(r.NormFloat64()))
		i16[i] = int16(r.IntN(2001) - 1000)
	}
	q16 := make([]float16.Num, d)
	q32 := make([]float32, d)
	for i := range q16 {
		q16[i] = float16.New(float32(r.NormFloat64()))
		q32[i] = float32(r.NormFloat64())
	}
	tests := []struct {
		name   string
		col, q func(t *testing.T) *fixedshape.Array
		c      expr.Const
		// round turns search's score into expr's result type, as bits.
		round func(score float64) uint64
	}{
		{"float16", column(f16, d), column(q16, d), expr.Array([]int{d}, q16),
			func(s float64) uint64 { return uint64(half.FromFloat64(s)) }},
		{"int16 with float32", column(i16, d), column(q32, d), expr.Array([]int{d}, q32),
			func(s float64) uint64 { return uint64(math.Float32bits(float32(s))) }},
	}
	for _, tt := range tests {
		for _, m := range []search.Metric{search.MetricDot, search.MetricCosine, search.MetricL2, search.MetricSquaredL2} {
			t.Run(fmt.Sprintf("%s/%v", tt.name, m), func(t *testing.T) {
				col, qa := tt.col(t), tt.q(t)
				defer col.Release()
				defer qa.Release()
				mem := testvec.CheckedMem(t)
				out, err := evalPlan(expr.Similarity(expr.Input(col.TensorType()), m, tt.c), col, expr.WithAllocator(mem))
				if err != nil {
					t.Fatal(err)
				}
				defer out.Release()
				rw, err := search.Rowwise(m, col, qa, search.WithAllocator(mem))
				if err != nil {
					t.Fatal(err)
				}
				defer rw.Release()
				want, got := make([]uint64, rows), make([]uint64, rows)
				for i := range rows {
					switch a := rw.(type) {
					case *array.Float32:
						want[i] = tt.round(float64(a.Value(i)))
					case *array.Float64:
						want[i] = tt.round(a.Value(i))
					}
					switch a := out.(type) {
					case *array.Float16:
						got[i] = uint64(a.Value(i).Uint16())
					case *array.Float32:
						got[i] = uint64(math.Float32bits(a.Value(i)))
					default:
						t.Fatalf("result type %v", out.DataType())
					}
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("expr against search.Rowwise, bits (-want +got):\n%s", diff)
				}
			})
		}
	}
}

// column returns the maker of a column of tensors of shape (d,) over vals.
func column[T fixedshape.Elem](vals []T, d int) func(t *testing.T) *fixedshape.Array {
	return func(t *testing.T) *fixedshape.Array {
		t.Helper()
		typ, err := fixedshape.NewType(arrow.GetDataType[T](), metadata.MustNew([]int{d}, nil, nil))
		if err != nil {
			t.Fatal(err)
		}
		a, err := fixedshape.FromSlice(typ, vals, nil)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
}

// TestSimilarityOfViewMatchesSearch checks the paths that do not read
// whole contiguous rows: a similarity of a strided view x[:, ::2] equals
// search's over the materialized view, and one with a broadcast scalar
// constant equals search's with a query of that value everywhere.
func TestSimilarityOfViewMatchesSearch(t *testing.T) {
	const rows = 4
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{12, 32}, nil, nil))
	r := rand.New(rand.NewPCG(12, 32))
	vals := make([]float32, rows*typ.ListSize())
	for i := range vals {
		vals[i] = float32(r.NormFloat64())
	}
	x := expr.Input(typ)
	view := expr.Subscript(x, expr.All(), expr.Step(2))
	q := make([]float32, 12*16)
	for i := range q {
		q[i] = float32(r.NormFloat64())
	}
	half := make([]float32, 12*32)
	for i := range half {
		half[i] = 0.5
	}
	tests := []struct {
		name  string
		x     expr.Expr // the similarity's operand
		c     expr.Const
		query []float32 // c as search's query, over the materialized operand
	}{
		{"strided view", view, expr.Array([]int{12, 16}, q), q},
		{"scalar constant", x, expr.Array([]int{}, []float32{0.5}), half},
	}
	for _, tt := range tests {
		for _, m := range []search.Metric{search.MetricDot, search.MetricCosine, search.MetricL2, search.MetricSquaredL2} {
			t.Run(fmt.Sprintf("%s/%v", tt.name, m), func(t *testing.T) {
				mem := testvec.CheckedMem(t)
				col, err := fixedshape.FromSlice(typ, vals, nil)
				if err != nil {
					t.Fatal(err)
				}
				defer col.Release()
				dense, err := evalTensors(tt.x, col, expr.WithAllocator(mem))
				if err != nil {
					t.Fatal(err)
				}
				defer dense.Release()
				qa, err := fixedshape.FromSlice(dense.TensorType(), tt.query, nil)
				if err != nil {
					t.Fatal(err)
				}
				defer qa.Release()
				out, err := evalPlan(expr.Similarity(tt.x, m, tt.c), col, expr.WithAllocator(mem))
				if err != nil {
					t.Fatal(err)
				}
				defer out.Release()
				rw, err := search.Rowwise(m, dense, qa, search.WithAllocator(mem))
				if err != nil {
					t.Fatal(err)
				}
				defer rw.Release()
				want := bitsOf(rw.(*array.Float32).Float32Values())
				if diff := cmp.Diff(want, bitsOf(out.(*array.Float32).Float32Values())); diff != "" {
					t.Errorf("expr against search.Rowwise, float32 bits (-want +got):\n%s", diff)
				}
			})
		}
	}
}
