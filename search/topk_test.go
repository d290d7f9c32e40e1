package search_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/pyrun"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/search"
	"github.com/fstensor/fstensor/tensorio"
)

// topkPy ranks n rows (NaN rows are null) against nq queries (NaN
// queries are null) with NumPy in float64 and writes, for dot, cosine and
// l2, the first k row indexes of each query's stable ranking, padded with
// -1.
const topkPy = `
import sys, numpy as np
n, nq, d, k = map(int, sys.argv[1:5])
buf = sys.stdin.buffer.read()
x = np.frombuffer(buf, '<f8', n*d).reshape(n, d)
q = np.frombuffer(buf, '<f8', nq*d, offset=n*d*8).reshape(nq, d)
valid = ~np.isnan(x).all(axis=1) if d else np.ones(n, bool)
rows = np.flatnonzero(valid)
out = np.full((3, nq, k), -1, '<i8')
with np.errstate(all='ignore'):
  for mi, metric in enumerate(['dot', 'cosine', 'l2']):
    for j in range(nq):
        if d and np.isnan(q[j]).all():
            continue
        xv = x[rows]
        if metric == 'dot':
            key = -(xv @ q[j])
        elif metric == 'cosine':
            key = -((xv @ q[j]) / (np.linalg.norm(xv, axis=1) * np.linalg.norm(q[j])))
        else:
            key = ((xv - q[j]) ** 2).sum(axis=1)
        order = rows[np.argsort(key, kind='stable')][:k]
        out[mi, j, :len(order)] = order
sys.stdout.buffer.write(out.tobytes())
`

func TestSearchNumPy(t *testing.T) {
	pyrun.Python(t, "numpy")
	f32, f64 := arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Float64
	type tc struct {
		name    string
		dt, qdt arrow.DataType
		shape   []int
		perm    []int
		n, nq   int
		k       int
		ints    bool // small integers: exact scores, many ties
		nulls   bool
	}
	var cases []tc
	for _, nq := range []int{1, 3, 20} {
		cases = append(cases,
			tc{fmt.Sprintf("float32/ints/3-cycle/nq=%d", nq), f32, f32, []int{2, 3, 4}, []int{2, 0, 1}, 301, nq, 10, true, true},
			tc{fmt.Sprintf("float64/normal/nq=%d", nq), f64, f64, []int{37}, nil, 250, nq, 7, false, true},
			tc{fmt.Sprintf("float32/normal/768/nq=%d", nq), f32, f32, []int{768}, nil, 200, nq, 5, false, false},
			tc{fmt.Sprintf("int8/nq=%d", nq), arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Int8, []int{5, 3}, []int{1, 0}, 200, nq, 12, true, true},
			tc{fmt.Sprintf("float16/ints/nq=%d", nq), arrow.FixedWidthTypes.Float16, f32, []int{16}, nil, 130, nq, 9, true, false},
		)
	}
	cases = append(cases,
		tc{"k>rows", f32, f32, []int{8}, nil, 20, 4, 50, true, true},
		tc{"k=0", f32, f32, []int{8}, nil, 20, 2, 0, true, false},
		tc{"0-D", f32, f32, []int{}, nil, 40, 3, 6, true, true},
		tc{"non-square/mixed-types", f32, arrow.PrimitiveTypes.Int16, []int{3, 7}, []int{1, 0}, 100, 17, 8, true, false},
	)
	metrics := []search.Metric{search.MetricDot, search.MetricCosine, search.MetricL2, search.MetricSquaredL2}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(len(c.name)), 11))
			var valid []bool
			if c.nulls {
				valid = make([]bool, c.n)
				for i := range valid {
					valid[i] = i%11 != 3
				}
			}
			col, lx := randColumn(t, r, c.dt, c.shape, c.perm, c.n, valid, c.ints)
			qvalid := make([]bool, c.nq)
			for j := range qvalid {
				qvalid[j] = c.nq < 3 || j != 1
			}
			queries, lq := randColumn(t, r, c.qdt, c.shape, nil, c.nq, qvalid, c.ints)
			d := col.TensorType().ListSize()
			in := append(float64Bytes(lx, d), float64Bytes(lq, d)...)
			raw := pyrun.Run(t, topkPy, in, []string{"numpy"}, strconv.Itoa(c.n), strconv.Itoa(c.nq), strconv.Itoa(d), strconv.Itoa(c.k))
			for _, m := range metrics {
				t.Run("metric="+m.String(), func(t *testing.T) {
					mi := min(int(m), 2) // squared L2 ranks as L2
					want := make([][]int64, c.nq)
					for j := range want {
						want[j] = []int64{}
						for i := range c.k {
							if v := int64(binary.LittleEndian.Uint64(raw[8*((mi*c.nq+j)*c.k+i):])); v >= 0 {
								want[j] = append(want[j], v)
							}
						}
					}
					rr := batches(t, col, 64)
					defer rr.Release()
					hits, err := search.Search(rr, queries, c.k, m)
					if err != nil {
						t.Fatal(err)
					}
					got := make([][]int64, len(hits))
					for j, hs := range hits {
						got[j] = []int64{}
						for i, h := range hs {
							got[j] = append(got[j], h.Row)
							if i > 0 && ranksBefore(m, h.Score, hs[i-1].Score) {
								t.Errorf("query %d: hit %d score %v ranks before %v", j, i, h.Score, hs[i-1].Score)
							}
						}
					}
					if diff := cmp.Diff(want, got); diff != "" {
						t.Errorf("rows (-NumPy +search):\n%s", diff)
					}
				})
			}
		})
	}
}

// batches returns a record reader of col in batches of rows rows.
func batches(t testing.TB, col *fixedshape.Array, rows int) array.RecordReader {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{{Name: "v", Type: col.DataType(), Nullable: true}}, nil)
	var recs []arrow.RecordBatch
	for i := 0; i < col.Len(); i += rows {
		s := array.NewSlice(col, int64(i), int64(min(i+rows, col.Len())))
		recs = append(recs, array.NewRecordBatch(schema, []arrow.Array{s}, int64(s.Len())))
		s.Release()
	}
	rr, err := array.NewRecordReader(schema, recs)
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		rec.Release()
	}
	return rr
}

func ranksBefore(m search.Metric, a, b float64) bool {
	if m.Larger() {
		return a > b
	}
	return a < b
}

// TestSearchFile searches IPC and Parquet files read batch by batch with a
// checked allocator, against the same search of the column in memory.
func TestSearchFile(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	valid := make([]bool, 500)
	for i := range valid {
		valid[i] = i%7 != 0
	}
	col, _ := randColumn(t, r, arrow.PrimitiveTypes.Float32, []int{4, 8}, []int{1, 0}, 500, valid, false)
	queries, _ := randColumn(t, r, arrow.PrimitiveTypes.Float32, []int{4, 8}, nil, 5, nil, false)
	tk, err := search.NewTopK(col.TensorType(), queries, 10, search.MetricL2)
	if err != nil {
		t.Fatal(err)
	}
	if err := tk.Add(col); err != nil {
		t.Fatal(err)
	}
	want := tk.Results()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "emb", Type: col.DataType(), Nullable: true},
	}, nil)
	ids := make([]int64, col.Len())
	for i := range ids {
		ids[i] = int64(i)
	}
	idArr := array.NewInt64Data(array.NewData(arrow.PrimitiveTypes.Int64, len(ids), []*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(ids))}, nil, 0, 0))
	defer idArr.Release()
	rec := array.NewRecordBatch(schema, []arrow.Array{idArr, col}, int64(col.Len()))
	defer rec.Release()
	for _, ext := range []string{"arrow", "arrows", "parquet"} {
		t.Run("format="+ext, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "emb."+ext)
			w, err := tensorio.Create(path, schema)
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Write(rec); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			mem := testvec.CheckedMem(t)
			for _, opts := range [][]search.Option{{search.WithColumn("emb")}, {search.WithColumnIndex(1)}, nil} {
				rd, err := tensorio.Open(path, tensorio.WithAllocator(mem), tensorio.WithBatchRows(96))
				if err != nil {
					t.Fatal(err)
				}
				got, err := search.Search(rd, queries, 10, search.MetricL2, opts...)
				rd.Release()
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("(-in memory +file):\n%s", diff)
				}
			}
		})
	}
}

func TestSearchErrors(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	col, _ := randColumn(t, r, arrow.PrimitiveTypes.Float32, []int{6}, nil, 10, nil, false)
	q, _ := randColumn(t, r, arrow.PrimitiveTypes.Float32, []int{6}, nil, 1, nil, false)
	other, _ := randColumn(t, r, arrow.PrimitiveTypes.Float32, []int{3, 2}, nil, 1, nil, false)
	schema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: col.DataType()}, {Name: "b", Type: col.DataType()}}, nil)
	for _, c := range []struct {
		name string
		q    *fixedshape.Array
		k    int
		m    search.Metric
		opts []search.Option
	}{
		{"two-tensor-columns", q, 3, search.MetricDot, nil},
		{"missing-column", q, 3, search.MetricDot, []search.Option{search.WithColumn("c")}},
		{"index-out-of-range", q, 3, search.MetricDot, []search.Option{search.WithColumnIndex(2)}},
		{"negative-index", q, 3, search.MetricDot, []search.Option{search.WithColumnIndex(-1)}},
		{"other-shape", other, 3, search.MetricDot, []search.Option{search.WithColumn("a")}},
		{"negative-k", q, -1, search.MetricDot, []search.Option{search.WithColumn("a")}},
		{"unknown-metric", q, 3, search.Metric(-1), []search.Option{search.WithColumn("a")}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec := array.NewRecordBatch(schema, []arrow.Array{col, col}, int64(col.Len()))
			rr, err := array.NewRecordReader(schema, []arrow.RecordBatch{rec})
			rec.Release()
			if err != nil {
				t.Fatal(err)
			}
			defer rr.Release()
			if _, err := search.Search(rr, c.q, c.k, c.m, c.opts...); !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("err = %v, want arrow.ErrInvalid", err)
			}
		})
	}
	t.Run("add-other-type", func(t *testing.T) {
		tk, err := search.NewTopK(col.TensorType(), q, 2, search.MetricCosine)
		if err != nil {
			t.Fatal(err)
		}
		wrong, _ := randColumn(t, r, arrow.PrimitiveTypes.Float64, []int{6}, nil, 3, nil, false)
		if err := tk.Add(wrong); !errors.Is(err, arrow.ErrInvalid) {
			t.Fatalf("err = %v, want arrow.ErrInvalid", err)
		}
	})
}
