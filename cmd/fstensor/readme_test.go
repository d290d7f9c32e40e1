package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestREADME runs every "$ fstensor ..." line of the README's command
// section through the built binary, in a directory holding testdata/,
// and compares the output with the lines that follow it ("..." stands
// for any number of lines).
func TestREADME(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	start := strings.Index(text, "\n## The command\n")
	if start < 0 {
		t.Fatal("README has no command section")
	}
	text = text[start+1:]
	if end := strings.Index(text[3:], "\n## "); end >= 0 {
		text = text[:end+3]
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	if err := os.CopyFS(filepath.Join(dir, "testdata"), os.DirFS(filepath.Join("..", "..", "testdata"))); err != nil {
		t.Fatal(err)
	}
	copyFile(t, sample("images.arrow"), filepath.Join(dir, "images.arrow"))
	if err := os.Symlink("images.arrow", filepath.Join(dir, "link.arrow")); err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, block := range strings.Split(text, "```text\n")[1:] {
		block = block[:strings.Index(block, "```")]
		lines := strings.Split(strings.TrimSuffix(block, "\n"), "\n")
		for i := 0; i < len(lines); i++ {
			cmdline, ok := strings.CutPrefix(lines[i], "$ fstensor ")
			if !ok {
				continue
			}
			var want []string
			for i+1 < len(lines) && !strings.HasPrefix(lines[i+1], "$ ") {
				i++
				want = append(want, lines[i])
			}
			for len(want) > 0 && want[len(want)-1] == "" {
				want = want[:len(want)-1]
			}
			cmd := exec.Command(bin, splitWords(cmdline)...)
			cmd.Dir = dir
			out, _ := cmd.CombinedOutput()
			got := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
			if len(out) == 0 {
				got = nil
			}
			if !matchLines(want, got) {
				t.Errorf("$ fstensor %s\ngot:\n%s\nREADME:\n%s", cmdline, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			ran++
		}
	}
	if ran < 10 {
		t.Errorf("ran %d README commands", ran)
	}
}

// matchLines reports whether got matches want, where a "..." line of want
// matches any run of lines.
func matchLines(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if want[0] == "..." {
		for k := 0; k <= len(got); k++ {
			if matchLines(want[1:], got[k:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && strings.TrimRight(got[0], " ") == strings.TrimRight(want[0], " ") && matchLines(want[1:], got[1:])
}

// splitWords splits a command line into words, with single quotes.
func splitWords(s string) []string {
	var words []string
	var cur strings.Builder
	in, quoted := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			quoted, in = !quoted, true
		case r == ' ' && !quoted:
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if in {
		words = append(words, cur.String())
	}
	return words
}
