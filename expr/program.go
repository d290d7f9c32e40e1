package expr

import (
	"fmt"
	"slices"
	"sync"

	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/search"
	"github.com/fstensor/fstensor/stride"
)

// icode is an instruction of an element-wise program.
type icode uint8

const (
	iCast icode = iota // convert from one dtype to another
	iAdd
	iSub
	iMul
	iDiv
	iRSub // k - v
	iRDiv // k / v
	iMax  // maximum(v, k), NaN from either kept
	iMin  // minimum(v, k), NaN from either kept
	iAbs
	iSqrt
)

// instr is one step of an element-wise program over a run of values held
// as float64 (float dtypes, each value exact in its dtype) or int64
// (integer dtypes, uint64 as bits): the operation in dtype to (from is the
// operand's dtype for iCast), with the constant k when it takes one.
type instr struct {
	code     icode
	from, to dtype
	k        *konst
}

// konst is a constant operand converted to its instruction's dtype and
// broadcast over the pass: values (f or i) and an element stride per pass
// axis (all 0 for a scalar).
type konst struct {
	f       []float64
	i       []int64
	f32     []float32 // f as float32, for a float32 program
	strides []int
}

// pass is one element-wise sweep over a shape: source elements of dtype
// src at element strides over the pass shape (0 on broadcast axes), the
// program, and then either a store of dtype out, dense row-major in the
// pass shape, or a reduction.
type pass struct {
	shape   []int
	strides []int
	offset  int
	src     dtype
	prog    []instr
	val     dtype // the dtype the program leaves
	red     *reducer
	out     dtype
	f32     bool // a float32 program stored as float32: runs in float32 (runf32.go)
}

// reducer is the reduction of a pass: which axes it reduces, into what.
type reducer struct {
	kind     Reduction
	sim      bool // a similarity (metric) rather than kind
	metric   search.Metric
	c        *konst // the similarity's constant, as float64 values
	red      []bool // the pass axes reduced
	outShape []int  // the reduced shape without kept axes
	count    int    // elements reduced into each output
	ddof     int    // Var, Std: the delta degrees of freedom
	argAxis  int    // ArgMax, ArgMin: the axis (-1: all)
	out      dtype  // the result dtype
	float    bool   // accumulate as float64 (else int64)
	c32      bool   // the similarity accumulates in float32: its constant is exact as float32
}

// compute is the computing part of a plan: the pass over the view's
// result, and after a reduction a second pass over the reduced values.
type compute struct {
	first  pass
	second *pass // after a reduction; nil when none
	meta   metadata.Metadata
	elem   dtype
	scalar bool // one value per tensor: a reduction left no axes
	nest1  nest // the loops of first
	nest2  nest // the loops of second

	// workers holds the *worker of finished evaluations for the next
	// ones: a worker's buffers take ~40 KiB. Every path sets or clears
	// what it reads from them.
	workers sync.Pool
}

// compileCompute lowers the computing nodes above the view node v (whose
// result the plan's last stage describes) to passes.
func compileCompute(top, v *node, last stage) (*compute, error) {
	var chain []*node
	for m := top; m != v; m = m.x {
		chain = append(chain, m)
	}
	slices.Reverse(chain)
	c := &compute{meta: top.meta, elem: top.dt}
	p := &pass{shape: slices.Clone(last.Shape), strides: slices.Clone(last.Strides), offset: last.Offset, src: dtypeOf(v.elem)}
	p.val = p.src
	c.first = *p
	p = &c.first
	for _, m := range chain {
		if p.red != nil && p == &c.first {
			// A reduction ended the first pass: the next reads its dense result.
			r := p.red
			p.out = r.out
			shape := m.x.meta.Shape()
			c.second = &pass{shape: shape, strides: stride.RowMajor(nil, shape), src: r.out, val: r.out}
			p = c.second
		}
		switch m.op {
		case opAstype:
			p.cast(m.dt)
		case opAbs:
			p.cast(m.dt)
			p.prog = append(p.prog, instr{code: iAbs, from: m.dt, to: m.dt})
		case opSqrt:
			p.cast(m.dt)
			p.prog = append(p.prog, instr{code: iSqrt, from: m.dt, to: m.dt})
		case opClip:
			p.cast(m.dt)
			if m.hasLo {
				p.prog = append(p.prog, instr{code: iMax, from: m.dt, to: m.dt, k: p.bound(m.c, m.dt)})
			}
			if m.hasHi {
				p.prog = append(p.prog, instr{code: iMin, from: m.dt, to: m.dt, k: p.bound(m.c2, m.dt)})
			}
		case opArith:
			if !m.c.scalar() {
				p.broadcastTo(m.meta.Shape())
			}
			p.cast(m.dt)
			code := [...]icode{Add: iAdd, Sub: iSub, Mul: iMul, Div: iDiv}[m.bop]
			if m.left && m.bop == Sub {
				code = iRSub
			} else if m.left && m.bop == Div {
				code = iRDiv
			}
			p.prog = append(p.prog, instr{code: code, from: m.dt, to: m.dt, k: p.konst(m.c, m.dt)})
		case opReduce:
			p.reduce(m)
		case opSim:
			p.similarity(m)
		}
	}
	end := c.second
	if end == nil {
		end = &c.first
	}
	end.out = c.elem
	c.scalar = c.first.red != nil && c.meta.NDim() == 0
	c.nest1 = c.first.buildNest()
	c.first.prepF32()
	if r := c.first.red; r != nil && r.c32 {
		// After buildNest, which may have expanded the constant.
		r.c.f32 = make([]float32, len(r.c.f))
		for j, v := range r.c.f {
			r.c.f32[j] = float32(v)
		}
	}
	if c.second != nil {
		c.nest2 = c.second.buildNest()
		c.second.prepF32()
	}
	return c, nil
}

// reduce ends p with the reduction m: the reducer of m's axes over p's
// shape.
func (p *pass) reduce(m *node) {
	red, _ := reducedAxes(m.axes, len(p.shape))
	r := &reducer{kind: m.red, red: red, out: m.dt, argAxis: -1, count: 1, ddof: m.ddof}
	if m.axes != nil && len(m.axes) == 1 {
		r.argAxis = m.axes[0]
		if r.argAxis < 0 {
			r.argAxis += len(p.shape)
		}
	}
	for a, on := range red {
		if on {
			r.count *= p.shape[a]
		} else {
			r.outShape = append(r.outShape, p.shape[a])
		}
	}
	r.float = p.val.float() || m.red == Mean || m.red == Norm || m.red == Var || m.red == Std
	if len(p.prog) == 1 && p.prog[0].code == iCast && exactCast(p.src, p.val) && m.red != ArgMax && m.red != ArgMin {
		// x.astype(float32).mean(): the conversion changes no value,
		// so the reduction reads the elements as they are.
		p.prog, p.val = nil, p.src
	}
	p.red = r
}

// similarity ends p with the similarity m against its constant: an
// integer dot product as a multiply and sum, other metrics as a
// similarity reducer over every axis.
func (p *pass) similarity(m *node) {
	if !m.c.scalar() {
		p.broadcastTo(mustBroadcast(p.shape, m.c.shape))
	}
	pt := promoteWeak(p.val, m.c.weak)
	if !m.c.scalar() {
		pt = promote(p.val, m.c.dt)
	}
	red := make([]bool, len(p.shape))
	for a := range red {
		red[a] = true
	}
	count, _ := stride.NumElements(p.shape)
	if m.metric == search.MetricDot && !pt.float() {
		// (x * c).sum() in integers.
		p.cast(pt)
		p.prog = append(p.prog, instr{code: iMul, from: pt, to: pt, k: p.konst(m.c, pt)})
		p.red = &reducer{kind: Sum, red: red, out: m.dt, argAxis: -1, count: count}
		return
	}
	if !pt.float() {
		pt = dtF64
	}
	k := p.konst(m.c, pt)
	if k.f == nil { // integer constant with float64 arithmetic
		k.f = make([]float64, len(k.i))
		for j, v := range k.i {
			k.f[j] = float64(v)
		}
		k.i = nil
	}
	// As package search: float32 accumulation when x holds float16 or
	// float32 values and the constant promotes with them to float16 or
	// float32, float64 otherwise.
	c32 := (pt == dtF16 || pt == dtF32) && p.val.float()
	p.red = &reducer{c32: c32, sim: true, metric: m.metric, c: k, red: red, out: m.dt, argAxis: -1, count: count, float: true}
}

func mustBroadcast(a, b []int) []int {
	s, _ := broadcast(a, b)
	return s
}

// cast appends a conversion of the pass's values to d unless they are d.
func (p *pass) cast(d dtype) {
	if p.val != d {
		p.prog = append(p.prog, instr{code: iCast, from: p.val, to: d})
		p.val = d
	}
}

// broadcastTo grows the pass to shape (a broadcast of its own): new
// leading axes and expanded size-1 axes read with stride 0, and every
// constant already in the program gets the new axes.
func (p *pass) broadcastTo(shape []int) {
	if slices.Equal(shape, p.shape) {
		return
	}
	grow := func(strides []int) []int {
		out := make([]int, len(shape))
		off := len(shape) - len(p.shape)
		for i := range p.shape {
			if p.shape[i] == shape[off+i] {
				out[off+i] = strides[i]
			}
		}
		return out
	}
	p.strides = grow(p.strides)
	for _, in := range p.prog {
		if in.k != nil {
			in.k.strides = grow(in.k.strides)
		}
	}
	p.shape = slices.Clone(shape)
}

// konst converts c to dtype d over the pass's shape (which broadcasting
// has made a superset of c's).
func (p *pass) konst(c Const, d dtype) *konst {
	k := &konst{strides: make([]int, len(p.shape))}
	n := len(c.f) + len(c.i)
	if d.float() {
		k.f = make([]float64, n)
		for j := range n {
			if c.f != nil {
				k.f[j] = roundTo(c.f[j], d)
			} else {
				from := c.dt
				if c.scalar() {
					from = dtI64
				}
				k.f[j] = intToFloat(c.i[j], from, d)
			}
		}
	} else {
		k.i = make([]int64, n)
		for j := range n {
			k.i[j] = wrapTo(c.i[j], d)
		}
	}
	if !c.scalar() {
		cs := stride.RowMajor(nil, c.shape)
		off := len(p.shape) - len(c.shape)
		for i, dim := range c.shape {
			if dim != 1 {
				k.strides[off+i] = cs[i]
			}
		}
	}
	return k
}

// bound returns a clip bound in dtype d: an integer bound beyond an
// integer dtype's range is clamped to it (leaving that side open).
func (p *pass) bound(c Const, d dtype) *konst {
	if c.weak == weakInt && !d.float() && !d.fits(c.i[0]) {
		lo, hi := d.intRange()
		v := int64(lo)
		if c.i[0] > 0 {
			v = int64(hi) - 1
		}
		return &konst{i: []int64{v}, strides: make([]int, len(p.shape))}
	}
	return p.konst(c, d)
}

// exactCast reports whether converting from to to (a float type) keeps
// every value.
func exactCast(from, to dtype) bool {
	switch to {
	case dtF64:
		return from != dtI64 && from != dtU64
	case dtF32:
		return from == dtI8 || from == dtU8 || from == dtI16 || from == dtU16 || from == dtF16
	}
	return false
}

var icodeNames = [...]string{iCast: "cast", iAdd: "add", iSub: "sub", iMul: "mul", iDiv: "div", iRSub: "rsub", iRDiv: "rdiv",
	iMax: "max", iMin: "min", iAbs: "abs", iSqrt: "sqrt"}

// appendText appends a line describing the pass: `pass 0: dims [50176 3]
// src [3 1] uint8 -> float64 [cast] mean`.
func (p *pass) appendText(b []byte, nt *nest, name string) []byte {
	b = fmt.Appendf(b, "\n%s: dims %v src %v %s -> %s [", name, nt.dims, nt.st[opSrc], p.src, p.out)
	for k, in := range p.prog {
		if k > 0 {
			b = append(b, ' ')
		}
		b = append(b, icodeNames[in.code]...)
		if in.code == iCast {
			b = append(append(b, ':'), in.to.String()...)
		}
	}
	b = append(b, ']')
	if p.f32 {
		b = append(b, " float32"...)
	}
	if r := p.red; r != nil {
		if r.sim {
			b = append(append(b, ' '), r.metric.String()...)
		} else {
			b = append(append(b, ' '), r.kind.String()...)
		}
	}
	return b
}
