package expr

// VarPrograms returns the number of engine programs a graph program over
// variable-shape columns keeps (one per combination of row shapes), -1
// for another program.
func (p *Program) VarPrograms() int {
	if p.vgraph == nil {
		return -1
	}
	return p.vgraph.cache.len()
}
