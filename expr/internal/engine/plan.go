package engine

import "slices"

// directBlockBytes is the block size of a program with no intermediate
// buffer (its nodes read the inputs and write the outputs: a view, a
// reduction), which keeps nothing in cache between passes: larger blocks
// give each kernel call more rows (an index of 64x64 float32 rows went
// from 2.0-3.1 to 5.7-6.1 GB/s).
const directBlockBytes = 4 << 20

// plan assigns pooled buffers to the scheduled nodes and sizes blocks.
//
// A node whose one consumer computes element by element at the same
// positions (a Unary, a Cast to the same type, a Binary or Where operand
// that is not broadcast) and has its type and shape writes into its
// consumer's buffer, which the consumer then overwrites in place: a chain
// of such nodes shares one buffer. x.astype(float32) - mean, then / std,
// needs one intermediate; a root writes its output column from it (with
// stores that bypass the cache, where a float32 kernel allows).
func (p *Program) plan(blockBytes int) {
	auto := blockBytes == 0
	if auto {
		blockBytes = DefaultBlockBytes
	}
	last := make([]int, len(p.nodes))
	users := make([][]int, len(p.nodes))
	for step, i := range p.sched {
		for _, a := range p.nodes[i].args {
			last[a] = step
			if !slices.Contains(users[a], i) {
				users[a] = append(users[a], i)
			}
		}
	}
	p.rootDirect = make([]bool, len(p.roots))
	direct := map[int]bool{}
	isRoot := map[int]bool{}
	perRow := 0
	for ri, r := range p.roots {
		c := p.nodes[r]
		isRoot[r] = true
		perRow += c.size * c.width()
		if c.konst == nil && c.Op != OpInput && c.DType != Bool && !direct[r] {
			direct[r], p.rootDirect[ri] = true, true
		}
	}
	for _, in := range p.inputs {
		n, _ := sizeOf(in.Shape)
		perRow += n * in.DType.Width()
	}
	p.fuse(users, isRoot, direct)
	for i := range users {
		users[i] = users[i][:0]
	}
	for step, i := range p.sched {
		for _, a := range p.nodes[i].args {
			last[a] = step
			if !slices.Contains(users[a], i) {
				users[a] = append(users[a], i)
			}
		}
	}
	p.chain(users, isRoot)
	for _, i := range p.sched {
		p.nodes[i].slot = -2
	}
	var free []int
	chainSlot := map[int]int{} // a direct root's chain: the members' buffer
	for step, i := range p.sched {
		c := p.nodes[i]
		f := p.nodes[c.final]
		switch {
		case c.Op == OpInput && c.DType != Bool || direct[i]:
			c.slot = -1
		case direct[c.final] && chainSlot[c.final] > 0:
			c.slot = chainSlot[c.final] - 1
		case f.slot >= 0:
			c.slot = f.slot
		default:
			c.slot = p.takeSlot(&free, c.size*c.width())
			if direct[c.final] {
				chainSlot[c.final] = c.slot + 1
			} else {
				f.slot = c.slot
			}
		}
		var frees []int
		for _, a := range c.args {
			an := p.nodes[a]
			if s := an.slot; s >= 0 && an.final == a && last[a] == step && !isRoot[a] && !slices.Contains(frees, s) {
				frees = append(frees, s)
			}
		}
		if s := chainSlot[i] - 1; s >= 0 {
			frees = append(frees, s)
		}
		free = append(free, frees...)
	}
	for _, s := range p.slotBytes {
		perRow += s
	}
	if auto && len(p.slotBytes) == 0 {
		blockBytes = directBlockBytes
		p.viewsOnly = p.onlyViews(direct)
	}
	p.blockRows = max(1, blockBytes/max(perRow, 1))
}

// onlyViews reports whether every scheduled node is a dense input or a
// root that is a view of one, written straight into its output.
func (p *Program) onlyViews(direct map[int]bool) bool {
	for _, i := range p.sched {
		c := p.nodes[i]
		switch {
		case c.Op == OpInput && c.DType != Bool:
		case c.Op == OpView && direct[i] && c.fused == nil && p.nodes[c.args[0]].Op == OpInput:
		default:
			return false
		}
	}
	return true
}

// chain sets each node's final: the node whose buffer it writes into.
func (p *Program) chain(users [][]int, isRoot map[int]bool) {
	for i, c := range p.nodes {
		c.final = i
	}
	taken := map[int]bool{}
	for _, i := range p.sched {
		c := p.nodes[i]
		if c.fused != nil {
			continue
		}
		for k, a := range c.args {
			an := p.nodes[a]
			if taken[i] || an.Op == OpInput || an.konst != nil || isRoot[a] || len(users[a]) != 1 ||
				an.DType != c.DType || !slices.Equal(an.Shape, c.Shape) || !inPlace(c, k) {
				continue
			}
			an.into, taken[i] = i, true
		}
	}
	for _, i := range slices.Backward(p.sched) {
		c := p.nodes[i]
		if c.into >= 0 {
			c.final = p.nodes[c.into].final
		}
	}
}

// inPlace reports whether c reads operand k at the positions it writes
// (so that it may write over it).
func inPlace(c *cnode, k int) bool {
	switch c.Op {
	case OpUnary, OpCast:
		return true
	case OpBinary, OpWhere:
		return slices.Equal(c.Args[k].Shape, c.Shape)
	}
	return false
}

// takeSlot returns the free slot fitting bytes best (growing the largest
// when none fits), or a new one.
func (p *Program) takeSlot(free *[]int, bytes int) int {
	best := -1
	for j, s := range *free {
		sz := p.slotBytes[s]
		if best < 0 || (sz >= bytes) && (p.slotBytes[(*free)[best]] < bytes || sz < p.slotBytes[(*free)[best]]) ||
			sz < bytes && p.slotBytes[(*free)[best]] < bytes && sz > p.slotBytes[(*free)[best]] {
			best = j
		}
	}
	if best < 0 {
		p.slotBytes = append(p.slotBytes, bytes)
		return len(p.slotBytes) - 1
	}
	s := (*free)[best]
	*free = slices.Delete(*free, best, best+1)
	p.slotBytes[s] = max(p.slotBytes[s], bytes)
	return s
}
