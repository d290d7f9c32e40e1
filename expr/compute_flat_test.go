package expr_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
	"github.com/google/go-cmp/cmp"
)

// TestComputeFlatReductions checks reductions of whole contiguous float32
// tensors to one value each over many tensors, with nulls, on one and
// several workers, against sums computed here in float64.
func TestComputeFlatReductions(t *testing.T) {
	const batch, size = 300, 40
	typ := fixedshape.MustNewType(f32, metadata.MustNew([]int{4, 10}, nil, nil))
	data := make([]float32, batch*size)
	for i := range data {
		data[i] = float32((i*37)%101)/50 - 1
	}
	valid := make([]bool, batch)
	for i := range valid {
		valid[i] = i%7 != 3
	}
	in, err := fixedshape.FromSlice(typ, data, valid)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Release()
	k := make([]float32, size)
	for j := range k {
		k[j] = float32(j%5) - 1.5
	}
	fold := func(f func(x []float32) float64) []float32 {
		out := make([]float32, batch)
		for b := range out {
			if valid[b] {
				out[b] = float32(f(data[b*size : (b+1)*size]))
			}
		}
		return out
	}
	sum := func(x []float32) float64 {
		var s float64
		for _, v := range x {
			s += float64(v)
		}
		return s
	}
	tests := []struct {
		text string
		want []float32
	}{
		{"x.sum()", fold(sum)},
		{"x.mean()", fold(func(x []float32) float64 { return sum(x) / size })},
		{"x.max()", fold(func(x []float32) float64 {
			m := math.Inf(-1)
			for _, v := range x {
				m = max(m, float64(v))
			}
			return m
		})},
		{"norm(x)", fold(func(x []float32) float64 {
			var s float64
			for _, v := range x {
				s += float64(v) * float64(v)
			}
			return math.Sqrt(s)
		})},
		{"dot(x, float32(0.5))", fold(func(x []float32) float64 { return sum(x) / 2 })},
		{"dot(x, float32(" + rowsList(k, 10) + "))", fold(func(x []float32) float64 {
			var s float64
			for j, v := range x {
				s += float64(v) * float64(k[j])
			}
			return s
		})},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			p, err := expr.CompilePlan(expr.MustParse(tt.text, expr.Input(typ)))
			if err != nil {
				t.Fatal(err)
			}
			for _, workers := range []int{1, 2} {
				dst := make([]byte, 4*batch)
				for i := range dst {
					dst[i] = 0xff // nulls must be cleared
				}
				if err := p.EvalInto(dst, in, expr.WithWorkers(workers)); err != nil {
					t.Fatal(err)
				}
				got := make([]float32, batch)
				for b := range got {
					got[b] = math.Float32frombits(binary.LittleEndian.Uint32(dst[4*b:]))
				}
				if diff := cmp.Diff(tt.want, got, cmp.Comparer(func(a, b float32) bool {
					return math.Abs(float64(a-b)) <= 1e-5*(1+math.Abs(float64(a)))
				})); diff != "" {
					t.Errorf("%d workers (-want +got):\n%s", workers, diff)
				}
			}
		})
	}
}

// rowsList writes k as a nested list literal of rows of n values.
func rowsList(k []float32, n int) string {
	var b strings.Builder
	b.WriteString("[")
	for r := 0; r < len(k); r += n {
		if r > 0 {
			b.WriteString(", ")
		}
		b.WriteString("[")
		for j, v := range k[r : r+n] {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprint(&b, v)
		}
		b.WriteString("]")
	}
	b.WriteString("]")
	return b.String()
}
