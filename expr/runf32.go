package expr

import (
	"math"
	"slices"

	"github.com/fstensor/fstensor/internal/numeric"
)

// f32Ops maps the instructions a float32 program may hold to the
// kernels' operations.
var f32Ops = [...]numeric.Op{iAdd: numeric.Add, iSub: numeric.Sub, iMul: numeric.Mul, iDiv: numeric.Div,
	iRSub: numeric.RSub, iRDiv: numeric.RDiv, iMax: numeric.Max, iMin: numeric.Min}

// prepF32 marks a pass that can run in float32: a store of float32
// computed from uint8 or float32 elements by float32 instructions only.
// Each float32 operation rounds as float64 arithmetic rounded to float32
// does, so the result is the general path's, bit for bit.
func (p *pass) prepF32() {
	if p.red != nil || p.out != dtF32 || p.src != dtU8 && p.src != dtF32 {
		return
	}
	for k, in := range p.prog {
		if k == 0 && in.code == iCast && in.to == dtF32 {
			continue
		}
		if in.to != dtF32 || in.code == iCast {
			return
		}
	}
	for _, in := range p.prog {
		if (in.code == iMax || in.code == iMin) && slices.ContainsFunc(in.k.f, math.IsNaN) {
			return // the kernels keep v against a NaN bound
		}
	}
	for _, in := range p.prog {
		if in.k != nil {
			in.k.f32 = make([]float32, len(in.k.f))
			for j, v := range in.k.f {
				in.k.f32[j] = float32(v)
			}
		}
	}
	p.f32 = true
}

// runF32 runs a chunk of a float32 pass: n values of the run at offs,
// from its element c0, into the destination's float32 elements. With
// stream they are computed in w's scratch (in the cache) and then
// written with non-temporal stores; otherwise in place.
func (ps *pass) runF32(nt *nest, w *worker, src, dst view, offs []int, c0, n int) {
	last := len(nt.dims) - 1
	st := func(o int) int { return nt.st[o][last] }
	out := cast[float32](dst.b)[offs[opDst]+c0 : offs[opDst]+c0+n]
	if done := ps.chainF32(nt, w, src, out, offs, c0); done > 0 {
		if done == n {
			return
		}
		// The rest of the run, as below.
		c0, n, out = c0+done, n-done, out[done:]
	}
	v := out
	if w.stream {
		v = w.f32[:n]
		defer numeric.StreamF32(out, v)
	}
	so, ss := offs[opSrc]+c0*st(opSrc), st(opSrc)
	if ps.src == dtU8 {
		s := src.b
		if ss == 1 {
			numeric.U8ToF32(v, s[so:so+n])
		} else {
			for j := range v {
				v[j] = float32(s[so+j*ss])
			}
		}
	} else {
		s := cast[float32](src.b)
		if ss == 1 {
			copy(v, s[so:so+n])
		} else {
			for j := range v {
				v[j] = s[so+j*ss]
			}
		}
	}
	o := opK
	for _, in := range ps.prog {
		switch in.code {
		case iCast:
			continue
		case iAbs:
			for j, x := range v {
				v[j] = float32(math.Abs(float64(x)))
			}
			continue
		case iSqrt:
			for j, x := range v {
				v[j] = float32(math.Sqrt(float64(x)))
			}
			continue
		}
		ko, ks := offs[o]+c0*st(o), st(o)
		o++
		k := in.k.f32
		switch ks {
		case 0:
			numeric.ApplyScalarF32(f32Ops[in.code], v, k[ko])
		case 1:
			numeric.ApplyF32(f32Ops[in.code], v, k[ko:ko+n])
		default:
			kv := make([]float32, n)
			for j := range kv {
				kv[j] = k[ko+j*ks]
			}
			numeric.ApplyF32(f32Ops[in.code], v, kv)
		}
	}
}

// chainF32 runs the leading whole blocks of a chunk in one pass of the
// numeric chain kernel when the source is contiguous and every instruction
// is arithmetic with a scalar or a contiguous constant; it returns the
// number of elements done (0 when it does not apply).
func (ps *pass) chainF32(nt *nest, w *worker, src view, out []float32, offs []int, c0 int) int {
	last := len(nt.dims) - 1
	n := len(out)
	if n < 64 || nt.st[opSrc][last] != 1 {
		return 0
	}
	steps := w.steps[:0]
	o := opK
	for _, in := range ps.prog {
		if in.code == iCast {
			continue
		}
		if in.code > iRDiv || in.k == nil {
			return 0
		}
		ko, ks := offs[o]+c0*nt.st[o][last], nt.st[o][last]
		o++
		switch ks {
		case 0:
			steps = append(steps, numeric.Step{Op: f32Ops[in.code], C: in.k.f32[ko]})
		case 1:
			steps = append(steps, numeric.Step{Op: f32Ops[in.code], K: in.k.f32[ko : ko+n]})
		default:
			return 0
		}
	}
	so := offs[opSrc] + c0
	if ps.src == dtU8 {
		return numeric.ChainU8F32(out, src.b[so:so+n], steps, w.stream)
	}
	return numeric.ChainF32(out, cast[float32](src.b)[so:so+n], steps, w.stream)
}
