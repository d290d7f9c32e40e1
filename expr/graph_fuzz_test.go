package expr_test

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/expr"
)

// FuzzGraphParse parses any text as a graph (Parse with a nil x): it
// never panics, its errors are *Errors wrapping arrow.ErrInvalid, and an
// expression it reads prints to a canonical text that parses back to an
// Equal expression printing the same.
func FuzzGraphParse(f *testing.F) {
	for _, s := range []string{
		"a + b", "x / norm(x, axis=-1, keepdims=True)", "-a ** 2", "~(a > b) | c", "a // 2 % b",
		"where(a != b, a, 0.0)", "x.sum(axis=0).max()", "(a * 2)[0, None].T", "a @ load('W.npy')",
		"concatenate([a, b], 1)", "stack((a,), axis=-1)", `einsum("ij,jk", a, b)`, "cosine(a - b, [1, 2])",
		"a < b < c", "(-2) ** a", "negative(2) + a", "float32([0.5, 1]) * a", `col("a \"b\"") * 2`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		e, err := expr.Parse(text, nil)
		if err != nil {
			var pe *expr.Error
			if !errors.Is(err, arrow.ErrInvalid) || !errors.As(err, &pe) {
				t.Fatalf("Parse(%q): %v is not an *Error wrapping ErrInvalid", text, err)
			}
			return
		}
		s := e.String()
		back, err := expr.Parse(s, nil)
		if err != nil {
			t.Fatalf("Parse(%q) printed %q, which fails: %v", text, s, err)
		}
		if !expr.Equal(e, back) || back.String() != s {
			t.Fatalf("Parse(%q) printed %q, which parses to %q", text, s, back)
		}
	})
}
