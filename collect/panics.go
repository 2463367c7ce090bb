package collect

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"github.com/nopol-go/nopol/internal/gotest"
)

// Guards that panic, offered only where a test of the loaded packages
// expects a panic (`assert.Panics`, a deferred recover; Program.PanicTests),
// and tried by the repair only when a failing test is one of those: a panic
// can make a failing test pass only where the test expects one.
//
//   - StrategyPanic: a panic statement of the same function, as written,
//     when every name in it means the same at the guard.
//   - StrategyPanicNew: otherwise, a new panic naming the function, in the
//     package's form: `panic(errors.New("Parser.Range: invalid input"))`
//     where most of the package's panics are errors.New and the file
//     imports errors, else `panic("Parser.Range: invalid input")`.
const (
	StrategyPanic    = "panic"
	StrategyPanicNew = "panic-new"
)

// panicExit returns the panic a guard before a statement of fn may leave
// by, with its strategy; "" when no test of the program expects a panic.
func (o *observer) panicExit(fn ast.Node, src []byte, tf *token.File, fnName string) (string, string) {
	if !o.panicTests {
		return "", ""
	}
	body := bodyOf(fn)
	if body == nil {
		return "", ""
	}
	reused := ""
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ExprStmt:
			if reused == "" && isPanic(n.X, o.info) && o.sameMeaning(n) {
				reused = oneLineSource(src, tf, n)
			}
		}
		return reused == ""
	})
	if reused != "" {
		return reused, StrategyPanic
	}
	msg := fnName
	if fnName == "" || fnName == "func" {
		msg = o.pkg.Name()
	}
	msg = strconv.Quote(msg + ": invalid input")
	if e := o.importNames()["errors"]; e != "" && o.data.panicsWithErrorsNew() {
		return "panic(" + e + ".New(" + msg + "))", StrategyPanicNew
	}
	return "panic(" + msg + ")", StrategyPanicNew
}

// bodyOf is the body of a declared function or a function literal.
func bodyOf(fn ast.Node) *ast.BlockStmt {
	switch fn := fn.(type) {
	case *ast.FuncDecl:
		return fn.Body
	case *ast.FuncLit:
		return fn.Body
	}
	return nil
}

// pkgPanics is what the panic strategy needs to know of a package.
type pkgPanics struct {
	// tests are the package's top-level tests (internal and external
	// test files) that expect a panic: they call recover, or an assertion
	// that a function panics (a name with "Panics" but not "NotPanics":
	// testify's Panics, PanicsWithValue, PanicsWithError), themselves or
	// through a function of the test files that does. Found at Load.
	tests map[string]bool
	// errorsNew: most of the panics of the package's own files panic
	// with errors.New(...); found when a new panic is first written
	// (errorsNewKnown).
	errorsNew, errorsNewKnown bool
}

// panicTests returns the tests of d that expect a panic (pkgPanics.tests),
// found on first use.
func (d *pkgData) panicTests() map[string]bool {
	if d.panics != nil {
		return d.panics.tests
	}
	d.panics = &pkgPanics{tests: map[string]bool{}}
	// expects reports whether n calls recover or a ...Panics assertion,
	// or one of the functions of helpers.
	expects := func(n ast.Node, info *types.Info, helpers map[string]bool) bool {
		if callsRecover(n, info) {
			return true
		}
		found := false
		ast.Inspect(n, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || found {
				return !found
			}
			var name string
			switch fun := ast.Unparen(call.Fun).(type) {
			case *ast.Ident:
				name = fun.Name
				found = helpers[name]
			case *ast.SelectorExpr:
				name = fun.Sel.Name
			}
			if strings.Contains(name, "Panics") && !strings.Contains(name, "NotPanics") {
				found = true
			}
			return !found
		})
		return found
	}
	for _, p := range d.tests {
		var decls []*ast.FuncDecl
		for _, f := range p.Syntax {
			if tf := p.Fset.File(f.Pos()); tf == nil || !strings.HasSuffix(tf.Name(), "_test.go") {
				continue
			}
			for _, decl := range f.Decls {
				if fd, ok := decl.(*ast.FuncDecl); ok && fd.Body != nil && fd.Recv == nil {
					decls = append(decls, fd)
				}
			}
		}
		helpers := map[string]bool{}
		for _, fd := range decls {
			if !isTopLevelTest(fd) && expects(fd.Body, p.TypesInfo, nil) {
				helpers[fd.Name.Name] = true
			}
		}
		for _, fd := range decls {
			if isTopLevelTest(fd) && expects(fd.Body, p.TypesInfo, helpers) {
				d.panics.tests[fd.Name.Name] = true
			}
		}
	}
	return d.panics.tests
}

// panicsWithErrorsNew reports whether most of the panics of d's own files
// panic with errors.New(...) (pkgPanics.errorsNew), found on first use.
func (d *pkgData) panicsWithErrorsNew() bool {
	d.panicTests()
	if d.panics.errorsNewKnown {
		return d.panics.errorsNew
	}
	d.panics.errorsNewKnown = true
	info := d.pkg.TypesInfo
	if info == nil {
		return false
	}
	var errorsNew, all int
	for _, f := range d.pkg.Syntax {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || !isPanic(call, info) || len(call.Args) != 1 {
				return true
			}
			all++
			if arg, ok := ast.Unparen(call.Args[0]).(*ast.CallExpr); ok {
				if sel, ok := arg.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "New" {
					if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok {
						if pn, ok := info.Uses[id].(*types.PkgName); ok && pn.Imported().Path() == "errors" {
							errorsNew++
						}
					}
				}
			}
			return true
		})
	}
	d.panics.errorsNew = all > 0 && 2*errorsNew > all
	return d.panics.errorsNew
}

// isTopLevelTest reports whether fd is a function go test runs: a test or
// a fuzz test (isRunTest), or an example.
func isTopLevelTest(fd *ast.FuncDecl) bool {
	return isRunTest(fd) || gotest.IsTestName(fd.Name.Name, "Example")
}
