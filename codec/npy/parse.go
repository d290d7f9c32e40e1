package npy

import (
	"github.com/fstensor/fstensor/internal/errs"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/stride"
)

// parser reads the Python dict literal of a .npy header: the subset of
// literal syntax numpy.save has ever written (strings in either quote,
// True/False, tuples of ints with an optional Python 2 'L' suffix).
type parser struct {
	s     string
	i     int
	major int
}

// parseDict parses the header dictionary.
func parseDict(b []byte, major int) (Header, error) {
	p := parser{s: string(b), major: major}
	var h Header
	var seen [3]bool
	p.space()
	if !p.eat('{') {
		return h, p.fail("dictionary does not start with '{'")
	}
	for {
		p.space()
		if p.eat('}') {
			break
		}
		key, err := p.str()
		if err != nil {
			return h, err
		}
		p.space()
		if !p.eat(':') {
			return h, p.fail("missing ':' after key")
		}
		p.space()
		var k int
		switch key {
		case "descr":
			k = 0
			if p.peek() == '[' || p.peek() == '(' || p.peek() == '{' {
				return h, &Error{errs.Unsupported("npy", "\"descr\" is a structured dtype, which is not supported")}
			}
			d, err := p.str()
			if err != nil {
				return h, err
			}
			h.Type, h.BigEndian, err = parseDescr(d)
			if err != nil {
				return h, err
			}
		case "fortran_order":
			k = 1
			switch {
			case p.word("True"):
				h.FortranOrder = true
			case p.word("False"):
				h.FortranOrder = false
			default:
				return h, p.fail("\"fortran_order\" is not True or False")
			}
		case "shape":
			k = 2
			h.Shape, err = p.tuple()
			if err != nil {
				return h, err
			}
		default:
			return h, errorf("header has unexpected key %q", key)
		}
		if seen[k] {
			return h, errorf("header repeats key %q", key)
		}
		seen[k] = true
		p.space()
		if p.eat(',') {
			continue
		}
		p.space()
		if !p.eat('}') {
			return h, p.fail("missing ',' or '}'")
		}
		break
	}
	for k, name := range []string{"descr", "fortran_order", "shape"} {
		if !seen[k] {
			return h, errorf("header has no key %q", name)
		}
	}
	p.space()
	if p.i != len(p.s) {
		return h, p.fail("unexpected text after the dictionary")
	}
	if _, err := h.DataSize(); err != nil {
		return h, err
	}
	return h, nil
}

// fail returns an error naming the offset.
func (p *parser) fail(msg string) error {
	return errorf("header offset %d: %s", p.i, msg)
}

func (p *parser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *parser) eat(c byte) bool {
	if p.peek() == c && p.i < len(p.s) {
		p.i++
		return true
	}
	return false
}

// space skips blanks and line breaks.
func (p *parser) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// word consumes w when it is next and not followed by a name character.
func (p *parser) word(w string) bool {
	if len(p.s)-p.i < len(w) || p.s[p.i:p.i+len(w)] != w {
		return false
	}
	if j := p.i + len(w); j < len(p.s) && isNameChar(p.s[j]) {
		return false
	}
	p.i += len(w)
	return true
}

func isNameChar(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// str reads a quoted string without escapes (no key or supported dtype
// needs one).
func (p *parser) str() (string, error) {
	q := p.peek()
	if q != '\'' && q != '"' {
		return "", p.fail("expected a quoted string")
	}
	start := p.i + 1
	for j := start; j < len(p.s); j++ {
		switch p.s[j] {
		case q:
			p.i = j + 1
			return p.s[start:j], nil
		case '\\', '\n':
			return "", p.fail("string escapes and line breaks are not supported")
		}
	}
	return "", p.fail("unterminated string")
}

// tuple reads a tuple of non-negative ints: (), (n,), (n, m), (n, m,).
func (p *parser) tuple() ([]int, error) {
	if !p.eat('(') {
		return nil, p.fail("\"shape\" is not a tuple")
	}
	shape := []int{}
	for {
		p.space()
		if p.eat(')') {
			break
		}
		if len(shape) == metadata.MaxDims {
			return nil, errorf("\"shape\" has more than %d dimensions", metadata.MaxDims)
		}
		d, err := p.int()
		if err != nil {
			return nil, err
		}
		shape = append(shape, d)
		p.space()
		if p.eat(',') {
			continue
		}
		if !p.eat(')') {
			return nil, p.fail("missing ',' or ')' in \"shape\"")
		}
		if len(shape) == 1 {
			return nil, errorf("\"shape\" (%d) is an int, not a tuple", shape[0])
		}
		break
	}
	if err := stride.CheckShape(shape); err != nil {
		return nil, errorf("\"shape\" %s: %v", metadata.FormatShape(shape), err)
	}
	return shape, nil
}

// int reads a non-negative decimal int; versions 1.0 and 2.0 accept the
// 'L' suffix Python 2 wrote for longs.
func (p *parser) int() (int, error) {
	start := p.i
	n := 0
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		d := int(p.s[p.i] - '0')
		if n > (maxInt-d)/10 {
			return 0, p.fail("\"shape\" dimension overflows int")
		}
		n = n*10 + d
		p.i++
	}
	if p.i == start {
		return 0, p.fail("\"shape\" holds something other than a non-negative int")
	}
	if p.i-start > 1 && p.s[start] == '0' {
		return 0, p.fail("\"shape\" dimension has a leading zero")
	}
	if p.major < 3 && p.peek() == 'L' {
		p.i++
	}
	if isNameChar(p.peek()) || p.peek() == '.' {
		return 0, p.fail("\"shape\" holds something other than a non-negative int")
	}
	return n, nil
}

const maxInt = int(^uint(0) >> 1)
