package metadata

import (
	"strconv"
)

// FormatShape returns the tuple text form of a shape as NumPy and mshadow
// print it: `(3,4)`, `(3,)` for one dimension and `()` for none.
func FormatShape(shape []int) string { return string(AppendShape(nil, shape)) }

// AppendShape appends the text form of shape (see [FormatShape]) to dst.
func AppendShape(dst []byte, shape []int) []byte {
	dst = appendCommaInts(append(dst, '('), shape)
	if len(shape) == 1 {
		dst = append(dst, ',')
	}
	return append(dst, ')')
}

// MaxShapeText is the longest text [ParseShape] reads.
const MaxShapeText = 64 << 10

// ParseShape reads a shape in the tuple form `(3,4)`, `(3,)`, `()` or the
// list form `[3,4]`, `[]`, with optional spaces around every token and an
// optional trailing comma after the last dimension. Dimensions are
// non-negative decimal integers; a sign, a negative value (no unsigned
// wrap-around of -1), a value above math.MaxInt (math.MaxInt32 on a 32-bit
// platform), mismatched brackets, a missing or doubled comma and trailing
// text are errors wrapping arrow.ErrInvalid.
func ParseShape(s string) ([]int, error) {
	if len(s) > MaxShapeText {
		return nil, errorf("shape text is %d bytes, more than %d", len(s), MaxShapeText)
	}
	p := shapeParser{s: s}
	p.space()
	var closer byte
	switch p.peek() {
	case '(':
		closer = ')'
	case '[':
		closer = ']'
	default:
		return nil, p.fail("expected '(' or '['")
	}
	p.i++
	shape := []int{}
	p.space()
	for p.peek() != closer {
		d, err := p.dim()
		if err != nil {
			return nil, err
		}
		if len(shape) == MaxDims {
			return nil, errorf("shape text %q has more than %d dimensions", clipText(s), MaxDims)
		}
		shape = append(shape, d)
		p.space()
		switch p.peek() {
		case ',':
			p.i++
			p.space()
		case closer:
		default:
			return nil, p.fail("expected ',' or '" + string(closer) + "'")
		}
	}
	p.i++
	p.space()
	if p.i != len(s) {
		return nil, p.fail("unexpected text after the shape")
	}
	return shape, nil
}

type shapeParser struct {
	s string
	i int
}

func (p *shapeParser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *shapeParser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

func (p *shapeParser) dim() (int, error) {
	start := p.i
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		p.i++
	}
	if p.i == start {
		if p.peek() == '-' {
			return 0, p.fail("negative dimension")
		}
		return 0, p.fail("expected a dimension")
	}
	// At the width of int: on a 32-bit platform a dimension above
	// math.MaxInt32 is out of range rather than truncated.
	v, err := strconv.ParseInt(p.s[start:p.i], 10, strconv.IntSize)
	if err != nil {
		p.i = start
		return 0, p.fail("dimension out of range")
	}
	return int(v), nil
}

func (p *shapeParser) fail(what string) error {
	return errorf("shape text %q: %s at offset %d", clipText(p.s), what, p.i)
}

func clipText(s string) string {
	if len(s) > 64 {
		return s[:64] + "..."
	}
	return s
}
