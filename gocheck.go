package nopol

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strconv"
)

// gocheckImports are the import paths of gocheck, whose TestingT(t) runs
// a whole suite of tests inside one Go test.
var gocheckImports = map[string]bool{"gopkg.in/check.v1": true, "github.com/go-check/check": true}

// runsGocheck reports whether the test function declared at line of file
// src (a Go source file; the line as collect records it, ignoring //line
// directives) runs a gocheck suite: it calls TestingT of a
// gocheck package the file imports. go test, and so nopol, sees all of
// that suite's tests as one.
func runsGocheck(src []byte, line int) bool {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return false
	}
	names := map[string]bool{} // the names the gocheck import goes by; "." for a dot import
	for _, imp := range f.Imports {
		path, err := strconv.Unquote(imp.Path.Value)
		if err != nil || !gocheckImports[path] {
			continue
		}
		name := "check"
		if imp.Name != nil {
			name = imp.Name.Name
		}
		names[name] = true
	}
	if len(names) == 0 {
		return false
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil || fset.PositionFor(fd.Pos(), false).Line != line {
			continue
		}
		found := false
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || found {
				return !found
			}
			switch fun := call.Fun.(type) {
			case *ast.Ident:
				found = fun.Name == "TestingT" && names["."]
			case *ast.SelectorExpr:
				x, ok := fun.X.(*ast.Ident)
				found = ok && fun.Sel.Name == "TestingT" && names[x.Name]
			}
			return !found
		})
		return found
	}
	return false
}

// warnGocheck warns when the failing test k runs a gocheck suite: every
// site its tests reach looks as suspicious as the next, and every run of
// it runs them all.
func (r *repairer) warnGocheck(k testKey) {
	file, line, ok := r.prog.TestLocation(k.pkg, k.name)
	if !ok {
		return
	}
	src, err := os.ReadFile(file)
	if err != nil || !runsGocheck(src, line) {
		return
	}
	r.gocheck = true
	r.logf("warning: %s runs a gocheck suite: go test sees all of its tests as one, so the localization cannot tell their sites apart and each run of it runs them all; the repair will be slow and may find nothing. A failing gocheck test rewritten as a Go test of its own (func TestX(t *testing.T)) can be repaired", k.name)
}
