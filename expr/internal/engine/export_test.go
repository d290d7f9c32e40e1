package engine

// Scheduled returns the nodes p evaluates per block: common
// sub-expressions merged and constants folded.
func Scheduled(p *Program) int { return len(p.sched) }

// BlockRows returns the rows of one block.
func BlockRows(p *Program) int { return p.blockRows }
