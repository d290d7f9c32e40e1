package engine

import (
	"math"

	"github.com/fstensor/fstensor/internal/numeric"
	"github.com/fstensor/fstensor/search"
)

// similarity returns metric m of x and y with package search's kernels
// and formulas, so that both give the same bits.
func similarity[F numeric.Float](m search.Metric, x, y []F) F {
	switch m {
	case search.MetricDot:
		return numeric.Dot(x, y)
	case search.MetricCosine:
		return numeric.Cosine(x, y, numeric.Norm(y))
	case search.MetricL2:
		return F(math.Sqrt(float64(numeric.SquaredL2(x, y))))
	}
	return numeric.SquaredL2(x, y)
}

// simRows evaluates a Similarity node over rows rows: operands a and b
// of type T (rs elements a row each, 0 for a constant), into d of type
// dt. float32 and float64 operands are scored in their type; integers
// are NumPy's (x * y).sum() for a Dot of integer result (products wrap
// around in T, the sum in int64), else scored in float64.
func simRows[T number](ws *workspace, c *cnode, d []byte, dt DType, a, b []T, ars, brs, rows int) {
	n := c.Args[0].Shape
	size, _ := sizeOf(n)
	if ars == 0 && c.Metric != search.MetricCosine {
		a, b, ars, brs = b, a, brs, ars // symmetric: the constant second
	}
	if x, ok := any(a).([]float32); ok && brs == 0 && ars > 0 && c.Metric != search.MetricCosine {
		simRowsF32(ws, c.Metric, d, dt, x, any(b).([]float32)[:size], ars, rows)
		return
	}
	intDot := !isFloatT[T]() && c.Metric == search.MetricDot && !dt.isFloat()
	var fx, fy []float64
	if !isFloatT[T]() && !intDot {
		fx, fy = scratchOf[float64](ws, 4, size), scratchOf[float64](ws, 5, size)
	}
	for r := range rows {
		x, y := a[r*ars:r*ars+size], b[r*brs:r*brs+size]
		var res result
		switch {
		case intDot:
			var s int64
			for j := range x {
				s += int64(x[j] * y[j])
			}
			res = result{i: s, isInt: true}
		case fx != nil:
			for j := range x {
				fx[j], fy[j] = float64(x[j]), float64(y[j])
			}
			res = result{f: similarity(c.Metric, fx, fy)}
		default:
			switch xs := any(x).(type) {
			case []float32:
				res = result{f: float64(similarity(c.Metric, xs, any(y).([]float32)))}
			case []float64:
				res = result{f: similarity(c.Metric, xs, any(y).([]float64))}
			}
		}
		res.store(d, dt, r)
	}
}

// simRowsF32 is simRows of float32 rows x (stride elements apart)
// against one constant q by the dot product or a distance, rows at a
// time through numeric's row kernels (a float32 dot product written in
// place), with the bits similarity gives each row.
func simRowsF32(ws *workspace, m search.Metric, d []byte, dt DType, x, q []float32, stride, rows int) {
	if m == search.MetricDot && dt == Float32 {
		numeric.DotRows(as[float32](d)[:rows], x, stride, q)
		return
	}
	s := scratchOf[float32](ws, 4, rows)
	if m == search.MetricDot {
		numeric.DotRows(s, x, stride, q)
	} else {
		numeric.SquaredL2Rows(s, x, stride, q)
	}
	for r, v := range s {
		if m == search.MetricL2 {
			v = float32(math.Sqrt(float64(v)))
		}
		result{f: float64(v)}.store(d, dt, r)
	}
}
