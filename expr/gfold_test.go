package expr_test

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/expr"
)

// TestFoldScalars compiles expressions with operations between Python
// scalars, which Python computes before NumPy sees them, and compares
// them with the expression written with the result.
func TestFoldScalars(t *testing.T) {
	var x expr.Expr // nil: graph text
	for _, tc := range []struct{ text, same string }{
		{"x * 2 ** 3", "x * 8"},
		{"x ** 2 ** 0.5", "x ** 1.4142135623730951"},
		{"x + 7 // -2", "x + -4"},
		{"x + 7 % -2", "x + -1"},
		{"x + -7.5 // 2", "x + -4.0"},
		{"x * (1 / 4)", "x * 0.25"},
		{"x * 2 ** -1", "x * 0.5"},
		{"x - (3 - 5) * 4", "x - -8"},
		{"x * (-1) ** 3", "x * -1"},
	} {
		t.Run(tc.text, func(t *testing.T) {
			a, err := expr.Parse(tc.text, x)
			if err != nil {
				t.Fatal(err)
			}
			b, err := expr.Parse(tc.same, x)
			if err != nil {
				t.Fatal(err)
			}
			if a.String() != b.String() {
				t.Errorf("%s reads as %s, want %s", tc.text, a, b)
			}
		})
	}
	for _, text := range []string{"x * (1 // 0)", "x * (1 % 0)", "x * (1.0 / 0)", "x * (-8) ** 0.5", "x * 2 ** 64", "x * (9223372036854775807 + 1)", "x + (0.0 ** -1)"} {
		if _, err := expr.Parse(text, x); !errors.Is(err, arrow.ErrInvalid) {
			t.Errorf("%s: %v, want an error wrapping arrow.ErrInvalid", text, err)
		}
	}
}
