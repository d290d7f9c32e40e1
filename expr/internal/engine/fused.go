package engine

import (
	"slices"

	"github.com/fstensor/fstensor/internal/numeric"
)

// fused is a float32 root computed by numeric's one-pass chains: its
// source (a float32 node, or the uint8 input of a Cast to float32) run
// through + - * / by constants that are a value or repeat along the
// outer axes (x.astype(float32) - mean) / std with per-channel mean and
// std, x * 2 + 1), each element loaded once and stored once.
type fused struct {
	u8    bool
	steps []numeric.Step // vector operands tiled to tile elements
	tile  int            // 0: no vector operand, any length in one call
}

// maxTile bounds the tiled constants of a fused chain.
const maxTile = 1 << 14

// fuse replaces the chains of the direct roots by fused nodes, dropping
// their inner nodes from the schedule.
func (p *Program) fuse(users [][]int, isRoot map[int]bool, direct map[int]bool) {
	drop := map[int]bool{}
	for r := range direct {
		c := p.nodes[r]
		var steps []numeric.Step
		var inner []int
		period := 64
		n := r
		for {
			x, step, per, ok := p.fusable(n, c.Shape)
			if !ok || len(steps) == 16 || lcm(period, per) > maxTile {
				break
			}
			period = lcm(period, per)
			steps = append(steps, step)
			if n != r {
				inner = append(inner, n)
			}
			n = x
			xn := p.nodes[x]
			if xn.Op != OpBinary || isRoot[x] || len(users[x]) != 1 {
				break
			}
			if _, _, _, ok := p.fusable(x, c.Shape); !ok {
				break
			}
		}
		if len(steps) == 0 {
			continue
		}
		src, u8 := n, false
		if sn := p.nodes[n]; sn.Op == OpCast && sn.Args[0].DType == Uint8 && !isRoot[n] && len(users[n]) == 1 {
			src, u8 = sn.args[0], true
			inner = append(inner, n)
		}
		if sn := p.nodes[src]; sn.konst != nil || !u8 && (sn.DType != Float32 || len(steps) < 2) {
			continue
		}
		tile := period * max(1, 4096/period)
		if !slices.ContainsFunc(steps, func(s numeric.Step) bool { return s.K != nil }) {
			tile = 0
		}
		slices.Reverse(steps)
		for i, s := range steps {
			if s.K != nil {
				k := make([]float32, tile)
				for j := range k {
					k[j] = s.K[j%len(s.K)]
				}
				steps[i].K = k
			}
		}
		c.fused = &fused{u8: u8, steps: steps, tile: tile}
		c.args = []int{src}
		for _, i := range inner {
			drop[i] = true
		}
	}
	p.sched = slices.DeleteFunc(p.sched, func(i int) bool { return drop[i] })
}

// fusable reports whether node n is a float32 + - * / of shape by a
// constant that is a value or repeats along the outer axes, and returns
// its other operand, its step (the constant's values in K, or C) and
// the constant's period.
func (p *Program) fusable(n int, shape []int) (x int, step numeric.Step, period int, ok bool) {
	c := p.nodes[n]
	ops, isOp := f32Ops[c.Fn]
	if c.Op != OpBinary || c.DType != Float32 || !isOp || !slices.Equal(c.Shape, shape) {
		return 0, step, 0, false
	}
	k, side := -1, 0
	for i, a := range c.args {
		if p.nodes[a].konst != nil {
			k, side = a, i
		}
	}
	if k < 0 || !slices.Equal(p.nodes[c.args[1-side]].Shape, shape) {
		return 0, step, 0, false
	}
	kn := p.nodes[k]
	ks := kn.Shape
	for len(ks) > 0 && ks[0] == 1 {
		ks = ks[1:]
	}
	if len(ks) > len(shape) || !slices.Equal(ks, shape[len(shape)-len(ks):]) {
		return 0, step, 0, false
	}
	vals := as[float32](kn.konst)
	step.Op = ops[1-side] // the constant second: op; first: reversed
	if kn.size == 1 {
		step.C = vals[0]
	} else {
		step.K = vals
	}
	return c.args[1-side], step, max(kn.size, 1), true
}

func lcm(a, b int) int {
	x, y := a, b
	for y != 0 {
		x, y = y, x%y
	}
	return a / x * b
}

// runFused evaluates a fused root over rows rows into d.
func runFused(ws *workspace, c *cnode, d []float32, rows int) {
	f := c.fused
	n := rows * c.size
	src := ws.cur[c.args[0]].b
	tile := f.tile
	if tile == 0 {
		tile = n
	}
	for off := 0; off < n; off += tile {
		m := min(tile, n-off)
		dd := d[off : off+m]
		var h int
		if f.u8 {
			h = numeric.ChainU8F32(dd, src[off:off+m], f.steps, ws.stream)
			numeric.U8ToF32(dd[h:], src[off+h:off+m])
		} else {
			s := as[float32](src)[off : off+m]
			h = numeric.ChainF32(dd, s, f.steps, ws.stream)
			copy(dd[h:], s[h:])
		}
		for _, s := range f.steps {
			if s.K != nil {
				numeric.ApplyF32(s.Op, dd[h:], s.K[h:m])
			} else {
				numeric.ApplyScalarF32(s.Op, dd[h:], s.C)
			}
		}
	}
}
