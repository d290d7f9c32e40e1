package search

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/linalg"
	"github.com/fstensor/fstensor/internal/numeric"
)

// TopK finds the k rows nearest to each of a batch of queries over a
// column given batch by batch ([TopK.Add]); [Search] drives it from a
// record reader. It holds k rows per query and scratch space of a few
// hundred rows, whatever the number of rows searched. It is not safe for
// concurrent use.
type TopK struct {
	col    *fixedshape.Type
	m      Metric
	k      int
	rows   int64
	engine interface {
		add(a *fixedshape.Array, base int64) error
		heaps() []topHeap
	}
}

// NewTopK returns a search for the k rows nearest to each query of
// queries under metric m among columns of type col (the type of every
// column given to [TopK.Add]). queries holds numeric tensors of col's
// logical shape, in any element type and permutation; they are copied,
// so the caller may release queries after the call. A null query finds
// nothing. Scores are computed in float32 when col's and the queries'
// elements are float16 or float32, in float64 otherwise. Errors wrap
// arrow.ErrInvalid: an unknown metric, k < 0, other shapes, non-numeric
// elements.
func NewTopK(col *fixedshape.Type, queries *fixedshape.Array, k int, m Metric) (*TopK, error) {
	if !m.valid() {
		return nil, fmt.Errorf("search: unknown metric %d: %w", int(m), arrow.ErrInvalid)
	}
	if k < 0 {
		return nil, fmt.Errorf("search: k = %d is negative: %w", k, arrow.ErrInvalid)
	}
	if col == nil || queries == nil {
		return nil, fmt.Errorf("search: top-k of a nil column type or query: %w", arrow.ErrInvalid)
	}
	if err := checkTypes("top-k", col, queries.TensorType()); err != nil {
		return nil, err
	}
	t := &TopK{col: col, m: m, k: k}
	var err error
	if float32Acc(col.ElemType(), queries.TensorType().ElemType()) {
		t.engine, err = newEngine[float32](col, queries, k, m)
	} else {
		t.engine, err = newEngine[float64](col, queries, k, m)
	}
	if err != nil {
		return nil, err
	}
	return t, nil
}

// Add searches the rows of a, numbered from [TopK.Rows] on; null tensors
// are skipped (but numbered). a must have the column type given to
// [NewTopK]; it is read during the call only. Errors wrap
// arrow.ErrInvalid.
func (t *TopK) Add(a *fixedshape.Array) error {
	if a == nil || !arrow.TypeEqual(a.DataType(), t.col) {
		var got arrow.DataType
		if a != nil {
			got = a.DataType()
		}
		return fmt.Errorf("search: column of type %v, want %v: %w", got, t.col, arrow.ErrInvalid)
	}
	if err := t.engine.add(a, t.rows); err != nil {
		return err
	}
	t.rows += int64(a.Len())
	return nil
}

// Rows returns the number of rows added so far.
func (t *TopK) Rows() int64 { return t.rows }

// Results returns, for each query, the nearest rows found so far, nearest
// first: min(k, non-null rows) hits, fewer for none of a null query.
// Equal scores rank by lower row; NaN scores rank after every number. The
// result is a new slice; the search may continue after the call.
func (t *TopK) Results() [][]Hit {
	hs := t.engine.heaps()
	out := make([][]Hit, len(hs))
	for j := range hs {
		items := hs[j].sorted()
		hits := make([]Hit, len(items))
		for i, it := range items {
			hits[i] = Hit{Row: it.row, Score: t.score(it.key)}
		}
		out[j] = hits
	}
	return out
}

// score turns a heap key back into the metric's score.
func (t *TopK) score(key float64) float64 {
	switch t.m {
	case MetricSquaredL2:
		return math.Max(-key, 0)
	case MetricL2:
		return math.Sqrt(math.Max(-key, 0))
	}
	return key
}

// multiMin is the number of queries from which the blocked kernel scores
// rows (below it, each row is scored against each query by itself).
const multiMin = 2

// blockRows is the number of rows scored at once: by the matrix product
// of many queries, or by the row kernels of one.
const blockRows = 256

// engine scores rows of one accumulation type.
type engine[F numeric.Float] struct {
	m     Metric
	d     int
	q     [][]F                 // valid queries in the column's physical order
	qid   []int                 // their indexes among all queries
	qnorm []F                   // |q| (cosine) or |q|^2 (L2), per valid query
	mul   func(c, a []F, m int) // c (m x queries) = a (m x d) @ the queries, transposed
	h     []topHeap             // per query, all queries
	open  []bool                // heap not full (or holding a NaN): push every row
	thr   []float64             // the worst key held when not open

	scratch, scores, norms []F
}

func newEngine[F numeric.Float](col *fixedshape.Type, queries *fixedshape.Array, k int, m Metric) (*engine[F], error) {
	src, err := newSource[F](queries, gatherOrder(col, queries.TensorType()))
	if err != nil {
		return nil, err
	}
	d := col.ListSize()
	e := &engine[F]{m: m, d: d, h: make([]topHeap, queries.Len())}
	buf := make([]F, d)
	var flat []F
	for j := range queries.Len() {
		e.h[j].k = k
		if queries.IsNull(j) {
			e.h[j].k = 0
			continue
		}
		q := append([]F(nil), src.row(j, buf)...)
		e.q = append(e.q, q)
		e.qid = append(e.qid, j)
		flat = append(flat, q...)
		switch m {
		case MetricCosine:
			e.qnorm = append(e.qnorm, numeric.Norm(q))
		case MetricL2, MetricSquaredL2:
			e.qnorm = append(e.qnorm, numeric.Dot(q, q))
		default:
			e.qnorm = append(e.qnorm, 0)
		}
	}
	e.open = make([]bool, len(e.q))
	e.thr = make([]float64, len(e.q))
	for j := range e.open {
		e.open[j] = true
	}
	e.scratch = make([]F, d)
	if len(e.q) >= multiMin {
		e.mul = packQueries(flat, len(e.q), d)
		e.scratch = make([]F, blockRows*d)
		e.scores = make([]F, blockRows*len(e.q))
		e.norms = make([]F, blockRows)
	}
	return e, nil
}

// packQueries returns the product of rows with the nq queries of d
// elements in q (query j at q[j*d:]): the queries transposed and packed
// once for linalg's kernel, so that c[r*nq+j] is the fused multiply-add
// chain of row r and query j over ascending elements.
func packQueries[F numeric.Float](q []F, nq, d int) func(c, a []F, m int) {
	qt := make([]F, d*nq)
	for j := range nq {
		for p := range d {
			qt[p*nq+j] = q[j*d+p]
		}
	}
	switch qt := any(qt).(type) {
	case []float32:
		pk := linalg.PackF32(qt, d, nq)
		return any(func(c, a []float32, m int) { pk.MulF32(c, a, m) }).(func(c, a []F, m int))
	case []float64:
		pk := linalg.PackF64(qt, d, nq)
		return any(func(c, a []float64, m int) { pk.MulF64(c, a, m) }).(func(c, a []F, m int))
	}
	panic("search: unreachable element type")
}

func (e *engine[F]) heaps() []topHeap { return e.h }

// offer pushes row's key to valid query j's heap when it can rank.
func (e *engine[F]) offer(j int, key float64, row int64) {
	if !e.open[j] && !(key > e.thr[j]) {
		return
	}
	h := &e.h[e.qid[j]]
	h.push(item{key: key, row: row})
	if thr, full := h.threshold(); full && !math.IsNaN(thr) {
		e.open[j], e.thr[j] = false, thr
	}
}

func (e *engine[F]) add(a *fixedshape.Array, base int64) error {
	if len(e.q) == 0 || a.Len() == 0 {
		return nil
	}
	src, err := newSource[F](a, nil)
	if err != nil {
		return err
	}
	if e.mul == nil {
		e.addOne(a, src, base)
		return nil
	}
	for i := 0; i < a.Len(); i += blockRows {
		c := min(blockRows, a.Len()-i)
		e.addBlock(a, src, base, i, c)
	}
	return nil
}

// addOne scores every row against the one valid query.
func (e *engine[F]) addOne(a *fixedshape.Array, src *source[F], base int64) {
	q, qn := e.q[0], e.qnorm[0]
	nulls := a.NullN() > 0
	if src.direct != nil && e.m != MetricCosine {
		e.addOneRows(a, src.direct, base)
		return
	}
	for i := range a.Len() {
		if nulls && a.IsNull(i) {
			continue
		}
		x := src.row(i, e.scratch)
		var key float64
		switch e.m {
		case MetricDot:
			key = float64(numeric.Dot(x, q))
		case MetricCosine:
			key = float64(numeric.Cosine(x, q, qn))
		default:
			key = -float64(numeric.SquaredL2(x, q))
		}
		e.offer(0, key, base+int64(i))
	}
}

// addOneRows is addOne for rows read in place (x) under the dot product
// or a distance: numeric's row kernels score blockRows rows a call, with
// the bits of a call per row.
func (e *engine[F]) addOneRows(a *fixedshape.Array, x []F, base int64) {
	q, d := e.q[0], e.d
	nulls := a.NullN() > 0
	if len(e.scores) < blockRows {
		e.scores = make([]F, blockRows)
	}
	for i := 0; i < a.Len(); i += blockRows {
		s := e.scores[:min(blockRows, a.Len()-i)]
		if e.m == MetricDot {
			numeric.DotRows(s, x[i*d:], d, q)
		} else {
			numeric.SquaredL2Rows(s, x[i*d:], d, q)
		}
		for r, v := range s {
			if nulls && a.IsNull(i+r) {
				continue
			}
			key := float64(v)
			if e.m != MetricDot {
				key = -key
			}
			e.offer(0, key, base+int64(i+r))
		}
	}
}

// addBlock scores rows [i, i+c) against every valid query with one
// matrix product; L2 uses |x|^2 - 2 x.q + |q|^2.
func (e *engine[F]) addBlock(a *fixedshape.Array, src *source[F], base int64, i, c int) {
	x := src.rows(i, c, e.scratch)
	e.mul(e.scores, x, c)
	ld := len(e.q)
	if e.m != MetricDot {
		for r := range c {
			row := x[r*e.d : (r+1)*e.d]
			e.norms[r] = numeric.Dot(row, row)
		}
	}
	nulls := a.NullN() > 0
	for r := range c {
		if nulls && a.IsNull(i+r) {
			continue
		}
		s := e.scores[r*ld : r*ld+len(e.q)]
		row := base + int64(i+r)
		switch e.m {
		case MetricDot:
			for j, v := range s {
				e.offer(j, float64(v), row)
			}
		case MetricCosine:
			xn := F(math.Sqrt(float64(e.norms[r])))
			for j, v := range s {
				e.offer(j, float64(v/(xn*e.qnorm[j])), row)
			}
		default:
			xx := e.norms[r]
			for j, v := range s {
				e.offer(j, -float64(xx-2*v+e.qnorm[j]), row)
			}
		}
	}
}
