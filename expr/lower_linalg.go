package expr

import (
	"slices"
	"strings"

	"github.com/fstensor/fstensor/expr/internal/engine"
	"github.com/fstensor/fstensor/metadata"
)

// nodes lowers g's operands to nodes, the Python scalars too.
func (l *lowerer) nodes(g *gnode) ([]*engine.Node, error) {
	ns := make([]*engine.Node, len(g.args))
	for i, a := range g.args {
		v, err := l.lower(a)
		if err != nil {
			return nil, err
		}
		ns[i] = l.materialize(v)
	}
	return ns, nil
}

// promoteAll casts ns to their promoted type.
func promoteAll(ns []*engine.Node) engine.DType {
	t := ns[0].DType
	for _, n := range ns[1:] {
		t = promoteTypes(t, n.DType)
	}
	for i, n := range ns {
		ns[i] = castTo(n, t)
	}
	return t
}

const matmulSig = "(n?,k),(k,m?)->(n?,m?)"

// matmul lowers a @ b by NumPy's rules: a 1-D a is a row vector and a
// 1-D b a column vector, whose added axes the result drops; the batch
// axes broadcast (as views); the element types promote (bool computes
// in int64 and gives whether the sum is non-zero).
func (l *lowerer) matmul(g *gnode) (*engine.Node, error) {
	ns, err := l.nodes(g)
	if err != nil {
		return nil, err
	}
	for i, n := range ns {
		if len(n.Shape) == 0 {
			return nil, l.errorf(g, "matmul: Input operand %d does not have enough dimensions (has 0, gufunc core with signature %s requires 1)", i, matmulSig)
		}
	}
	t := promoteAll(ns)
	if t == engine.Bool {
		ns[0], ns[1] = castTo(ns[0], engine.Int64), castTo(ns[1], engine.Int64)
	}
	a, b := ns[0], ns[1]
	vecA, vecB := len(a.Shape) == 1, len(b.Shape) == 1
	if vecA {
		a = reshape(a, []int{1, a.Shape[0]})
	}
	if vecB {
		b = reshape(b, []int{b.Shape[0], 1})
	}
	na, nb := len(a.Shape), len(b.Shape)
	m, k, k2, n := a.Shape[na-2], a.Shape[na-1], b.Shape[nb-2], b.Shape[nb-1]
	if k != k2 {
		return nil, l.errorf(g, "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature %s (size %d is different from %d)", matmulSig, k2, k)
	}
	batch, ok := broadcast(a.Shape[:na-2], b.Shape[:nb-2])
	if !ok {
		remap := func(s []int) string {
			f := metadata.FormatShape(s)
			r := strings.TrimSuffix(metadata.FormatShape(s[:len(s)-2]), ")")
			return f + "->" + strings.TrimSuffix(r, ",") + ",newaxis,newaxis)"
		}
		return nil, l.errorf(g, "operands could not be broadcast together with remapped shapes [original->remapped]: %s %s  and requested shape (%d,%d)", remap(ns[0].Shape), remap(ns[1].Shape), m, n)
	}
	a = broadcastTo(a, append(slices.Clone(batch), m, k))
	b = broadcastTo(b, append(slices.Clone(batch), k, n))
	r := &engine.Node{Op: engine.OpMatMul, Args: []*engine.Node{a, b}, DType: a.DType, Shape: append(slices.Clone(batch), m, n)}
	shape := slices.Clone(batch)
	if !vecA {
		shape = append(shape, m)
	}
	if !vecB {
		shape = append(shape, n)
	}
	r = reshape(r, shape)
	if t == engine.Bool {
		r = castTo(r, engine.Bool)
	}
	return r, nil
}

// normAxis returns axis of nd axes made non-negative, or NumPy's error.
func (l *lowerer) normAxis(g *gnode, axis, nd int) (int, error) {
	if axis < -nd || axis >= nd {
		return 0, l.errorf(g, "axis %d is out of bounds for array of dimension %d", axis, nd)
	}
	if axis < 0 {
		axis += nd
	}
	return axis, nil
}

// join lowers concatenate and stack (stack: each operand under a new
// axis, then concatenate).
func (l *lowerer) join(g *gnode) (*engine.Node, error) {
	what := "concatenate"
	if g.op == gStack {
		what = "stack"
	}
	if len(g.args) == 0 {
		return nil, l.errorf(g, "need at least one array to %s", what)
	}
	ns, err := l.nodes(g)
	if err != nil {
		return nil, err
	}
	axis := g.axis
	if g.op == gStack {
		for _, n := range ns[1:] {
			if !slices.Equal(n.Shape, ns[0].Shape) {
				return nil, l.errorf(g, "all input arrays must have the same shape")
			}
		}
		if axis, err = l.normAxis(g, axis, len(ns[0].Shape)+1); err != nil {
			return nil, err
		}
		for i, n := range ns {
			ns[i] = reshape(n, slices.Insert(slices.Clone(n.Shape), axis, 1))
		}
	}
	nd := len(ns[0].Shape)
	if nd == 0 {
		return nil, l.errorf(g, "zero-dimensional arrays cannot be concatenated")
	}
	if axis, err = l.normAxis(g, axis, nd); err != nil {
		return nil, err
	}
	shape := slices.Clone(ns[0].Shape)
	for i, n := range ns[1:] {
		if len(n.Shape) != nd {
			return nil, l.errorf(g, "all the input arrays must have same number of dimensions, but the array at index 0 has %d dimension(s) and the array at index %d has %d dimension(s)", nd, i+1, len(n.Shape))
		}
		for d := range nd {
			if d != axis && n.Shape[d] != shape[d] {
				return nil, l.errorf(g, "all the input array dimensions except for the concatenation axis must match exactly, but along dimension %d, the array at index 0 has size %d and the array at index %d has size %d", d, shape[d], i+1, n.Shape[d])
			}
		}
		shape[axis] += n.Shape[axis]
	}
	if len(ns) == 1 {
		return ns[0], nil
	}
	t := promoteAll(ns)
	return &engine.Node{Op: engine.OpConcat, Args: ns, DType: t, Shape: shape, Axis: axis}, nil
}

// einsum lowers numpy.einsum of two operands: each operand as a view
// with one axis per subscript of the whole expression (a repeated
// subscript of one operand reads its diagonal, a missing one is a size-1
// axis), their product, the sum over the subscripts not in the output,
// in the output's order.
func (l *lowerer) einsum(g *gnode) (*engine.Node, error) {
	ns, err := l.nodes(g)
	if err != nil {
		return nil, err
	}
	ins, out, err := l.einsumSpec(g, ns)
	if err != nil {
		return nil, err
	}
	if m := einsumMatMul(ns, ins, out); m != nil {
		return m, nil
	}
	size := map[byte]int{}
	for i, n := range ns {
		if len(ins[i]) < len(n.Shape) {
			return nil, l.errorf(g, "operand has more dimensions than subscripts given in einstein sum, but no '...' ellipsis provided to broadcast the extra dimensions.")
		}
		if len(ins[i]) > len(n.Shape) {
			return nil, l.errorf(g, "einstein sum subscripts string contains too many subscripts for operand %d", i)
		}
		for j, c := range []byte(ins[i]) {
			if s, ok := size[c]; ok && s != n.Shape[j] && s != 1 && n.Shape[j] != 1 {
				return nil, l.errorf(g, "%s", einsumBroadcastMsg(ins, out, ns))
			}
			if s, ok := size[c]; !ok || s == 1 {
				size[c] = n.Shape[j]
			}
		}
	}
	labels := out
	for _, s := range ins {
		for _, c := range []byte(s) {
			if !strings.ContainsRune(labels, rune(c)) {
				labels += string(c)
			}
		}
	}
	t := promoteAll(ns)
	work := t
	if t == engine.Bool {
		work = engine.Int64
	}
	var prod *engine.Node
	for i, n := range ns {
		v := einsumView(castTo(n, work), ins[i], labels)
		if prod == nil {
			prod = v
			continue
		}
		shape, _ := broadcast(prod.Shape, v.Shape)
		prod = &engine.Node{Op: engine.OpBinary, Fn: engine.Mul, Args: []*engine.Node{prod, v}, DType: work, Shape: shape}
	}
	full := make([]int, len(labels))
	for i := range labels {
		full[i] = size[labels[i]]
	}
	prod = broadcastTo(prod, full)
	if len(labels) > len(out) {
		axes := make([]int, 0, len(labels)-len(out))
		for i := len(out); i < len(labels); i++ {
			axes = append(axes, i)
		}
		st := work
		if !isFloat(st) {
			st = etype(sumType(dtOf(st)))
		}
		prod = &engine.Node{Op: engine.OpReduce, Fn: engine.Sum, Args: []*engine.Node{prod}, DType: st, Shape: slices.Clone(full[:len(out)]), Axes: axes}
	}
	return castTo(prod, t), nil
}

// einsumView returns n, whose axes carry the subscripts in, as a view
// with one axis per subscript of labels.
func einsumView(n *engine.Node, in, labels string) *engine.Node {
	base, off, st := viewOf(n)
	shape := make([]int, len(labels))
	strides := make([]int, len(labels))
	for i := range labels {
		shape[i] = 1
		for j := range len(in) {
			if in[j] == labels[i] {
				shape[i] = n.Shape[j]
				strides[i] += st[j]
			}
		}
	}
	return newView(base, off, shape, strides)
}

// einsumSpec parses einsum's subscripts for the operands ns: the
// subscripts of each operand and of the output, an ellipsis replaced by
// letters the subscripts do not use (einsumEllipsis).
func (l *lowerer) einsumSpec(g *gnode, ns []*engine.Node) ([]string, string, error) {
	spec := strings.ReplaceAll(g.name, " ", "")
	lhs, out, explicit := strings.Cut(spec, "->")
	ins := strings.Split(lhs, ",")
	switch {
	case len(ins) > len(ns):
		return nil, "", l.errorf(g, "more operands provided to einstein sum function than specified in the subscripts string")
	case len(ins) < len(ns):
		return nil, "", l.errorf(g, "fewer operands provided to einstein sum function than specified in the subscripts string")
	}
	if strings.Contains(spec, ".") {
		var err error
		if ins, out, err = l.einsumEllipsis(g, ins, out, explicit, ns); err != nil {
			return nil, "", err
		}
		explicit = true
	}
	count := map[byte]int{}
	for _, c := range []byte(strings.Join(ins, ",") + out) {
		if c != ',' && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') {
			return nil, "", l.errorf(g, "invalid subscript '%c' in einstein sum subscripts string, subscripts must be letters", c)
		}
	}
	for _, s := range ins {
		for _, c := range []byte(s) {
			count[c]++
		}
	}
	if !explicit {
		var once []byte
		for c, k := range count {
			if k == 1 {
				once = append(once, c)
			}
		}
		slices.Sort(once)
		return ins, string(once), nil
	}
	for i, c := range []byte(out) {
		if count[c] == 0 {
			return nil, "", l.errorf(g, "einstein sum subscripts string included output subscript '%c' which never appeared in an input", c)
		}
		if strings.IndexByte(out[:i], c) >= 0 {
			return nil, "", l.errorf(g, "einstein sum subscripts string includes output subscript '%c' multiple times", c)
		}
	}
	return ins, out, nil
}

// einsumEllipsis replaces the ellipsis ("...") of each operand's
// subscripts ins by letters that spec does not use, one per axis it
// stands for, and the output's (out, or with implicit output NumPy's:
// the broadcast axes, then the subscripts used once, in order) by the
// letters of the broadcast axes: those of all operands' ellipses,
// right-aligned, as NumPy broadcasts them.
func (l *lowerer) einsumEllipsis(g *gnode, ins []string, out string, explicit bool, ns []*engine.Node) ([]string, string, error) {
	const ell = "..."
	valid := func(term string) bool {
		k := strings.Index(term, ell)
		return strings.Count(term, ".") == 0 || (k >= 0 && strings.Count(term, ".") == 3)
	}
	nb := 0 // axes of the broadcast shape
	counts := make([]int, len(ins))
	for i, term := range ins {
		if !valid(term) {
			return nil, "", l.errorf(g, "einstein sum subscripts string contains a '.' that is not part of an ellipsis ('...') in operand %d", i)
		}
		if strings.Contains(term, ell) {
			counts[i] = len(ns[i].Shape) - (len(term) - len(ell))
			if counts[i] < 0 {
				return nil, "", l.errorf(g, "einstein sum subscripts string contains too many subscripts for operand %d", i)
			}
			nb = max(nb, counts[i])
		}
	}
	if explicit && !valid(out) {
		return nil, "", l.errorf(g, "einstein sum subscripts string contains a '.' that is not part of an ellipsis ('...') in the output")
	}
	var free []byte
	for _, c := range []byte("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") {
		if len(free) < nb && !strings.ContainsRune(g.name, rune(c)) {
			free = append(free, c)
		}
	}
	if len(free) < nb {
		return nil, "", l.errorf(g, "einsum: too many subscripts in einsum")
	}
	broad := string(free)
	out2 := make([]string, len(ins))
	for i, term := range ins {
		out2[i] = strings.Replace(term, ell, broad[nb-counts[i]:], 1)
	}
	switch {
	case explicit && strings.Contains(out, ell):
		out = strings.Replace(out, ell, broad, 1)
	case explicit && nb > 0:
		return nil, "", l.errorf(g, "output has more dimensions than subscripts given in einstein sum, but no '...' ellipsis provided to broadcast the extra dimensions.")
	case !explicit:
		count := map[byte]int{}
		for _, term := range out2 {
			for _, c := range []byte(term) {
				count[c]++
			}
		}
		var once []byte
		for c, k := range count {
			if k == 1 && !strings.ContainsRune(broad, rune(c)) {
				once = append(once, c)
			}
		}
		slices.Sort(once)
		out = broad + string(once)
	}
	return out2, out, nil
}

// einsumMatMul lowers einsum to one MatMul when it is a (batched) matrix
// product: every subscript is a batch one (both operands and the
// output), a row or column one (one operand and the output) or a
// contracted one (both operands, not the output), none repeated in an
// operand, shared sizes equal, numeric operands. It returns nil
// otherwise.
func einsumMatMul(ns []*engine.Node, ins []string, out string) *engine.Node {
	a, b := ns[0], ns[1]
	if len(ins[0]) != len(a.Shape) || len(ins[1]) != len(b.Shape) || promoteTypes(a.DType, b.DType) == engine.Bool {
		return nil
	}
	var batch, rows, cols, inner []byte
	size := map[byte]int{}
	for k, s := range ins {
		for j, c := range []byte(s) {
			if strings.IndexByte(s[:j], c) >= 0 {
				return nil
			}
			if d, ok := size[c]; ok && d != ns[k].Shape[j] {
				return nil
			}
			size[c] = ns[k].Shape[j]
		}
	}
	for _, c := range []byte(ins[0] + ins[1]) {
		inA, inB, inOut := strings.IndexByte(ins[0], c) >= 0, strings.IndexByte(ins[1], c) >= 0, strings.IndexByte(out, c) >= 0
		switch {
		case slices.Contains(batch, c) || slices.Contains(rows, c) || slices.Contains(cols, c) || slices.Contains(inner, c):
		case inA && inB && inOut:
			batch = append(batch, c)
		case inA && inB:
			inner = append(inner, c)
		case inOut && inA:
			rows = append(rows, c)
		case inOut:
			cols = append(cols, c)
		default:
			return nil // summed in one operand only
		}
	}
	prod := func(ls []byte) int {
		p := 1
		for _, c := range ls {
			p *= size[c]
		}
		return p
	}
	dims := func(ls []byte) []int {
		d := make([]int, len(ls))
		for i, c := range ls {
			d[i] = size[c]
		}
		return d
	}
	t := promoteAll(ns)
	a, b = ns[0], ns[1]
	bd := dims(batch)
	a = reshape(permute(a, ins[0], concat(batch, rows, inner)), append(slices.Clone(bd), prod(rows), prod(inner)))
	b = reshape(permute(b, ins[1], concat(batch, inner, cols)), append(slices.Clone(bd), prod(inner), prod(cols)))
	m := &engine.Node{Op: engine.OpMatMul, Args: []*engine.Node{a, b}, DType: t, Shape: append(slices.Clone(bd), prod(rows), prod(cols))}
	have := concat(batch, rows, cols)
	m = reshape(m, dims(have))
	return permute(m, string(have), []byte(out))
}

func concat(ls ...[]byte) []byte {
	var out []byte
	for _, l := range ls {
		out = append(out, l...)
	}
	return out
}

// permute returns n, whose axes carry the subscripts have, with its axes
// in the order of want (a view).
func permute(n *engine.Node, have string, want []byte) *engine.Node {
	if have == string(want) {
		return n
	}
	base, off, st := viewOf(n)
	shape := make([]int, len(want))
	strides := make([]int, len(want))
	for i, c := range want {
		j := strings.IndexByte(have, c)
		shape[i], strides[i] = n.Shape[j], st[j]
	}
	return newView(base, off, shape, strides)
}
