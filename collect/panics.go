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
			if reused == "" && isPanicCall(n.X, o.info) && o.sameMeaning(n) {
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
	if e := o.importNames()["errors"]; e != "" && o.pkgFacts.panicsErrorsNew {
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

// isPanicCall reports whether e calls the builtin panic.
func isPanicCall(e ast.Expr, info *types.Info) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok || id.Name != "panic" {
		return false
	}
	_, builtin := info.Uses[id].(*types.Builtin)
	return builtin
}

// pkgPanics is what the panic strategy needs to know of a package.
type pkgPanics struct {
	// tests are the package's top-level tests (internal and external
	// test files) that expect a panic: they call recover, or an assertion
	// that a function panics (a name with "Panics" but not "NotPanics":
	// testify's Panics, PanicsWithValue, PanicsWithError), themselves or
	// through a function of the test files that does.
	tests map[string]bool
	// panicsErrorsNew: most of the panics of the package's own files
	// panic with errors.New(...).
	panicsErrorsNew bool
}

// panicFacts returns d's pkgPanics, found on first use.
func (d *pkgData) panicFacts() *pkgPanics {
	if d.panics != nil {
		return d.panics
	}
	d.panics = &pkgPanics{tests: map[string]bool{}}
	// expects reports whether n calls recover or a ...Panics assertion,
	// or one of the functions of helpers.
	expects := func(n ast.Node, info *types.Info, helpers map[string]bool) bool {
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
				if _, builtin := info.Uses[fun].(*types.Builtin); builtin && name == "recover" || helpers[name] {
					found = true
				}
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
				if fd, ok := decl.(*ast.FuncDecl); ok && fd.Body != nil {
					decls = append(decls, fd)
				}
			}
		}
		helpers := map[string]bool{}
		for _, fd := range decls {
			if fd.Recv == nil && !isTopLevelTest(fd) && expects(fd.Body, p.TypesInfo, nil) {
				helpers[fd.Name.Name] = true
			}
		}
		for _, fd := range decls {
			if fd.Recv == nil && isTopLevelTest(fd) && expects(fd.Body, p.TypesInfo, helpers) {
				d.panics.tests[fd.Name.Name] = true
			}
		}
	}
	var errorsNew, all int
	if d.pkg.TypesInfo != nil {
		for _, f := range d.pkg.Syntax {
			ast.Inspect(f, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok && isPanicCall(call, d.pkg.TypesInfo) && len(call.Args) == 1 {
					all++
					if arg, ok := ast.Unparen(call.Args[0]).(*ast.CallExpr); ok {
						if sel, ok := arg.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "New" {
							if pn, ok := d.pkg.TypesInfo.Uses[identOf(sel.X)].(*types.PkgName); ok && pn.Imported().Path() == "errors" {
								errorsNew++
							}
						}
					}
				}
				return true
			})
		}
	}
	d.panics.panicsErrorsNew = all > 0 && 2*errorsNew > all
	return d.panics
}

// identOf is e as an identifier, nil when it is not one.
func identOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}

// isTopLevelTest reports whether fd is a test function go test runs
// (TestX(t *testing.T), ExampleX, FuzzX).
func isTopLevelTest(fd *ast.FuncDecl) bool {
	n := fd.Name.Name
	return gotest.IsTestName(n, "Test") && n != "TestMain" && isTestFunc(fd, "T") ||
		gotest.IsTestName(n, "Fuzz") && isTestFunc(fd, "F") ||
		gotest.IsTestName(n, "Example")
}
