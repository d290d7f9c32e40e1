package lint_test

import (
	"go/parser"
	"path"
	"strconv"
	"strings"
	"testing"
)

// module is the module path of the packages the import rules are about.
const module = "github.com/fstensor/fstensor/"

// TestImportDirection checks that imports run one way: the packages
// under internal/ (but internal/testsupport) import no package of the
// module outside internal/, and nothing but tests and
// internal/testsupport imports internal/testsupport.
func TestImportDirection(t *testing.T) {
	for _, f := range goFiles(t, moduleRoot(t), parser.ImportsOnly) {
		dir := path.Dir(f.rel)
		test := strings.HasSuffix(f.rel, "_test.go")
		support := under(dir, "internal/testsupport")
		for _, spec := range f.ast.Imports {
			imp, err := strconv.Unquote(spec.Path.Value)
			if err != nil || !strings.HasPrefix(imp, module) {
				continue
			}
			imp = strings.TrimPrefix(imp, module)
			switch {
			case under(imp, "internal/testsupport") && !test && !support:
				t.Errorf("%s imports %s: test support is for tests", f.rel, imp)
			case under(dir, "internal") && !support && !test && !under(imp, "internal"):
				t.Errorf("%s imports %s: packages under internal/ are leaves that import only internal/ helpers", f.rel, imp)
			}
		}
	}
}

// under reports whether the slash path p is dir or lies below it.
func under(p, dir string) bool { return p == dir || strings.HasPrefix(p, dir+"/") }
