package search_test

import (
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/search"
)

// TestSearchNaN checks that rows scoring NaN rank after every number (in
// row order among themselves), with one query and with several.
func TestSearchNaN(t *testing.T) {
	nan := float32(math.NaN())
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{2}, nil, nil))
	col, err := fixedshape.FromSlice(typ, []float32{
		1, 0, // row 0: dot 1
		nan, 0, // row 1: NaN
		2, 0, // row 2: dot 2
		0, nan, // row 3: NaN
		1, 0, // row 4: dot 1 (ties row 0)
		9, 9, // row 5: null
	}, []bool{true, true, true, true, true, false})
	if err != nil {
		t.Fatal(err)
	}
	for _, nq := range []int{1, 3} {
		q := make([]float32, 0, 2*nq)
		for range nq {
			q = append(q, 1, 0)
		}
		queries, err := fixedshape.FromSlice(typ, q, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			m    search.Metric
			want []int64
		}{
			{search.MetricDot, []int64{2, 0, 4, 1, 3}},
			{search.MetricL2, []int64{0, 4, 2, 1, 3}},
		} {
			tk, err := search.NewTopK(typ, queries, 10, c.m)
			if err != nil {
				t.Fatal(err)
			}
			if err := tk.Add(col); err != nil {
				t.Fatal(err)
			}
			for j, hits := range tk.Results() {
				var got []int64
				for _, h := range hits {
					got = append(got, h.Row)
				}
				if diff := cmp.Diff(c.want, got); diff != "" {
					t.Errorf("queries=%d %v query %d (-want +got):\n%s", nq, c.m, j, diff)
				}
			}
		}
	}
}

// TestRowwiseEmpty checks a column of no rows and a zero query.
func TestRowwiseEmpty(t *testing.T) {
	mem := testvec.CheckedMem(t)
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float64, metadata.MustNew([]int{3}, nil, nil))
	empty, err := fixedshape.FromSlice(typ, []float64{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	zero, err := fixedshape.FromSlice(typ, []float64{0, 0, 0}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := search.Rowwise(search.MetricDot, empty, zero, search.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	if res.Len() != 0 {
		t.Errorf("%d results", res.Len())
	}
	res.Release()
	// A zero tensor has no direction: its cosine is NaN, as in NumPy.
	res, err = search.Cosine(zero, zero, search.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	if v := value(res, 0); !math.IsNaN(v) {
		t.Errorf("cosine of zero tensors = %v, want NaN", v)
	}
	res.Release()
}
