package expr

import (
	"slices"

	"github.com/fstensor/fstensor/internal/reuse"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/varshape"
)

// The simplifier, slice arithmetic and stages of a plan are checked by
// the external tests (against NumPy and ndindex) but are not API.
var (
	Simplify    = simplifyExpr
	ReduceSlice = reduceSlice
	Indices     = indices
)

// Stage is one copy of a Plan.
type Stage = stage

// Stages returns a copy of the plan's copies, first to last.
func (p *Plan) Stages() []Stage {
	out := make([]Stage, len(p.stages))
	for i, s := range p.stages {
		out[i] = Stage{Shape: slices.Clone(s.Shape), Strides: slices.Clone(s.Strides), Offset: s.Offset}
	}
	return out
}

// Plans returns the number of distinct row shapes compiled so far.
func (p *varPlan) Plans() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.plans)
}

// VarPlan is the per-row-shape plan behind a Program over a
// variable-shape column, checked directly by the tests of its kernels
// and its result type.
type VarPlan = varPlan

// ParseVar returns the plan of text over columns of typ.
func ParseVar(text string, typ *varshape.Type) *VarPlan {
	return newVarPlan(typ, func(x Expr) (Expr, error) { return Parse(text, x) })
}

// CompileVar returns the plan of e over columns of typ.
var CompileVar = compileVar

// PoisonRecycled fills a buffer of reuse.Buffers of the class of size
// bytes with b and frees it, so that the next result of that class may
// get it.
func PoisonRecycled(size int, b byte) { testvec.FillFreed(reuse.Buffers, b, size) }
