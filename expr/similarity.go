package expr

import (
	"math"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/numeric"
	"github.com/fstensor/fstensor/search"
)

// simRow gathers one tensor's values of a float similarity and the
// constant's values paired with them, in the order the pass visits them
// (the tensor's physical order), and scores them at the end with
// numeric's kernels, as package search does: in float32 when the
// similarity is (r.c32), in float64 otherwise.
type simRow struct {
	x32, c32 []float32
	x64, c64 []float64
}

func (s *simRow) reset() {
	s.x32, s.c32 = s.x32[:0], s.c32[:0]
	s.x64, s.c64 = s.x64[:0], s.c64[:0]
}

// add appends a run of values f with the constant from element ko of
// r.c, ks apart.
func (s *simRow) add(r *reducer, f []float64, ko, ks int) {
	if r.c32 {
		c := r.c.f32
		for j, v := range f {
			s.x32 = append(s.x32, float32(v))
			s.c32 = append(s.c32, c[ko+j*ks])
		}
		return
	}
	c := r.c.f
	for j, v := range f {
		s.x64 = append(s.x64, v)
		s.c64 = append(s.c64, c[ko+j*ks])
	}
}

// addF32 appends a contiguous float32 run x with the float32 constant
// from element ko of r.c, ks (0 or 1) apart.
func (s *simRow) addF32(r *reducer, x []float32, ko, ks int) {
	s.x32 = append(s.x32, x...)
	if ks == 1 {
		s.c32 = append(s.c32, r.c.f32[ko:ko+len(x)]...)
		return
	}
	for range x {
		s.c32 = append(s.c32, r.c.f32[ko])
	}
}

// score returns the similarity of the gathered values.
func (s *simRow) score(r *reducer) float64 {
	if r.c32 {
		return float64(similarity(r.metric, s.x32, s.c32))
	}
	return similarity(r.metric, s.x64, s.c64)
}

// similarity returns metric m of x and c (of x's length) in F, with the
// kernels and formulas of package search, so that both give the same
// bits: Dot, Norm, Cosine, SquaredL2 and the rounded square root of it.
func similarity[F numeric.Float](m search.Metric, x, c []F) F {
	switch m {
	case search.MetricDot:
		return numeric.Dot(x, c)
	case search.MetricCosine:
		return numeric.Cosine(x, c, numeric.Norm(c))
	case search.MetricL2:
		return F(math.Sqrt(float64(numeric.SquaredL2(x, c))))
	}
	return numeric.SquaredL2(x, c)
}

// flatSim is runFlat for a float32 similarity: tensor t of lo..hi is the
// contiguous float32 run x[t*p.inSize+offset:][:n], scored against the
// constant (ks 1: its n values; ks 0: one value broadcast) without
// copying it; the constant's norm is computed once.
func (p *Plan) flatSim(dst []byte, x []float32, in *fixedshape.Array, lo, hi, n, ks int) {
	c := p.comp
	ps := &c.first
	r := ps.red
	var k []float32
	if ks == 1 {
		k = r.c.f32[:n]
	} else {
		k = make([]float32, n)
		for j := range k {
			k[j] = r.c.f32[0]
		}
	}
	var kn float32
	if r.metric == search.MetricCosine {
		kn = numeric.Norm(k)
	}
	width := c.elem.width()
	if r.metric != search.MetricCosine {
		p.flatSimRows(dst, x, in, lo, hi, k)
		return
	}
	var v [1]float64
	for t := lo; t < hi; t++ {
		d := dst[t*width : (t+1)*width]
		if in.IsNull(t) {
			clear(d)
			continue
		}
		row := x[t*p.inSize+ps.offset:][:n]
		if r.metric == search.MetricCosine {
			v[0] = float64(numeric.Cosine(row, k, kn))
		} else {
			v[0] = float64(similarity(r.metric, row, k))
		}
		v[0] = roundTo(v[0], r.out)
		view{b: d, dt: c.elem}.store(v[:], nil, 0, 1)
	}
}

// flatSimRows is flatSim for the dot product and the distances: the
// tensors go through numeric's row kernels simRowsChunk at a time, with
// the bits of similarity's call per tensor.
func (p *Plan) flatSimRows(dst []byte, x []float32, in *fixedshape.Array, lo, hi int, k []float32) {
	c := p.comp
	r := c.first.red
	width := c.elem.width()
	var sc [simRowsChunk]float32
	var v [simRowsChunk]float64
	// A float32 dot product is its kernel's float32 score: the kernel
	// writes it in place (a rounding and a store per 1 KiB row had cost
	// 10-15% of the scan).
	direct := r.metric == search.MetricDot && r.out == dtF32 && c.elem == dtF32
	nulls := in.NullN() > 0
	for t := lo; t < hi; t += simRowsChunk {
		s := sc[:min(simRowsChunk, hi-t)]
		rows := x[t*p.inSize+c.first.offset:]
		switch {
		case direct:
			numeric.DotRows(cast[float32](dst[t*width:])[:len(s)], rows, p.inSize, k)
		case r.metric == search.MetricDot:
			numeric.DotRows(s, rows, p.inSize, k)
		default:
			numeric.SquaredL2Rows(s, rows, p.inSize, k)
		}
		if !direct {
			f := v[:len(s)]
			for j, sq := range s {
				if r.metric == search.MetricL2 {
					sq = float32(math.Sqrt(float64(sq)))
				}
				f[j] = roundTo(float64(sq), r.out)
			}
			view{b: dst[t*width:], dt: c.elem}.store(f, nil, 0, 1)
		}
		for j := range s {
			if nulls && in.IsNull(t+j) {
				clear(dst[(t+j)*width : (t+j+1)*width])
			}
		}
	}
}

// simRowsChunk is the number of tensors flatSimRows scores a kernel call.
const simRowsChunk = 256
