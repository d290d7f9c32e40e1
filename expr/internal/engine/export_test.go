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

// PackBits and UnpackBits convert bool bytes to bits and back (bits.go);
// PackBits writes the shared bytes' bits with setBit.
func PackBits(dst []byte, at int, src []byte) {
	packBits(dst, at, src, func(i int, v bool) { setBit(dst, i, v) })
}

func UnpackBits(d, src []byte, at int) { unpackBits(d, src, at) }
