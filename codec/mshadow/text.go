package mshadow

import (
	"math"

	"github.com/fstensor/fstensor/metadata"
)

// ReadText reads a shape from the start of s exactly as mshadow's
// `std::istream >> TShape` does, so that text written by mshadow and MXNet
// tools (and by hand for them) reads the same here:
//
//   - a bare number is a 1-D shape: `7` and `  7` give (7,);
//   - otherwise, after optional white space, `(` starts a list of numbers
//     separated by `,`, each optionally followed by `L` (Python 2 longs), with
//     white space anywhere and an optional trailing comma: `(3, 4L, 5)`;
//   - numbers are read as C++ reads the 32-bit unsigned index_t: a sign is
//     allowed and a negative value wraps, so `(-1,2)` is (4294967295,2); a
//     magnitude above math.MaxUint32 fails. On a 32-bit platform, where an
//     int stops at math.MaxInt32, a larger value (so `(-1,2)` too) is an
//     error that mshadow does not have.
//
// It returns the shape the TShape holds afterwards, the number of bytes
// consumed and, when the stream would have its failbit set, an error wrapping
// arrow.ErrInvalid. On error the shape is what mshadow leaves behind, which is
// not always empty: `(3,,4)` fails holding (3,), `(3 4)` fails holding (),
// and, an upstream quirk, `()` fails too (with ()). Text after the shape is
// not read; metadata.ParseShape is the strict parser for whole strings.
//
// At most metadata.MaxShapeText bytes and MaxDims dimensions are read.
func ReadText(s string) (shape []int, n int, err error) {
	if len(s) > metadata.MaxShapeText {
		return []int{}, 0, errorf("shape text is %d bytes, more than %d", len(s), metadata.MaxShapeText)
	}
	r := textReader{s: s}
	// First part: a bare number, or white space up to '('.
	for {
		c := r.peek()
		if isDigit(c) {
			v, err := r.index()
			if err != nil {
				return []int{}, r.i, err
			}
			return []int{v}, r.i, nil
		}
		r.get()
		if c == '(' {
			break
		}
		if !isSpace(c) {
			return []int{}, r.i, r.fail()
		}
	}
	// Second part: numbers up to ')'.
	tmp := []int{}
	for {
		v, err := r.index()
		if err != nil {
			return tmp, r.i, err
		}
		if len(tmp) == MaxDims {
			return []int{}, r.i, errorf("shape text %q has more than %d dimensions", clip(s), MaxDims)
		}
		tmp = append(tmp, v)
		c := r.get()
		for isSpace(c) {
			c = r.get()
		}
		if c == 'L' {
			c = r.get()
		}
		if c == ',' {
			for isSpace(r.peek()) {
				r.get()
			}
			if r.peek() == ')' {
				r.get()
				return tmp, r.i, nil
			}
			continue
		}
		if c == ')' {
			return tmp, r.i, nil
		}
		return []int{}, r.i, r.fail()
	}
}

const eof = -1

type textReader struct {
	s string
	i int
}

func (r *textReader) peek() int {
	if r.i >= len(r.s) {
		return eof
	}
	return int(r.s[r.i])
}

func (r *textReader) get() int {
	c := r.peek()
	if c != eof {
		r.i++
	}
	return c
}

func (r *textReader) fail() error {
	return errorf("shape text %q: mshadow cannot read it (stopped at byte %d)", clip(r.s), r.i)
}

// index reads an unsigned 32-bit number as `is >> index_t` does: skip white
// space, an optional sign, at least one digit; a negative value wraps modulo
// 2^32 and a magnitude above math.MaxUint32 fails (r.fail). A value mshadow
// reads but an int cannot hold, above math.MaxInt32 on a 32-bit platform,
// fails too, with its own message.
func (r *textReader) index() (int, error) {
	for isSpace(r.peek()) {
		r.i++
	}
	neg := false
	if c := r.peek(); c == '+' || c == '-' {
		neg = c == '-'
		r.i++
	}
	if !isDigit(r.peek()) {
		return 0, r.fail()
	}
	var v uint64
	over := false
	for isDigit(r.peek()) {
		v = v*10 + uint64(r.get()-'0')
		if v > math.MaxUint32 {
			over = true
			v = math.MaxUint32 + 1 // keep reading digits without overflowing
		}
	}
	if over {
		return 0, r.fail()
	}
	if neg {
		v = uint64(uint32(-int64(v)))
	}
	if v > math.MaxInt {
		return 0, errorf("shape text %q: dimension %d does not fit an int (stopped at byte %d)", clip(r.s), v, r.i)
	}
	return int(v), nil
}

func isDigit(c int) bool { return c >= '0' && c <= '9' }

func isSpace(c int) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func clip(s string) string {
	if len(s) > 64 {
		return s[:64] + "..."
	}
	return s
}
