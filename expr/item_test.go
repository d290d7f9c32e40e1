package expr_test

import (
	"testing"

	"github.com/fstensor/fstensor/expr"
)

// TestOpenEndedItems checks that the constructors without sentinels equal
// Span with Omit and print as NumPy writes the slice.
func TestOpenEndedItems(t *testing.T) {
	o := expr.Omit
	for _, tt := range []struct {
		name string
		got  expr.Item
		want expr.Item
		text string
	}{
		{"from", expr.From(2), expr.Span(2, o, o), "2:"},
		{"from negative", expr.From(-3), expr.Span(-3, o, o), "-3:"},
		{"to", expr.To(5), expr.Span(o, 5, o), ":5"},
		{"to zero", expr.To(0), expr.Span(o, 0, o), ":0"},
		{"range", expr.Range(1, -1), expr.Span(1, -1, o), "1:-1"},
		{"step", expr.Step(-1), expr.Span(o, o, -1), "::-1"},
		{"from by", expr.From(1).By(2), expr.Span(1, o, 2), "1::2"},
		{"to by", expr.To(0).By(-1), expr.Span(o, 0, -1), ":0:-1"},
		{"all by", expr.All().By(3), expr.Span(o, o, 3), "::3"},
		{"step zero", expr.Step(0), expr.Span(o, o, 0), "::0"},
		{"by on an index", expr.At(4).By(2), expr.At(4), "4"},
		{"by on a new axis", expr.NewAxis().By(2), expr.NewAxis(), "None"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %v, want %v", tt.got, tt.want)
			}
			if s := tt.got.String(); s != tt.text {
				t.Errorf("String() = %q, want %q", s, tt.text)
			}
		})
	}
}
