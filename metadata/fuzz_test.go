package metadata_test

import (
	"slices"
	"testing"

	"github.com/fstensor/fstensor/metadata"
)

// FuzzParse checks that Parse never panics and that whatever it accepts
// prints canonically and parses back to an equal value.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"shape":[3,4],"dim_names":["x","y"]}`,
		`{"shape":[3,4,2],"permutation":[2,0,1]}`,
		`{"shape":[100,200,500],"dim_names":["C","H","W"],"permutations":[2,0,1]}`,
		`{"shape":[2,3],"dim_names":null,"permutations":null}`,
		`{"shape":[]}`, `{"shape":[0]}`, `{"shape":[3.5,4]}`, `{"shape":[3,4],"permutation":[0,0]}`,
		`{"shape":[1],"dim_names":["a\"\\\u0001é"]}`, `{"shape":[65536,65536]}`, `{}`, `[]`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := metadata.Parse(data)
		if err != nil {
			return
		}
		out := m.AppendJSON(nil)
		back, err := metadata.Parse(out)
		if err != nil {
			t.Fatalf("Parse(%q) accepted, but its canonical form %q fails: %v", data, out, err)
		}
		if !back.Equal(m) || back.HasPermutation() != m.HasPermutation() {
			t.Fatalf("round trip of %q: %v != %v", data, back, m)
		}
		if again := back.AppendJSON(nil); string(again) != string(out) {
			t.Fatalf("canonical form not stable: %q then %q", out, again)
		}
	})
}

// FuzzParseShape checks that ParseShape never panics and that accepted
// shapes print and parse back unchanged.
func FuzzParseShape(f *testing.F) {
	for _, s := range []string{"(3,4)", "(3,)", "()", "[3,4]", " ( 3 , 4 , ) ", "(-1,2)", "(3,,4)", "(3 4)", "(9223372036854775808)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		shape, err := metadata.ParseShape(s)
		if err != nil {
			return
		}
		text := metadata.FormatShape(shape)
		back, err := metadata.ParseShape(text)
		if err != nil || !slices.Equal(back, shape) {
			t.Fatalf("ParseShape(%q) = %v; FormatShape gives %q, which parses to %v, %v", s, shape, text, back, err)
		}
	})
}
