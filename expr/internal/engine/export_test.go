package engine

// Computed returns the nodes of p that read an input, after merging
// common sub-expressions and folding constants.
func Computed(p *Program) int {
	n := 0
	for _, c := range p.nodes {
		if c.konst == nil {
			n++
		}
	}
	return n
}

// Scheduled returns the nodes p evaluates per block, after fusing chains.
func Scheduled(p *Program) int { return len(p.sched) }

// BlockRows returns the rows of one block.
func BlockRows(p *Program) int { return p.blockRows }
