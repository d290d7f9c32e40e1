package search_test

import (
	"math"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/search"
)

// FuzzTopK checks top-k search of small-integer float32 rows (exact
// scores, many ties, some nulls), in batches, against a naive ranking in
// float64, for every row count, query count and k the bytes describe.
func FuzzTopK(f *testing.F) {
	f.Add([]byte{4, 3, 2, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
	f.Add([]byte{9, 17, 40, 2, 200, 100, 50, 25, 12, 6, 3, 1})
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) < 6 {
			return
		}
		d := int(b[0])%9 + 1
		nq := int(b[1])%20 + 1
		k := int(b[2]) % 40
		m := search.Metric(int(b[3]) % 4)
		batch := int(b[4])%50 + 1
		vals := b[5:]
		n := 7 * len(vals) / d
		if n > 400 {
			n = 400
		}
		elem := func(i int) float32 { return float32(int(vals[i%len(vals)]^byte(i*7))%9 - 4) }
		data := make([]float32, n*d)
		for i := range data {
			data[i] = elem(i)
		}
		valid := make([]bool, n)
		for i := range valid {
			valid[i] = vals[i%len(vals)]%13 != 0
		}
		q := make([]float32, nq*d)
		for i := range q {
			q[i] = elem(i*31 + 5)
		}
		// Cosines of integers round differently in float32 than in the
		// naive float64 ranking; in float64 both compute the same
		// expression, so cosine runs on float64 columns.
		var col, queries *fixedshape.Array
		var err, qerr error
		if m == search.MetricCosine {
			typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float64, metadata.MustNew([]int{d}, nil, nil))
			col, err = fixedshape.FromSlice(typ, widen(data), valid)
			queries, qerr = fixedshape.FromSlice(typ, widen(q), nil)
		} else {
			typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{d}, nil, nil))
			col, err = fixedshape.FromSlice(typ, data, valid)
			queries, qerr = fixedshape.FromSlice(typ, q, nil)
		}
		if err != nil || qerr != nil {
			t.Fatal(err, qerr)
		}
		rr := batches(t, col, batch)
		defer rr.Release()
		hits, err := search.Search(rr, queries, k, m)
		if err != nil {
			t.Fatal(err)
		}
		for j := range nq {
			want := naiveTopK(data, valid, q[j*d:(j+1)*d], d, k, m)
			got := []int64{}
			for _, h := range hits[j] {
				got = append(got, h.Row)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("n=%d d=%d nq=%d k=%d %v batch=%d query %d (-naive +search):\n%s", n, d, nq, k, m, batch, j, diff)
			}
		}
	})
}

// naiveTopK ranks the valid rows by metric m in float64, NaN last, ties
// by row.
func naiveTopK(data []float32, valid []bool, q []float32, d, k int, m search.Metric) []int64 {
	type hit struct {
		row int64
		key float64
	}
	var all []hit
	for i := range valid {
		if !valid[i] {
			continue
		}
		var xy, xx, qq, sq float64
		for p := range d {
			x, y := float64(data[i*d+p]), float64(q[p])
			xy += x * y
			xx += x * x
			qq += y * y
			sq += (x - y) * (x - y)
		}
		key := xy
		switch m {
		case search.MetricCosine:
			key = xy / (math.Sqrt(xx) * math.Sqrt(qq))
		case search.MetricL2, search.MetricSquaredL2:
			key = -sq
		}
		all = append(all, hit{int64(i), key})
	}
	slices.SortStableFunc(all, func(a, b hit) int {
		an, bn := math.IsNaN(a.key), math.IsNaN(b.key)
		switch {
		case an && bn:
			return 0
		case an:
			return 1
		case bn:
			return -1
		case a.key > b.key:
			return -1
		case a.key < b.key:
			return 1
		}
		return 0
	})
	out := []int64{}
	for _, h := range all[:min(k, len(all))] {
		out = append(out, h.row)
	}
	return out
}

func widen(v []float32) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}
