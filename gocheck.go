package nopol

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
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
	if names := r.checks[k]; len(names) > 0 {
		r.logf("warning: %s runs a gocheck suite: go test sees all of its tests as one, so the localization cannot tell the passing ones' sites apart; the search runs only its %s (-check.f)", k.name, plural(len(names), "failing gocheck test"))
		return
	}
	r.logf("warning: %s runs a gocheck suite: go test sees all of its tests as one, so the localization cannot tell their sites apart and each run of it runs them all; the repair will be slow and may find nothing. A failing gocheck test rewritten as a Go test of its own (func TestX(t *testing.T)) can be repaired", k.name)
}

// gocheckTest is the name of a gocheck test: its suite's type, a dot,
// its method ("S.TestEncoder").
const gocheckTest = `[A-Za-z_]\w*\.Test\w*`

// gocheckFailure matches the line gocheck prints for a failed or panicked
// test: "FAIL: encode_test.go:510: S.TestEncoderSingleDocument".
var gocheckFailure = regexp.MustCompile(`^(?:FAIL|PANIC): \S+:\d+: (` + gocheckTest + `)$`)

// gocheckName matches the name of a gocheck test, as -check.list prints it.
var gocheckName = regexp.MustCompile(`^` + gocheckTest + `$`)

// gocheckSummary matches gocheck's last line when some tests failed:
// "OOPS: 32 passed, 14 FAILED" (and ", 1 PANICKED", ", 2 MISSED", ...).
var gocheckSummary = regexp.MustCompile(`^OOPS: (\d+) passed((?:, \d+ [A-Z-]+)*)$`)

// failedGocheck returns the gocheck tests ("S.TestX") that failed or
// panicked in output, the output of a test that runs a gocheck suite,
// when some of its tests passed and every failure is listed: none
// skipped or missed for a fixture, as many names as the summary counts.
// It returns nil otherwise.
func failedGocheck(output string) []string {
	var names []string
	passed, failed, complete := 0, 0, false
	for _, line := range strings.Split(output, "\n") {
		line = strings.TrimRight(line, "\r")
		if m := gocheckFailure.FindStringSubmatch(line); m != nil {
			if !slices.Contains(names, m[1]) {
				names = append(names, m[1])
			}
			continue
		}
		m := gocheckSummary.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		passed, _ = strconv.Atoi(m[1])
		failed, complete = 0, true
		for _, part := range strings.Split(strings.TrimPrefix(m[2], ", "), ", ") {
			n, what, _ := strings.Cut(part, " ")
			k, _ := strconv.Atoi(n)
			switch what {
			case "FAILED", "PANICKED":
				failed += k
			case "":
			default:
				complete = false // a fixture failed, tests were missed or skipped
			}
		}
	}
	if !complete || passed == 0 || failed == 0 || failed != len(names) {
		return nil
	}
	return names
}
