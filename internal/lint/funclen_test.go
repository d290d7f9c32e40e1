package lint_test

import (
	"go/ast"
	"go/parser"
	"testing"

	"github.com/fstensor/fstensor/internal/lint"
)

// longFunc is a function over the limit.
type longFunc struct {
	file, name string // file relative to the module root, with slashes
	lines      int
}

// longFuncs returns the function declarations of the module's Go files
// under root that span more than max lines, generated files left out.
func longFuncs(t *testing.T, root string, max int) []longFunc {
	t.Helper()
	var long []longFunc
	for _, f := range goFiles(t, root, parser.SkipObjectResolution) {
		if ast.IsGenerated(f.ast) {
			continue
		}
		for _, decl := range f.ast.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			n := f.fset.Position(fn.End()).Line - f.fset.Position(fn.Pos()).Line + 1
			if n > max {
				long = append(long, longFunc{f.rel, funcName(fn), n})
			}
		}
	}
	return long
}

// funcName returns Name for a function and Recv.Name for a method.
func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	typ := fn.Recv.List[0].Type
	if s, ok := typ.(*ast.StarExpr); ok {
		typ = s.X
	}
	switch x := typ.(type) {
	case *ast.IndexExpr:
		typ = x.X
	case *ast.IndexListExpr:
		typ = x.X
	}
	if id, ok := typ.(*ast.Ident); ok {
		return id.Name + "." + fn.Name.Name
	}
	return fn.Name.Name
}

// TestFunctionLength fails on every function of the module longer than
// lint.MaxFunctionLines lines.
func TestFunctionLength(t *testing.T) {
	for _, f := range longFuncs(t, moduleRoot(t), lint.MaxFunctionLines) {
		key := f.file + ": " + f.name
		t.Errorf("%s is %d lines, over %d: split it along its phases or move its table to a package-level var", key, f.lines, lint.MaxFunctionLines)
	}
}
