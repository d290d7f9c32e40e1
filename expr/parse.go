package expr

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/expr/internal/engine"
	"github.com/fstensor/fstensor/stride"
)

// Limits of the text form. Longer or deeper input is refused with an error
// before any work proportional to it is done.
const (
	// MaxText is the longest expression text Parse accepts, in bytes.
	MaxText = 64 << 10
	// MaxOps is the largest number of operations in one chain.
	MaxOps = 1024
	// MaxInt is the largest magnitude of an integer in the text.
	MaxInt = 1 << 53
)

// Parse reads the text form of an expression over x and returns it:
// `x` followed by any chain of
//
//	[i, j:k:l, None, ...]   NumPy basic indexing (x[()] is the empty index)
//	.T                      reversed axes
//	.transpose(2, 0, 1)     permuted axes (also .transpose((2, 0, 1)))
//	.reshape(4, -1)         new shape (also .reshape((4, -1)), .reshape(()))
//
// then the computing operations of the package doc: .astype(T) (T a
// NumPy type name, also np.T or 'T'), + - * / with numbers (`2`, `-0.5`,
// `1e-3`, `inf`, `nan`), nested lists and typed constants
// (`float32([0.5, 1])`, `uint8(3)`) on either side, parentheses,
// .clip(lo, hi) (None for no bound), abs(x), sqrt(x), the reductions as
// methods (x.sum(axis=1, keepdims=True); axis an integer, a tuple or
// None) or functions (sum(x, axis=1), np.mean(x), norm(x, axis=-1)) and
// dot, cosine, l2, sqeuclidean (or its alias l2sq)(x, constant); with
// any spacing. `x` stands for x itself, so Parse(text, Input(t)) makes
// an expression of tensors of type t, and Parse(text, e) extends e.
// Integers have at most MaxInt magnitude and fit in an int (so at most
// math.MaxInt32 on a 32-bit platform).
//
// The text is read as a graph; one that is a chain over x in the
// language above (views, then element-wise operations with constants,
// then at most one reduction and element-wise operations on its result)
// is returned as the chain the constructors build (Equal to it, and
// CompilePlan takes it). Text beyond one chain (see Graph expressions in
// the package doc) makes a graph expression in which x stands for x:
// Parse(text, nil) reads any text of the language as a graph (x and
// column names unbound), which Compile types against a schema;
// Parse(text, Input(t)) checks the graph's types and shapes with x of
// type t and refuses other column names.
//
// Parse fails on text over MaxText bytes, more than MaxOps operations,
// nesting deeper than 200, syntax errors and invalid arguments (Check),
// with an *Error wrapping arrow.ErrInvalid whose Pos points at the
// offending token (the operator of a binary operation, the end of a
// method call); it never panics.
func Parse(text string, x Expr) (Expr, error) {
	if len(text) > MaxText {
		return nil, newError(text[:80], MaxText, fmt.Sprintf("text of %d bytes exceeds the limit of %d", len(text), MaxText))
	}
	g, err := parseGraph(text)
	if err != nil {
		return nil, err
	}
	if x == nil {
		return graphNode(g), nil
	}
	if leaf := chainLeaf(g); leaf != nil && leaf.op == gX && !isGraph(x) {
		return chainOf(g, x, text)
	}
	if err := checkOver(text, g, x); err != nil {
		return nil, err
	}
	return graphNode(substX(g, graphOf(x))), nil
}

// checkOver lowers g with x standing for the input of the chain x, for
// the errors of its types and shapes.
func checkOver(text string, g *gnode, x Expr) error {
	xn := x.node()
	if xn.g != nil {
		return nil
	}
	in := xn
	for in.x != nil {
		in = in.x
	}
	t := etypeOf(in.elem)
	if t == engine.Invalid {
		return newErrorOf(arrow.ErrNotImplemented, text, 0, fmt.Sprintf("element type %v is not a numeric or bool type: graph expressions compute on numbers and bools", in.elem))
	}
	l := newLowerer(text, arrow.NewSchema(nil, nil), 0, options{})
	l.xOnly = true
	n := &engine.Node{Op: engine.OpInput, DType: t, Shape: in.in.PhysicalShape()}
	if logical, st := in.in.Shape(), in.in.ElemStrides(); !slices.Equal(st, stride.RowMajor(nil, logical)) {
		n = &engine.Node{Op: engine.OpView, Args: []*engine.Node{n}, DType: t, Shape: logical, Strides: in.in.ElemStrides()}
	}
	l.colNode[0] = n
	_, err := l.node(substX(g, graphOf(x)))
	return err
}

// substX returns g with x replaced by the graph x.
func substX(g, x *gnode) *gnode {
	if g.op == gX {
		return x
	}
	var args []*gnode
	for i, a := range g.args {
		if b := substX(a, x); b != a {
			if args == nil {
				args = slices.Clone(g.args)
			}
			args[i] = b
		}
	}
	if args == nil {
		return g
	}
	c := *g
	c.args = args
	return &c
}

// MustParse is like Parse but panics on error; for tests, examples and
// constant expressions.
func MustParse(text string, x Expr) Expr {
	e, err := Parse(text, x)
	if err != nil {
		panic(err)
	}
	return e
}

type parser struct {
	text  string
	pos   int
	ops   int // operations so far
	depth int // nesting of parentheses, calls and lists
}

func (p *parser) errorf(format string, args ...any) *Error {
	return newError(p.text, p.pos, fmt.Sprintf(format, args...))
}

// unsupportedf is errorf for text the grammar reads but the package does
// not support: the error also wraps arrow.ErrNotImplemented.
func (p *parser) unsupportedf(format string, args ...any) *Error {
	return newErrorOf(arrow.ErrNotImplemented, p.text, p.pos, fmt.Sprintf(format, args...))
}

func (p *parser) space() {
	for p.pos < len(p.text) {
		switch p.text[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// peek returns the next byte after spaces, 0 at the end.
func (p *parser) peek() byte {
	p.space()
	if p.pos < len(p.text) {
		return p.text[p.pos]
	}
	return 0
}

// accept consumes s (after spaces) if it is next.
func (p *parser) accept(s string) bool {
	p.space()
	if len(p.text)-p.pos >= len(s) && p.text[p.pos:p.pos+len(s)] == s {
		p.pos += len(s)
		return true
	}
	return false
}

func (p *parser) expect(s string) error {
	if !p.accept(s) {
		return p.errorf("expected %q", s)
	}
	return nil
}

// word consumes an identifier (letters, digits, _) and returns it.
func (p *parser) word() string {
	p.space()
	start := p.pos
	for p.pos < len(p.text) {
		c := p.text[p.pos]
		if c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || p.pos > start && '0' <= c && c <= '9' {
			p.pos++
			continue
		}
		break
	}
	return p.text[start:p.pos]
}

// items parses the inside of [...] after the '['.
func (p *parser) items() ([]Item, error) {
	if p.accept("(") {
		if err := p.expect(")"); err != nil {
			return nil, err
		}
		if err := p.expect("]"); err != nil {
			return nil, err
		}
		return []Item{}, nil
	}
	var items []Item
	for {
		if p.peek() == ']' {
			if items == nil {
				return nil, p.errorf("empty index (use x[()])")
			}
			p.pos++
			return items, nil
		}
		it, err := p.item()
		if err != nil {
			return nil, err
		}
		items = append(items, it)
		if p.accept(",") {
			continue
		}
		if err := p.expect("]"); err != nil {
			return nil, err
		}
		return items, nil
	}
}

func (p *parser) item() (Item, error) {
	if p.accept("...") {
		return Ellipsis(), nil
	}
	if c := p.peek(); c == 'N' {
		at := p.pos
		if w := p.word(); w != "None" {
			p.pos = at
			return Item{}, p.errorf("unexpected %q", w)
		}
		return NewAxis(), nil
	}
	var b [3]int
	for i := range b {
		b[i] = Omit
	}
	if p.peek() != ':' {
		v, err := p.int()
		if err != nil {
			return Item{}, err
		}
		if c := p.peek(); c != ':' {
			return At(v), nil
		}
		b[0] = v
	}
	for k := 1; k < 3; k++ {
		if !p.accept(":") {
			break
		}
		if c := p.peek(); c == ',' || c == ']' || c == ':' {
			if k == 2 && c == ':' {
				return Item{}, p.errorf("unexpected %q", c)
			}
			continue
		}
		v, err := p.int()
		if err != nil {
			return Item{}, err
		}
		b[k] = v
	}
	return Span(b[0], b[1], b[2]), nil
}

// int parses an optionally signed decimal integer of at most MaxInt.
func (p *parser) int() (int, error) {
	p.space()
	start := p.pos
	if p.pos < len(p.text) && (p.text[p.pos] == '-' || p.text[p.pos] == '+') {
		p.pos++
	}
	digits := p.pos
	for p.pos < len(p.text) && '0' <= p.text[p.pos] && p.text[p.pos] <= '9' {
		p.pos++
	}
	if p.pos == digits {
		p.pos = start
		if p.pos < len(p.text) {
			return 0, p.errorf("expected an integer, found %q", p.text[p.pos])
		}
		return 0, p.errorf("expected an integer, found the end")
	}
	// At the width of int: on a 32-bit platform an integer beyond
	// math.MaxInt32 is out of range rather than truncated.
	v, err := strconv.ParseInt(p.text[start:p.pos], 10, strconv.IntSize)
	if err != nil || v > MaxInt || v < -MaxInt {
		p.pos = start
		return 0, p.errorf("integer %s out of range", p.text[start:min(len(p.text), start+40)])
	}
	return int(v), nil
}

// args parses `(a, b, ...)` or `((a, b, ...))`, trailing commas allowed;
// it returns nil for `()` and an empty non-nil slice for `(())`.
func (p *parser) args() ([]int, error) {
	if err := p.expect("("); err != nil {
		return nil, err
	}
	if p.accept(")") {
		return nil, nil
	}
	tuple := p.accept("(")
	ints := []int{}
	for !p.accept(")") {
		v, err := p.int()
		if err != nil {
			return nil, err
		}
		ints = append(ints, v)
		if !p.accept(",") {
			if err := p.expect(")"); err != nil {
				return nil, err
			}
			break
		}
	}
	if tuple {
		if err := p.expect(")"); err != nil {
			return nil, err
		}
	}
	return ints, nil
}
