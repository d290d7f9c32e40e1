package expr

import (
	"math"

	"github.com/fstensor/fstensor/search"
)

// The parser of the text: the whole language of the package doc, with
// Python's precedence, read into a graph. Every identifier that is not a
// call names a column (x the input column); the names are bound to a
// schema when the graph is compiled (lower.go). A graph that is one
// chain over one column becomes the chain the constructors build
// (gchain.go), which a Plan evaluates; the arguments of methods and
// calls are read by parseargs.go, constants by parseconst.go.

// parseGraph parses text into a graph expression.
func parseGraph(text string) (*gnode, error) {
	if len(text) > MaxText {
		return nil, newError(text[:80], MaxText, "text exceeds the limit of MaxText bytes")
	}
	p := &parser{text: text}
	g, err := p.gexpr()
	if err != nil {
		return nil, err
	}
	if c := p.peek(); c != 0 {
		return nil, p.errorf("unexpected %q", c)
	}
	if g.op == gConst {
		p.pos = 0
		p.space()
		return nil, p.errorf("expected an expression of a column; the text is a constant")
	}
	return g, nil
}

// gop2 makes the binary node of op at position at.
func (p *parser) gbinary(a *gnode, op BinaryOp, b *gnode, at int) (*gnode, error) {
	if a.op == gConst && b.op == gConst {
		k, ok, msg := foldScalars(a.c, op, b.c)
		if !ok || msg != "" {
			p.pos = at
			if !ok {
				return nil, p.unsupportedf("operations between constants are not supported")
			}
			return nil, p.errorf("%s", msg)
		}
		return &gnode{op: gConst, c: k, pos: a.pos}, nil
	}
	return p.gcount(&gnode{op: gBinary, bop: op, args: []*gnode{a, b}, pos: at})
}

// gcount counts an operation against MaxOps.
func (p *parser) gcount(g *gnode) (*gnode, error) {
	p.ops++
	if p.ops > MaxOps {
		return nil, newError(p.text, g.pos, "more than 1024 operations")
	}
	return g, nil
}

// gexpr parses a comparison, the lowest level.
func (p *parser) gexpr() (*gnode, error) {
	a, err := p.glevel(precOr)
	if err != nil {
		return nil, err
	}
	for n := 0; ; n++ {
		at := p.pos
		op, ok := p.compareOp()
		if !ok {
			return a, nil
		}
		if n > 0 {
			p.pos = at
			return nil, p.unsupportedf("chained comparisons are not supported (their truth value is ambiguous for arrays)")
		}
		b, err := p.glevel(precOr)
		if err != nil {
			return nil, err
		}
		if a, err = p.gbinary(a, op, b, at); err != nil {
			return nil, err
		}
	}
}

func (p *parser) compareOp() (BinaryOp, bool) {
	for _, c := range [...]struct {
		s  string
		op BinaryOp
	}{{"<=", Le}, {">=", Ge}, {"==", Eq}, {"!=", Ne}, {"<", Lt}, {">", Gt}} {
		if p.accept(c.s) {
			return c.op, true
		}
	}
	return 0, false
}

// infixOp reads the operator of level lv next, if any: it does not
// consume `**` for `*`, `//` for `/`, `==` and such.
func (p *parser) infixOp(lv int) (BinaryOp, bool, bool) {
	c := p.peek()
	var next byte
	if p.pos+1 < len(p.text) {
		next = p.text[p.pos+1]
	}
	switch lv {
	case precOr:
		if c == '|' {
			p.pos++
			return Or, false, true
		}
	case precXor:
		if c == '^' {
			p.pos++
			return Xor, false, true
		}
	case precAnd:
		if c == '&' {
			p.pos++
			return And, false, true
		}
	case precSum:
		if c == '+' || c == '-' {
			p.pos++
			if c == '+' {
				return Add, false, true
			}
			return Sub, false, true
		}
	case precProduct:
		switch {
		case c == '*' && next != '*':
			p.pos++
			return Mul, false, true
		case c == '/' && next == '/':
			p.pos += 2
			return FloorDiv, false, true
		case c == '/':
			p.pos++
			return Div, false, true
		case c == '%':
			p.pos++
			return Mod, false, true
		case c == '@':
			p.pos++
			return 0, true, true
		}
	}
	return 0, false, false
}

// glevel parses the left-associative binary operators of level lv and
// above.
func (p *parser) glevel(lv int) (*gnode, error) {
	if lv > precProduct {
		return p.gunary()
	}
	a, err := p.glevel(lv + 1)
	if err != nil {
		return nil, err
	}
	for {
		p.space()
		at := p.pos
		op, matmul, ok := p.infixOp(lv)
		if !ok {
			return a, nil
		}
		b, err := p.glevel(lv + 1)
		if err != nil {
			return nil, err
		}
		if matmul {
			a, err = p.gcount(&gnode{op: gMatMul, args: []*gnode{a, b}, pos: at})
		} else {
			a, err = p.gbinary(a, op, b, at)
		}
		if err != nil {
			return nil, err
		}
	}
}

// gunary parses `-a`, `+a`, `~a` or a power.
func (p *parser) gunary() (*gnode, error) {
	c := p.peek()
	if c != '-' && c != '+' && c != '~' {
		return p.gpower()
	}
	at := p.pos
	p.pos++
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	a, err := p.gunary()
	if err != nil {
		return nil, err
	}
	switch {
	case c == '+':
		return a, nil
	case a.op == gConst && a.c.scalar() && c == '-':
		k := a.c
		if k.weak == weakInt {
			k.i = []int64{-k.i[0]}
		} else {
			k.f = []float64{-k.f[0]}
		}
		return &gnode{op: gConst, c: k, pos: at}, nil
	}
	f := Negative
	if c == '~' {
		f = Invert
	}
	return p.gcount(&gnode{op: gUnary, fn: f, args: []*gnode{a}, pos: at})
}

// gpower parses `a ** b`, right associative, b a unary expression.
func (p *parser) gpower() (*gnode, error) {
	a, err := p.gpostfix()
	if err != nil {
		return nil, err
	}
	p.space()
	at := p.pos
	if !p.accept("**") {
		return a, nil
	}
	b, err := p.gunary()
	if err != nil {
		return nil, err
	}
	return p.gbinary(a, Pow, b, at)
}

// gpostfix parses a primary and its indexes and methods.
func (p *parser) gpostfix() (*gnode, error) {
	g, err := p.gprimary()
	if err != nil {
		return nil, err
	}
	for {
		c := p.peek()
		if c != '[' && c != '.' {
			return g, nil
		}
		if g.op == gConst {
			return nil, p.errorf("constants take no indexes or methods")
		}
		p.pos++
		n := &gnode{args: []*gnode{g}}
		if c == '[' {
			items, err := p.items()
			if err != nil {
				return nil, err
			}
			n.op, n.items = gIndex, items
		} else if err := p.gmethod(n); err != nil {
			return nil, err
		}
		n.pos = p.pos
		if g, err = p.gcount(n); err != nil {
			return nil, err
		}
	}
}

// gmethod parses the method after a '.' into n.
func (p *parser) gmethod(n *gnode) error {
	at := p.pos
	var err error
	switch w := p.word(); w {
	case "T":
		n.op = gTranspose
	case "transpose":
		n.op = gTranspose
		n.ints, err = p.args()
	case "reshape":
		n.op = gReshape
		if n.ints, err = p.args(); err == nil && n.ints == nil {
			p.pos = at
			return p.errorf("reshape needs a shape (use reshape(()) for 0-D)")
		}
	case "astype":
		n.op = gAstype
		if err := p.expect("("); err != nil {
			return err
		}
		if n.keep = p.boolType(); !n.keep {
			if n.dt, err = p.dtypeArg(); err != nil {
				return err
			}
		}
		p.accept(",")
		err = p.expect(")")
	case "clip":
		n.op = gClip
		err = p.gclip(n)
	default:
		r, ok := reductionNamed(w)
		if !ok || r == Norm {
			p.pos = at
			return p.errorf("unknown operation %q (want T, transpose, reshape, astype, clip, sum, mean, min, max, argmax, argmin, var, std, any or all)", w)
		}
		if err := p.expect("("); err != nil {
			return err
		}
		n.op, n.red = gReduce, r
		n.axes, n.keep, n.ddof, err = p.reduceKeywords(r, true)
	}
	return err
}

func (p *parser) gclip(n *gnode) error {
	if err := p.expect("("); err != nil {
		return err
	}
	lo, err := p.bound()
	if err != nil {
		return err
	}
	if err := p.expect(","); err != nil {
		return err
	}
	hi, err := p.bound()
	if err != nil {
		return err
	}
	p.accept(",")
	if lo != nil {
		n.c, n.hasLo = *lo, true
	}
	if hi != nil {
		n.c2, n.hasHi = *hi, true
	}
	return p.expect(")")
}

// gprimary parses a parenthesized expression, a constant, a column or
// a call.
func (p *parser) gprimary() (*gnode, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	c := p.peek()
	at := p.pos
	switch {
	case c == '(':
		p.pos++
		g, err := p.gexpr()
		if err != nil {
			return nil, err
		}
		return g, p.expect(")")
	case c == '[':
		cst, err := p.list()
		return &gnode{op: gConst, c: cst, pos: at}, err
	case c >= '0' && c <= '9' || c == '.':
		cst, err := p.number()
		return &gnode{op: gConst, c: cst, pos: at}, err
	}
	w := p.word()
	if w == "np" && p.accept(".") {
		w = p.word()
		if w == "linalg" && p.accept(".") {
			w = p.word()
		}
	}
	if p.peek() != '(' {
		switch w {
		case "":
			return nil, p.errorf("expected an expression")
		case "x":
			return &gnode{op: gX, pos: at}, nil
		case "inf":
			return &gnode{op: gConst, c: Float(math.Inf(1)), pos: at}, nil
		case "nan":
			return &gnode{op: gConst, c: Float(math.NaN()), pos: at}, nil
		case "None", "True", "False", "np":
			p.pos = at
			return nil, p.errorf("unexpected %q", w)
		}
		return &gnode{op: gCol, name: w, pos: at}, nil
	}
	p.pos++
	if d := dtypeNamed(w); d != dtNone {
		c, err := p.typedConst(d)
		return &gnode{op: gConst, c: c, pos: at}, err
	}
	g, err := p.gcall(w, at)
	if err != nil {
		return nil, err
	}
	g.pos = p.pos
	return p.gcount(g)
}

// gcall parses the arguments of the function w after its `(`.
func (p *parser) gcall(w string, at int) (*gnode, error) {
	switch w {
	case "col", "load":
		s, err := p.quoted()
		if err != nil {
			return nil, err
		}
		op := gCol
		if w == "load" {
			op = gLoad
		}
		return &gnode{op: op, name: s}, p.expect(")")
	case "concatenate", "stack":
		return p.gjoin(w)
	case "einsum":
		s, err := p.quoted()
		if err != nil {
			return nil, err
		}
		if err := p.expect(","); err != nil {
			return nil, err
		}
		args, err := p.gargs(2)
		return &gnode{op: gEinsum, name: s, args: args}, err
	case "where":
		return p.gwhere()
	case "minimum", "maximum", "matmul":
		args, err := p.gargs(2)
		g := &gnode{op: gBinary, bop: Minimum, args: args}
		switch w {
		case "maximum":
			g.bop = Maximum
		case "matmul":
			g.op = gMatMul
		}
		return g, err
	case "dot", "cosine", "l2", "l2sq", "sqeuclidean":
		args, err := p.gargs(2)
		m, _ := search.ParseMetric(w) // w is one of the names above
		return &gnode{op: gSim, metric: m, args: args}, err
	}
	if f, ok := funcNamed(w); ok {
		args, err := p.gargs(1)
		return &gnode{op: gUnary, fn: f, args: args}, err
	}
	r, ok := reductionNamed(w)
	if !ok {
		p.pos = at
		return nil, p.errorf("unknown function %q", w)
	}
	a, err := p.gexpr()
	if err != nil {
		return nil, err
	}
	if a.op == gConst {
		// As the method form: constants take no reductions.
		p.pos = a.pos
		return nil, p.errorf("%s takes a tensor first, not a constant", w)
	}
	g := &gnode{op: gReduce, red: r, args: []*gnode{a}}
	if !p.accept(")") {
		if err := p.expect(","); err != nil {
			return nil, err
		}
		if g.axes, g.keep, g.ddof, err = p.reduceKeywords(r, r != Norm); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// gargs parses n comma-separated expressions and the closing `)`.
func (p *parser) gargs(n int) ([]*gnode, error) {
	args := make([]*gnode, n)
	for i := range args {
		if i > 0 {
			if err := p.expect(","); err != nil {
				return nil, err
			}
		}
		g, err := p.gexpr()
		if err != nil {
			return nil, err
		}
		args[i] = g
	}
	p.accept(",")
	return args, p.expect(")")
}

// gwhere parses the arguments of where after its `(`: three, as NumPy's
// where(condition, x, y); two fail in NumPy's words, and one
// (numpy.nonzero's indices) is not supported.
func (p *parser) gwhere() (*gnode, error) {
	var args []*gnode
	for len(args) < 3 {
		if len(args) > 0 && (!p.accept(",") || p.peek() == ')') {
			break
		}
		a, err := p.gexpr()
		if err != nil {
			return nil, err
		}
		args = append(args, a)
	}
	p.accept(",")
	if err := p.expect(")"); err != nil {
		return nil, err
	}
	switch len(args) {
	case 1:
		return nil, p.unsupportedf("where with one argument (the indices of the nonzero elements) is not supported")
	case 2:
		return nil, p.errorf("either both or neither of x and y should be given")
	}
	return &gnode{op: gWhere, args: args}, nil
}

// gjoin parses the arguments of concatenate or stack: a tuple or list
// of expressions, then axis (positional or keyword, default 0).
func (p *parser) gjoin(w string) (*gnode, error) {
	g := &gnode{op: gConcat}
	if w == "stack" {
		g.op = gStack
	}
	c := p.peek()
	if c != '(' && c != '[' {
		return nil, p.errorf("%s takes a tuple of arrays: %s((a, b), axis=0)", w, w)
	}
	closing := ")"
	if c == '[' {
		closing = "]"
	}
	p.pos++
	for !p.accept(closing) {
		if len(g.args) > 0 {
			if err := p.expect(","); err != nil {
				return nil, err
			}
			if p.accept(closing) {
				break
			}
		}
		a, err := p.gexpr()
		if err != nil {
			return nil, err
		}
		g.args = append(g.args, a)
	}
	if p.accept(")") {
		return g, nil
	}
	if err := p.expect(","); err != nil {
		return nil, err
	}
	if p.accept(")") {
		return g, nil
	}
	at := p.pos
	if kw := p.word(); kw != "axis" || !p.accept("=") {
		p.pos = at
	}
	v, err := p.int()
	if err != nil {
		return nil, err
	}
	g.axis = v
	p.accept(",")
	return g, p.expect(")")
}

// boolType consumes the type name bool (also np.bool, np.bool_, 'bool')
// if it is next.
func (p *parser) boolType() bool {
	p.space()
	at := p.pos
	q := p.peek()
	if q == '\'' || q == '"' {
		p.pos++
	}
	w := p.word()
	if w == "np" && p.accept(".") {
		w = p.word()
	}
	if (w == "bool" || w == "bool_") && (q != '\'' && q != '"' || p.accept(string(q))) {
		return true
	}
	p.pos = at
	return false
}
