package expr

// ProgramExpr returns the expression of a program over a fixed-shape or
// plain column, and nil for a variable-shape one.
func ProgramExpr(p *Program) Expr {
	if p.plan == nil {
		return nil
	}
	return p.plan.Expr()
}
