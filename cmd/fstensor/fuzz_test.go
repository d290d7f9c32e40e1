package main

import (
	"errors"
	"testing"
)

// FuzzFlagParsers checks that the parsers of --rows and --shape never
// panic, return usage errors, and accept only what they describe.
func FuzzFlagParsers(f *testing.F) {
	for _, s := range []string{"2:5", ":3", "6:", "0:0", "5:2", "-1:", "x", ":", "9223372036854775807:", "768", "3,224,224", "(768,)", "[2, 3]", ",", "1,,2", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		lo, hi, err := parseRows(s)
		if err != nil && !errors.Is(err, errUsage) {
			t.Errorf("parseRows(%q): %v is not a usage error", s, err)
		}
		if err == nil && (lo < 0 || hi >= 0 && hi < lo) {
			t.Errorf("parseRows(%q) = %d, %d", s, lo, hi)
		}
		v, err := parseInts("--shape", s)
		if err != nil && !errors.Is(err, errUsage) {
			t.Errorf("parseInts(%q): %v is not a usage error", s, err)
		}
		if err == nil && len(v) == 0 {
			t.Errorf("parseInts(%q) returned no numbers", s)
		}
		if err == nil {
			var pin inputFlags
			pin.shape = s
			pin.parse("x.arrow") // metadata.New validates; must not panic
		}
	})
}
