package search_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/pyrun"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/search"
)

// rowwisePy computes dot, cosine, l2 and squared l2 of n rows of a with m
// rows of b (m == 1: broadcast) in float64 with NumPy.
const rowwisePy = `
import sys, numpy as np
n, m, d = map(int, sys.argv[1:4])
buf = sys.stdin.buffer.read()
a = np.frombuffer(buf, '<f8', n*d).reshape(n, d)
b = np.frombuffer(buf, '<f8', m*d, offset=n*d*8).reshape(m, d)
with np.errstate(all='ignore'):
    bb = np.broadcast_to(b, a.shape)
    dot = np.einsum('ij,ij->i', a, bb)
    cos = dot / (np.linalg.norm(a, axis=1) * np.linalg.norm(bb, axis=1))
    diff = a - bb
    sq = np.einsum('ij,ij->i', diff, diff)
    l2 = np.sqrt(sq)
sys.stdout.buffer.write(np.stack([dot, cos, l2, sq]).astype('<f8').tobytes())
`

func TestRowwiseNumPy(t *testing.T) {
	pyrun.Python(t, "numpy")
	f32, f64, f16 := arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Float64, arrow.FixedWidthTypes.Float16
	type tc struct {
		name         string
		da, db       arrow.DataType
		shape        []int
		permA, permB []int
		n            int
		bcast        bool
	}
	var cases []tc
	for _, dt := range elemTypes {
		for _, bcast := range []bool{true, false} {
			cases = append(cases, tc{fmt.Sprintf("dtype=%v/3-cycle/bcast=%v", dt, bcast), dt, dt, []int{3, 4, 5}, []int{2, 0, 1}, nil, 7, bcast})
		}
	}
	cases = append(cases,
		tc{"0-D", f32, f32, []int{}, nil, nil, 5, false},
		tc{"0-D/bcast", f64, f64, []int{}, nil, nil, 5, true},
		tc{"768/float32/bcast", f32, f32, []int{768}, nil, nil, 9, true},
		tc{"768/float32", f32, f32, []int{768}, nil, nil, 9, false},
		tc{"non-square/both-permuted", f32, f32, []int{2, 3, 70}, []int{1, 2, 0}, []int{2, 0, 1}, 6, false},
		tc{"float32-with-float64", f32, f64, []int{33}, nil, nil, 6, true},
		tc{"float16-with-float32", f16, f32, []int{40}, nil, nil, 6, false},
		tc{"int8-with-float16", arrow.PrimitiveTypes.Int8, f16, []int{4, 4}, nil, []int{1, 0}, 6, true},
		tc{"one-row", f32, f32, []int{5}, nil, nil, 1, false},
	)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mem := testvec.CheckedMem(t)
			r := rand.New(rand.NewPCG(uint64(len(c.name)), 7))
			va := make([]bool, c.n)
			for i := range va {
				va[i] = i != 2
			}
			m := c.n
			var vb []bool
			if c.bcast {
				m = 1
			} else if c.n > 4 {
				vb = make([]bool, m)
				for i := range vb {
					vb[i] = i != 4
				}
			}
			a, la := randColumn(t, r, c.da, c.shape, c.permA, c.n, va, false)
			b, lb := randColumn(t, r, c.db, c.shape, c.permB, m, vb, false)
			d := a.TensorType().ListSize()
			in := append(float64Bytes(la, d), float64Bytes(lb, d)...)
			want := decodeFloat64(pyrun.Run(t, rowwisePy, in, []string{"numpy"}, strconv.Itoa(c.n), strconv.Itoa(m), strconv.Itoa(d)))
			single := (c.da.ID() == arrow.FLOAT32 || c.da.ID() == arrow.FLOAT16) && (c.db.ID() == arrow.FLOAT32 || c.db.ID() == arrow.FLOAT16)
			for k, metric := range []search.Metric{search.MetricDot, search.MetricCosine, search.MetricL2, search.MetricSquaredL2} {
				got, err := search.Rowwise(metric, a, b, search.WithAllocator(mem))
				if err != nil {
					t.Fatal(err)
				}
				if single != (got.DataType().ID() == arrow.FLOAT32) {
					t.Errorf("%v: result type %v", metric, got.DataType())
				}
				for i := range c.n {
					j := i
					if c.bcast {
						j = 0
					}
					if la[i] == nil || lb[j] == nil {
						if !got.IsNull(i) {
							t.Errorf("%v: row %d is not null", metric, i)
						}
						continue
					}
					v := value(got, i)
					if w := want[k*c.n+i]; !near(v, w, scale(metric, la[i], lb[j]), single) {
						t.Errorf("%v: row %d = %v, NumPy %v", metric, i, v, w)
					}
				}
				if got.NullN() != nullCount(la, lb, c.bcast) {
					t.Errorf("%v: %d nulls, want %d", metric, got.NullN(), nullCount(la, lb, c.bcast))
				}
				got.Release()
			}
		})
	}
}

func value(a arrow.Array, i int) float64 {
	switch a := a.(type) {
	case *array.Float32:
		return float64(a.Value(i))
	case *array.Float64:
		return a.Value(i)
	}
	panic(fmt.Sprintf("result of type %v", a.DataType()))
}

func nullCount(la, lb [][]float64, bcast bool) int {
	n := 0
	for i := range la {
		j := i
		if bcast {
			j = 0
		}
		if la[i] == nil || lb[j] == nil {
			n++
		}
	}
	return n
}

// scale returns the magnitude the rounding error of metric m is relative
// to.
func scale(m search.Metric, a, b []float64) float64 {
	s := 0.0
	for i := range a {
		switch m {
		case search.MetricDot:
			s += math.Abs(a[i] * b[i])
		case search.MetricCosine:
			s = 1
		default:
			s += (a[i] - b[i]) * (a[i] - b[i])
		}
	}
	if m == search.MetricL2 {
		s = math.Sqrt(s)
	}
	return s
}

func near(got, want, scale float64, single bool) bool {
	if math.IsNaN(want) {
		return math.IsNaN(got)
	}
	tol := 1e-12
	if single {
		tol = 1e-5
	}
	return math.Abs(got-want) <= tol*(scale+1e-30)
}

func TestRowwiseErrors(t *testing.T) {
	f32 := arrow.PrimitiveTypes.Float32
	r := rand.New(rand.NewPCG(1, 1))
	a, _ := randColumn(t, r, f32, []int{2, 3}, nil, 4, nil, false)
	other, _ := randColumn(t, r, f32, []int{3, 2}, nil, 4, nil, false)
	three, _ := randColumn(t, r, f32, []int{2, 3}, nil, 3, nil, false)
	btyp := fixedshape.MustNewType(arrow.FixedWidthTypes.Boolean, metadata.MustNew([]int{2, 3}, nil, nil))
	bools, err := fixedshape.FromBools(memory.NewGoAllocator(), btyp, make([]bool, 24), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer bools.Release()
	for _, c := range []struct {
		name string
		m    search.Metric
		a, b *fixedshape.Array
	}{
		{"other-shape", search.MetricDot, a, other},
		{"row-count", search.MetricL2, a, three},
		{"bool", search.MetricCosine, bools, a},
		{"unknown-metric", search.Metric(9), a, a},
		{"nil", search.MetricDot, nil, a},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := search.Rowwise(c.m, c.a, c.b)
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("err = %v, want arrow.ErrInvalid", err)
			}
			if got != nil {
				t.Fatal("result with an error")
			}
		})
	}
}
