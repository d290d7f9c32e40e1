package expr

import (
	"errors"
	"math"
	"strconv"

	"github.com/fstensor/fstensor/search"
)

// maxDepth bounds the nesting of parentheses, calls and lists.
const maxDepth = 200

// operand is a parsed value: the tensor expression (e) or a constant.
type operand struct {
	e   Expr
	c   Const
	pos int // where it starts
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > maxDepth {
		return p.errorf("expression nested more than %d deep", maxDepth)
	}
	return nil
}

// check reports e's Check error at position at.
func (p *parser) check(e Expr, at int) error {
	if err := Check(e); err != nil {
		msg := err.Error()
		var ee *Error
		if errors.As(err, &ee) {
			msg = ee.Msg
		}
		return newErrorOf(err, p.text, at, msg)
	}
	p.ops++
	if p.ops > MaxOps {
		return newError(p.text, at, "more than "+strconv.Itoa(MaxOps)+" operations")
	}
	return nil
}

// sum parses `a + b - c ...`.
func (p *parser) sum() (operand, error) {
	a, err := p.product()
	if err != nil {
		return a, err
	}
	for {
		c := p.peek()
		if c != '+' && c != '-' {
			return a, nil
		}
		at := p.pos
		p.pos++
		b, err := p.product()
		if err != nil {
			return b, err
		}
		op := Add
		if c == '-' {
			op = Sub
		}
		if a, err = p.binary(a, op, b, at); err != nil {
			return a, err
		}
	}
}

// product parses `a * b / c ...`.
func (p *parser) product() (operand, error) {
	a, err := p.unary()
	if err != nil {
		return a, err
	}
	for {
		c := p.peek()
		if c != '*' && c != '/' || p.pos+1 < len(p.text) && (p.text[p.pos+1] == '*' || p.text[p.pos+1] == '/') {
			if c == '*' || c == '/' {
				return a, p.unsupportedf("operator %q is not supported", p.text[p.pos:p.pos+2])
			}
			return a, nil
		}
		at := p.pos
		p.pos++
		b, err := p.unary()
		if err != nil {
			return b, err
		}
		op := Mul
		if c == '/' {
			op = Div
		}
		if a, err = p.binary(a, op, b, at); err != nil {
			return a, err
		}
	}
}

func (p *parser) binary(a operand, op BinaryOp, b operand, at int) (operand, error) {
	var e Expr
	switch {
	case a.e != nil && b.e != nil:
		p.pos = at
		return a, p.unsupportedf("operations between two tensors are not supported (x appears once)")
	case a.e == nil && b.e == nil:
		p.pos = at
		return a, p.unsupportedf("operations between constants are not supported")
	case a.e != nil:
		e = Arith(a.e, op, b.c)
	default:
		e = ArithLeft(a.c, op, b.e)
	}
	return operand{e: e, pos: a.pos}, p.check(e, at)
}

// unary parses a signed number or a postfix expression.
func (p *parser) unary() (operand, error) {
	if c := p.peek(); c == '-' || c == '+' {
		at := p.pos
		p.pos++
		o, err := p.unary()
		if err != nil {
			return o, err
		}
		if o.e != nil || !o.c.scalar() {
			p.pos = at
			return o, p.errorf("unary %q applies to numbers only", c)
		}
		if c == '-' {
			if o.c.weak == weakInt {
				o.c.i = []int64{-o.c.i[0]}
			} else {
				o.c.f = []float64{-o.c.f[0]}
			}
		}
		o.pos = at
		return o, nil
	}
	return p.postfix()
}

// postfix parses a primary and its indexes and methods.
func (p *parser) postfix() (operand, error) {
	o, err := p.primary()
	if err != nil {
		return o, err
	}
	for {
		c := p.peek()
		if c != '[' && c != '.' {
			return o, nil
		}
		if o.e == nil {
			return o, p.errorf("constants take no indexes or methods")
		}
		if p.ops >= MaxOps {
			return o, p.errorf("more than %d operations", MaxOps)
		}
		p.pos++
		if c == '[' {
			items, err := p.items()
			if err != nil {
				return o, err
			}
			o.e = Subscript(o.e, items...)
		} else if o.e, err = p.method(o.e); err != nil {
			return o, err
		}
		if err := p.check(o.e, p.pos); err != nil {
			return o, err
		}
	}
}

// method parses the method after a '.'.
func (p *parser) method(e Expr) (Expr, error) {
	at := p.pos
	switch w := p.word(); w {
	case "T":
		return Transpose(e), nil
	case "transpose":
		ints, err := p.args()
		if err != nil {
			return nil, err
		}
		return Transpose(e, ints...), nil
	case "reshape":
		ints, err := p.args()
		if err != nil {
			return nil, err
		}
		if ints == nil {
			p.pos = at
			return nil, p.errorf("reshape needs a shape (use reshape(()) for 0-D)")
		}
		return Reshape(e, ints...), nil
	case "astype":
		if err := p.expect("("); err != nil {
			return nil, err
		}
		d, err := p.dtypeArg()
		if err != nil {
			return nil, err
		}
		p.accept(",")
		if err := p.expect(")"); err != nil {
			return nil, err
		}
		return Astype(e, d.arrow()), nil
	case "clip":
		if err := p.expect("("); err != nil {
			return nil, err
		}
		lo, err := p.bound()
		if err != nil {
			return nil, err
		}
		if err := p.expect(","); err != nil {
			return nil, err
		}
		hi, err := p.bound()
		if err != nil {
			return nil, err
		}
		p.accept(",")
		if err := p.expect(")"); err != nil {
			return nil, err
		}
		return Clip(e, lo, hi), nil
	default:
		if r, ok := reductionNamed(w); ok && r != Norm {
			if err := p.expect("("); err != nil {
				return nil, err
			}
			return p.reduceArgs(e, r, true)
		}
		p.pos = at
		return nil, p.errorf("unknown operation %q (want T, transpose, reshape, astype, clip, sum, mean, min, max, argmax, argmin, var or std)", w)
	}
}

func reductionNamed(w string) (Reduction, bool) {
	for r, name := range reductionNames {
		if name == w {
			return Reduction(r), true
		}
	}
	switch w {
	case "amin":
		return Min, true
	case "amax":
		return Max, true
	}
	return 0, false
}

// reduceArgs parses the arguments of a reduction after `(` and, for a
// function, after its tensor and a comma: [axis] then keywords axis= and
// keepdims= (and ddof= for var and std), then `)`.
func (p *parser) reduceArgs(e Expr, r Reduction, positional bool) (Expr, error) {
	axes, keep, ddof, err := p.reduceKeywords(r, positional)
	if err != nil {
		return nil, err
	}
	return ReduceDdof(e, r, ddof, keep, axes...), nil
}

// reduceKeywords parses the arguments of reduceArgs.
func (p *parser) reduceKeywords(r Reduction, positional bool) (axes []int, keep bool, ddof int, err error) {
	for n := 0; !p.accept(")"); n++ {
		if n > 0 {
			if err := p.expect(","); err != nil {
				return nil, false, 0, err
			}
			if p.accept(")") {
				break
			}
		}
		at := p.pos
		kw := p.word()
		if kw != "" && !p.accept("=") {
			p.pos = at
			kw = ""
		}
		switch {
		case kw == "axis" || kw == "" && n == 0 && positional:
			if axes, err = p.axisArg(); err != nil {
				return nil, false, 0, err
			}
		case kw == "keepdims":
			if keep, err = p.boolArg(); err != nil {
				return nil, false, 0, err
			}
		case kw == "ddof" && (r == Var || r == Std):
			if ddof, err = p.ddofArg(); err != nil {
				return nil, false, 0, err
			}
		case r == Var || r == Std:
			p.pos = at
			return nil, false, 0, p.errorf("unexpected argument of %s (want axis=, keepdims= or ddof=)", r)
		default:
			p.pos = at
			return nil, false, 0, p.errorf("unexpected argument of %s (want axis= or keepdims=)", r)
		}
	}
	return axes, keep, ddof, nil
}

// ddofArg parses ddof's value: an integer, True or False (1 and 0, as
// NumPy takes them); None fails with NumPy's words.
func (p *parser) ddofArg() (int, error) {
	at := p.pos
	switch p.word() {
	case "True":
		return 1, nil
	case "False":
		return 0, nil
	case "None":
		p.pos = at
		return 0, p.errorf("'<=' not supported between instances of 'int' and 'NoneType'")
	}
	p.pos = at
	v, err := p.int()
	if err != nil {
		return 0, err
	}
	if p.peek() == '.' || p.peek() == 'e' || p.peek() == 'E' {
		p.pos = at
		return 0, p.errorf("ddof takes an integer")
	}
	if v < 0 {
		p.pos = at
		return 0, p.errorf("ddof must be a non-negative integer, not %d", v)
	}
	return v, nil
}

// axisArg parses `None`, an integer or a tuple of integers.
func (p *parser) axisArg() ([]int, error) {
	at := p.pos
	if p.word() == "None" {
		return nil, nil
	}
	p.pos = at
	if p.peek() != '(' {
		v, err := p.int()
		if err != nil {
			return nil, err
		}
		return []int{v}, nil
	}
	p.pos++
	axes := []int{}
	for !p.accept(")") {
		v, err := p.int()
		if err != nil {
			return nil, err
		}
		axes = append(axes, v)
		if !p.accept(",") {
			if err := p.expect(")"); err != nil {
				return nil, err
			}
			break
		}
	}
	return axes, nil
}

func (p *parser) boolArg() (bool, error) {
	at := p.pos
	switch p.word() {
	case "True":
		return true, nil
	case "False":
		return false, nil
	}
	p.pos = at
	return false, p.errorf("expected True or False")
}

// dtypeArg parses a type name: float32, np.float32 or 'float32'.
func (p *parser) dtypeArg() (dtype, error) {
	p.space()
	at := p.pos
	q := byte(0)
	if p.pos < len(p.text) && (p.text[p.pos] == '\'' || p.text[p.pos] == '"') {
		q = p.text[p.pos]
		p.pos++
	}
	name := p.word()
	if name == "np" && p.accept(".") {
		name = p.word()
	}
	if q != 0 && !p.accept(string(q)) {
		p.pos = at
		return dtNone, p.errorf("unterminated type name")
	}
	d := dtypeNamed(name)
	if d == dtNone {
		p.pos = at
		return dtNone, p.errorf("data type %q not understood", name)
	}
	return d, nil
}

// bound parses a clip bound: a number or None.
func (p *parser) bound() (*Const, error) {
	at := p.pos
	if p.word() == "None" {
		return nil, nil
	}
	p.pos = at
	o, err := p.unary()
	if err != nil {
		return nil, err
	}
	if o.e != nil || !o.c.scalar() {
		p.pos = at
		return nil, p.errorf("clip bounds must be numbers or None")
	}
	return &o.c, nil
}

// primary parses x, a number, a list, a parenthesized expression or a
// function call.
func (p *parser) primary() (operand, error) {
	if err := p.enter(); err != nil {
		return operand{}, err
	}
	defer func() { p.depth-- }()
	c := p.peek()
	at := p.pos
	switch {
	case c == '(':
		p.pos++
		o, err := p.sum()
		if err != nil {
			return o, err
		}
		o.pos = at
		return o, p.expect(")")
	case c == '[':
		cst, err := p.list()
		return operand{c: cst, pos: at}, err
	case c >= '0' && c <= '9' || c == '.':
		cst, err := p.number()
		return operand{c: cst, pos: at}, err
	}
	w := p.word()
	if w == "np" && p.accept(".") {
		w = p.word()
		if w == "linalg" && p.accept(".") {
			w = p.word()
		}
	}
	if p.cols != nil {
		if o, ok, err := p.column(w, at); ok {
			return o, err
		}
	}
	switch w {
	case "x":
		if p.used {
			p.pos = at
			return operand{}, p.unsupportedf("operations between two tensors are not supported (x appears once)")
		}
		p.used = true
		return operand{e: p.x, pos: at}, nil
	case "inf":
		return operand{c: Float(math.Inf(1)), pos: at}, nil
	case "nan":
		return operand{c: Float(math.NaN()), pos: at}, nil
	}
	if p.peek() != '(' {
		p.pos = at
		return operand{}, p.errorf("expected the input name x")
	}
	p.pos++
	if d := dtypeNamed(w); d != dtNone {
		return p.typedConst(d, at)
	}
	switch w {
	case "abs", "absolute", "sqrt", "norm", "dot", "cosine", "l2", "l2sq", "sqeuclidean":
	default:
		if _, ok := reductionNamed(w); !ok {
			p.pos = at
			return operand{}, p.errorf("unknown function %q", w)
		}
	}
	o, err := p.sum()
	if err != nil {
		return o, err
	}
	if o.e == nil {
		p.pos = o.pos
		return o, p.errorf("%s takes the tensor x first", w)
	}
	var e Expr
	switch w {
	case "abs", "absolute":
		e = Abs(o.e)
	case "sqrt":
		e = Sqrt(o.e)
	case "dot", "cosine", "l2", "l2sq", "sqeuclidean":
		if err := p.expect(","); err != nil {
			return o, err
		}
		k, err := p.sum()
		if err != nil {
			return o, err
		}
		if k.e != nil {
			p.pos = k.pos
			return o, p.errorf("%s compares x with a constant", w)
		}
		m, _ := search.ParseMetric(w) // w is one of the names above
		e = Similarity(o.e, m, k.c)
	default:
		r, _ := reductionNamed(w)
		if p.accept(")") {
			e = Reduce(o.e, r, false)
		} else {
			if err := p.expect(","); err != nil {
				return o, err
			}
			if e, err = p.reduceArgs(o.e, r, r != Norm); err != nil {
				return o, err
			}
		}
		return operand{e: e, pos: at}, p.check(e, p.pos)
	}
	if err := p.expect(")"); err != nil {
		return o, err
	}
	return operand{e: e, pos: at}, p.check(e, p.pos)
}
