package lint_test

import (
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestArchitectureMap fails when a package of the module has no row in
// the package map of docs/architecture.md, or a row names a package that
// is gone: the map is the one list of packages and their jobs.
func TestArchitectureMap(t *testing.T) {
	root := moduleRoot(t)
	b, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]bool{}
	for _, line := range strings.Split(string(b), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 3 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		name, _, _ := strings.Cut(strings.Trim(strings.TrimSpace(cells[1]), "`"), "`")
		rows[name] = true
	}
	pkgs := map[string]bool{}
	for _, f := range goFiles(t, root, 0) {
		if strings.HasSuffix(f.rel, "_test.go") {
			continue
		}
		dir := path.Dir(f.rel)
		if dir == "." {
			dir = "fstensor"
		}
		pkgs[dir] = true
	}
	var missing, gone []string
	for p := range pkgs {
		if !rows[p] {
			missing = append(missing, p)
		}
	}
	for r := range rows {
		if !pkgs[r] {
			gone = append(gone, r)
		}
	}
	sort.Strings(missing)
	sort.Strings(gone)
	if len(missing) > 0 {
		t.Errorf("packages without a row in docs/architecture.md's package map: %v", missing)
	}
	if len(gone) > 0 {
		t.Errorf("rows of docs/architecture.md's package map naming no package: %v", gone)
	}
}
