package collect

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// Guards that panic, offered only in a package whose tests recover panics
// (recoversPanics): a panic can make a failing test pass only where the
// test expects one (`assert.Panics`, a deferred recover).
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
// by, with its strategy; "" when the package's tests recover no panic.
func (o *observer) panicExit(fn ast.Node, src []byte, tf *token.File, fnName string) (string, string) {
	if !o.pkgFacts.recoversPanics {
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
	// recoversPanics: a test file of the package (internal or external)
	// calls recover or an assertion that a function panics (a name with
	// "Panics" but not "NotPanics": testify's Panics, PanicsWithValue,
	// PanicsWithError).
	recoversPanics bool
	// panicsErrorsNew: most of the panics of the package's own files
	// panic with errors.New(...).
	panicsErrorsNew bool
}

// panicFacts returns d's pkgPanics, found on first use.
func (d *pkgData) panicFacts() *pkgPanics {
	if d.panics != nil {
		return d.panics
	}
	d.panics = &pkgPanics{}
	for _, p := range d.tests {
		for _, f := range p.Syntax {
			if tf := p.Fset.File(f.Pos()); tf == nil || !strings.HasSuffix(tf.Name(), "_test.go") {
				continue
			}
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || d.panics.recoversPanics {
					return !d.panics.recoversPanics
				}
				var name string
				switch fun := ast.Unparen(call.Fun).(type) {
				case *ast.Ident:
					name = fun.Name
					if _, builtin := p.TypesInfo.Uses[fun].(*types.Builtin); builtin && name == "recover" {
						d.panics.recoversPanics = true
					}
				case *ast.SelectorExpr:
					name = fun.Sel.Name
				}
				if strings.Contains(name, "Panics") && !strings.Contains(name, "NotPanics") {
					d.panics.recoversPanics = true
				}
				return true
			})
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
