package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestOutputFlag checks that every command that writes a file takes
// -o/--output, that convert takes OUT as -o OUT or as a second argument,
// and that naming it both ways, or not at all, is a usage error.
func TestOutputFlag(t *testing.T) {
	in := sample("images.arrow")
	want, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args func(out string) []string
		code int
	}{
		{"convert IN OUT", func(out string) []string { return []string{"convert", in, out} }, 0},
		{"convert IN -o OUT", func(out string) []string { return []string{"convert", in, "-o", out} }, 0},
		{"convert --output OUT IN", func(out string) []string { return []string{"convert", "--output", out, in} }, 0},
		{"convert IN OUT -o OUT", func(out string) []string { return []string{"convert", in, out, "-o", out} }, 2},
		{"convert IN", func(string) []string { return []string{"convert", in} }, 2},
		{"convert IN OUT OUT", func(out string) []string { return []string{"convert", in, out, out} }, 2},
		{"convert", func(string) []string { return []string{"convert"} }, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out.arrow")
			code, _, stderr := runCmd(t, tt.args(out)...)
			if code != tt.code {
				t.Fatalf("code %d, want %d: %s", code, tt.code, stderr)
			}
			got, err := os.ReadFile(out)
			if tt.code != 0 {
				if err == nil {
					t.Errorf("a usage error wrote %s", out)
				}
				if !strings.Contains(stderr, "fstensor convert --help") {
					t.Errorf("stderr %q does not point to convert --help", stderr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(len(want), len(got)); diff != "" {
				t.Errorf("converted size (-want +got):\n%s", diff)
			}
		})
	}
	root := newRoot(nil, nil)
	for _, name := range []string{"eval", "convert", "show"} {
		t.Run(name+" has -o/--output", func(t *testing.T) {
			cmd, _, err := root.Find([]string{name})
			if err != nil {
				t.Fatal(err)
			}
			f := cmd.Flags().Lookup("output")
			if f == nil || f.Shorthand != "o" {
				t.Fatalf("%s has no -o/--output flag", name)
			}
		})
	}
}
