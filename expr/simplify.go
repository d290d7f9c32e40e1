package expr

import (
	"slices"

	"github.com/fstensor/fstensor/stride"
)

// simplifyExpr returns an expression equivalent to e in canonical form:
// consecutive indexes merged into one, consecutive transposes composed and
// consecutive reshapes collapsed into one with explicit sizes, and identity
// operations dropped (x[...], x[:, :], a transpose that moves nothing, a
// reshape to the same shape). Each index is reduced as ndindex's
// Tuple.reduce(shape) does: slices in their canonical form (reduceSlice),
// negative integers resolved, trailing full slices and ellipses removed.
// Computing operations are kept as they are, over their simplified
// operand. An expression that fails Check is returned unchanged.
func simplifyExpr(e Expr) Expr {
	if Check(e) != nil {
		return e
	}
	return simplify(e.node())
}

func simplify(n *node) Expr {
	if n.x == nil {
		return n
	}
	s := simplify(n.x).node()
	if n.op > opReshape {
		return recompute(n, s)
	}
	switch n.op {
	case opIndex:
		base, items := s, n.items
		if s.op == opIndex {
			if merged, ok := compose(s, n.items); ok {
				base, items = s.x, merged
			}
		}
		items = reduceItems(items, base.meta.Shape())
		if items == nil {
			return base
		}
		return Subscript(base, items...)
	case opTranspose:
		perm, _ := resolvePerm(n.ints, s.meta.NDim())
		base := s
		if s.op == opTranspose {
			first, _ := resolvePerm(s.ints, s.x.meta.NDim())
			perm = stride.Compose(nil, first, perm)
			base = s.x
		}
		if stride.IsIdentity(perm) {
			return base
		}
		if base == s {
			return Transpose(s, n.ints...)
		}
		return Transpose(base, perm...)
	default:
		base := s
		if s.op == opReshape {
			base = s.x
		}
		shape := n.meta.Shape()
		if slices.Equal(base.meta.Shape(), shape) {
			return base
		}
		return Reshape(base, shape...)
	}
}

// reduceItems returns the canonical form of the valid index items over
// shape, nil when the index selects everything.
func reduceItems(items []Item, shape []int) []Item {
	sels, _ := resolve(items, shape)
	indexed := 0
	for _, it := range items {
		if it.kind == itemSlice || it.kind == itemInt {
			indexed++
		}
	}
	out := make([]Item, 0, len(items))
	axes := make([]int, 0, len(items)) // the source axis of each slice in out
	k := 0                             // sels consumed
	for _, it := range items {
		axis := -1
		switch it.kind {
		case itemEllipsis:
			k += len(shape) - indexed
		case itemNewAxis:
			k++
		case itemInt:
			it = At(sels[k].first)
			k++
		default:
			s := sels[k]
			it, axis = reduced(s.first, s.step, s.count, shape[s.axis]), s.axis
			k++
		}
		out = append(out, it)
		axes = append(axes, axis)
	}
	// Missing trailing items are full slices, so trailing full slices
	// select nothing more. Items after an ellipsis are aligned to the end,
	// so the ellipsis goes only together with everything after it.
	isFull := func(i int) bool { return out[i].kind == itemSlice && out[i] == Span(0, shape[axes[i]], Omit) }
	if e := slices.IndexFunc(out, func(it Item) bool { return it.kind == itemEllipsis }); e >= 0 {
		for i := e + 1; i < len(out); i++ {
			if !isFull(i) {
				return out
			}
		}
		out = out[:e]
	}
	for len(out) > 0 && isFull(len(out)-1) {
		out = out[:len(out)-1]
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// compose returns the items over inner's operand that select what items
// select from inner's result, and false when no basic index can (a new
// axis sliced to length 0).
func compose(inner *node, items []Item) ([]Item, bool) {
	src := inner.x.meta.Shape()
	sels1, _ := resolve(inner.items, src)
	sels2, _ := resolve(items, inner.meta.Shape())
	var out []Item
	k := 0 // next sel of sels2 to emit
	j := 0 // output axis of inner
	emitNew := func(upto int) {
		for ; k < len(sels2) && (upto < 0 || sels2[k].axis != upto); k++ {
			if sels2[k].axis < 0 {
				out = append(out, NewAxis())
			}
		}
	}
	for _, e1 := range sels1 {
		if e1.axis >= 0 && e1.count < 0 {
			out = append(out, At(e1.first))
			continue
		}
		emitNew(j)
		e2 := sels2[k]
		k++
		j++
		switch {
		case e1.axis < 0 && e2.count < 0: // an integer drops the new axis
		case e1.axis < 0 && e2.count == 1:
			out = append(out, NewAxis())
		case e1.axis < 0:
			return nil, false
		case e2.count < 0:
			out = append(out, At(e1.first+e2.first*e1.step))
		default:
			out = append(out, reduced(e1.first+e2.first*e1.step, e1.step*e2.step, e2.count, src[e1.axis]))
		}
	}
	emitNew(-1)
	if out == nil {
		out = []Item{}
	}
	return out, true
}
