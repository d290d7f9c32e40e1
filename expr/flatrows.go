package expr

import (
	"math"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/numeric"
)

// flatRows runs runFlat's one-value-per-tensor reductions of float32 rows
// (sum, mean, norm) over the tensors lo..hi
// through numeric.RowsF32: one kernel call for every stretch of up to chunk
// valid tensors instead of a call, a reset and a finish per tensor, so the
// input streams on across tensor boundaries. n is the row length. The results have the bits
// of the tensor-by-tensor path. It reports false, doing nothing, for the
// other reductions.
func (p *Plan) flatRows(w *worker, dst []byte, x []float32, in *fixedshape.Array, lo, hi, n int) bool {
	c := p.comp
	ps := &c.first
	r := ps.red
	if ps.src != dtF32 || c.meta.Size() != 1 {
		return false
	}
	var op numeric.RowOp
	switch {
	case r.sim:
		return false
	case r.kind == Sum || r.kind == Mean:
		op = numeric.RowSum
	case r.kind == Norm:
		op = numeric.RowSumSq
	default:
		return false
	}
	width := c.elem.width()
	vals := w.f
	for t := lo; t < hi; {
		if in.IsNull(t) {
			clear(dst[t*width : (t+1)*width])
			t++
			continue
		}
		e := t + 1
		for e < hi && e-t < len(vals) && !in.IsNull(e) {
			e++
		}
		v := vals[:e-t]
		numeric.RowsF32(op, v, x[t*p.inSize+ps.offset:], n, p.inSize)
		for j, s := range v {
			// 0 + s as the accumulator that starts at 0 does (-0 becomes 0).
			s = 0 + s
			switch {
			case r.kind == Norm:
				s = math.Sqrt(s)
			case r.kind == Mean:
				s /= float64(r.count)
			}
			v[j] = roundTo(s, r.out)
		}
		view{b: dst[t*width:], dt: c.elem}.store(v, nil, 0, 1)
		t = e
	}
	return true
}
