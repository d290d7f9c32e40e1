package main

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// minCommands is the least number of "$ fstensor ..." lines each of these
// files must hold, so that a section moved or dropped by mistake fails
// TestREADME instead of going unchecked. Every other docs/*.md file is run
// too.
var minCommands = map[string]int{
	"README.md":       5,
	"docs/command.md": 28,
}

// TestREADME runs every "$ fstensor ..." line of the ```text blocks of
// README.md and docs/*.md through the built binary, each file in its own
// directory holding testdata/, and compares the output with the lines that
// follow it ("..." stands for any number of lines). A "$ fstensor serve"
// line is not run: the server runs until stopped.
func TestREADME(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	root := filepath.Join("..", "..")
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files := []string{"README.md"}
	for _, d := range docs {
		files = append(files, filepath.ToSlash(strings.TrimPrefix(d, root+string(filepath.Separator))))
	}
	for f := range minCommands {
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	bin := buildBinary(t)
	total := 0
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(root, f))
			if err != nil {
				t.Fatal(err)
			}
			ran := runDocCommands(t, bin, string(b))
			t.Logf("ran %d commands of %s", ran, f)
			if ran < minCommands[f] {
				t.Errorf("ran %d commands of %s, want at least %d", ran, f, minCommands[f])
			}
			total += ran
		})
	}
	t.Logf("ran %d commands in %d files", total, len(files))
}

// runDocCommands runs the command lines of the ```text blocks of text in a
// new directory holding a copy of testdata/ and returns how many it ran.
func runDocCommands(t *testing.T, bin, text string) int {
	t.Helper()
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
			args := splitWords(cmdline)
			if len(args) > 0 && args[0] == "serve" {
				continue
			}
			cmd := exec.Command(bin, args...)
			cmd.Dir = dir
			out, _ := cmd.CombinedOutput()
			got := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
			if len(out) == 0 {
				got = nil
			}
			if !matchLines(want, got) {
				t.Errorf("$ fstensor %s\ngot:\n%s\ndoc:\n%s", cmdline, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			ran++
		}
	}
	return ran
}

// TestREADMEExample checks that every Go block of README.md is the body of
// an Example test with its // Output: lines, so that the README's code is
// compiled and its output checked.
func TestREADMEExample(t *testing.T) {
	root := filepath.Join("..", "..")
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```go\n(.*?)```").FindAllStringSubmatch(string(b), -1)
	if len(blocks) == 0 {
		t.Fatal("README.md has no Go block")
	}
	var examples []string // example test files, with their bodies' indent removed
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !strings.HasSuffix(path, "example_test.go") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		examples = append(examples, strings.ReplaceAll("\n"+string(src), "\n\t", "\n"))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range blocks {
		block := m[1]
		if !strings.Contains(block, "// Output:") {
			t.Errorf("README Go block without // Output:\n%s", block)
			continue
		}
		found := false
		for _, src := range examples {
			found = found || strings.Contains(src, "\n"+block)
		}
		if !found {
			t.Errorf("README Go block is not the body of an Example test:\n%s", block)
		}
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
