package expr

import (
	"errors"
	"strconv"
	"strings"

	"github.com/fstensor/fstensor/stride"
)

// typedConst parses the rest of `float32(...)`: a number or a list made
// a constant of type d.
func (p *parser) typedConst(d dtype) (Const, error) {
	start := p.pos
	g, err := p.gunary()
	if err != nil {
		return Const{}, err
	}
	if g.op != gConst {
		p.pos = start
		return Const{}, p.errorf("%s(...) takes a number or a list", d)
	}
	if err := p.expect(")"); err != nil {
		return Const{}, err
	}
	c := g.c
	t := Const{dt: d, typed: true, shape: c.shape}
	n := len(c.f) + len(c.i)
	if c.scalar() {
		t.shape = []int{}
	}
	for k := range n {
		if d.float() {
			t.f = append(t.f, roundTo(c.value(k), d))
			continue
		}
		var v int64
		if c.f != nil {
			v = floatToInt(c.f[k], d)
		} else {
			if !d.fits(c.i[k]) {
				p.pos = start
				return Const{}, p.errorf("Python integer %d out of bounds for %s", c.i[k], d)
			}
			v = c.i[k]
		}
		t.i = append(t.i, v)
	}
	return t, nil
}

// number parses an integer or a float literal.
func (p *parser) number() (Const, error) {
	start := p.pos
	isFloat := false
	for p.pos < len(p.text) {
		ch := p.text[p.pos]
		switch {
		case ch >= '0' && ch <= '9':
		case ch == '.' || ch == 'e' || ch == 'E':
			isFloat = true
			if ch != '.' && p.pos+1 < len(p.text) && (p.text[p.pos+1] == '-' || p.text[p.pos+1] == '+') {
				p.pos++
			}
		default:
			goto done
		}
		p.pos++
	}
done:
	s := p.text[start:p.pos]
	if !isFloat {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil || v > MaxInt {
			p.pos = start
			return Const{}, p.errorf("integer %s out of range", s[:min(len(s), 40)])
		}
		return Int(v), nil
	}
	v, err := strconv.ParseFloat(strings.TrimSuffix(s, "."), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		p.pos = start
		return Const{}, p.errorf("invalid number %q", s[:min(len(s), 40)])
	}
	return Float(v), nil
}

// lnode is a parsed list or number of a list.
type lnode struct {
	leaf bool
	c    Const
	kids []lnode
	pos  int
}

func (p *parser) listNode() (lnode, error) {
	if p.peek() != '[' {
		at := p.pos
		g, err := p.gunary()
		if err != nil {
			return lnode{}, err
		}
		if g.op != gConst || !g.c.scalar() {
			p.pos = at
			return lnode{}, p.errorf("lists hold numbers")
		}
		return lnode{leaf: true, c: g.c, pos: at}, nil
	}
	if err := p.enter(); err != nil {
		return lnode{}, err
	}
	defer func() { p.depth-- }()
	n := lnode{pos: p.pos}
	p.pos++
	for !p.accept("]") {
		if len(n.kids) > 0 {
			if err := p.expect(","); err != nil {
				return n, err
			}
			if p.accept("]") {
				break
			}
		}
		k, err := p.listNode()
		if err != nil {
			return n, err
		}
		n.kids = append(n.kids, k)
	}
	return n, nil
}

// list parses a nested list of numbers into a float64 (any float in it)
// or int64 constant tensor, as numpy.array does.
func (p *parser) list() (Const, error) {
	root, err := p.listNode()
	if err != nil {
		return Const{}, err
	}
	var shape []int
	for n := root; !n.leaf; n = n.kids[0] {
		shape = append(shape, len(n.kids))
		if len(n.kids) == 0 {
			break
		}
	}
	var f []float64
	var ints []int64
	anyFloat := len(shape) > 0 && shape[len(shape)-1] == 0
	var walk func(n lnode, depth int) error
	walk = func(n lnode, depth int) error {
		if n.leaf != (depth == len(shape)) || !n.leaf && len(n.kids) != shape[depth] {
			p.pos = n.pos
			return p.errorf("setting an array element with a sequence: the list is inhomogeneous after %d dimensions", depth)
		}
		if n.leaf {
			anyFloat = anyFloat || n.c.weak == weakFloat
			f = append(f, n.c.value(0))
			if n.c.weak == weakInt {
				ints = append(ints, n.c.i[0])
			} else {
				ints = append(ints, 0)
			}
		}
		for _, k := range n.kids {
			if err := walk(k, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(root, 0); err != nil {
		return Const{}, err
	}
	if _, err := stride.NumElements(shape); err != nil {
		return Const{}, p.errorf("list of shape %v: %v", shape, err)
	}
	if anyFloat {
		return Floats(shape, f...), nil
	}
	return Ints(shape, ints...), nil
}
