package expr

// The arguments of the text's methods and calls: reduction keywords,
// type names, clip bounds (see gparse.go).

// maxDepth bounds the nesting of parentheses, calls and lists.
const maxDepth = 200

func (p *parser) enter() error {
	p.depth++
	if p.depth > maxDepth {
		return p.errorf("expression nested more than %d deep", maxDepth)
	}
	return nil
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
	axes, err := p.args() // a tuple: () is no axis, not all of them
	if axes == nil && err == nil {
		axes = []int{}
	}
	return axes, err
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
	g, err := p.gunary()
	if err != nil {
		return nil, err
	}
	if g.op != gConst || !g.c.scalar() {
		p.pos = at
		return nil, p.errorf("clip bounds must be numbers or None")
	}
	return &g.c, nil
}
