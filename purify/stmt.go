package purify

import (
	"go/token"
	"strings"
	"unicode"

	"github.com/dave/dst"
)

// This file is Split's view of a top-level statement of a test: what it
// declares, uses and may change, and whether it is a check.

// pureFuncPkgs are packages whose functions a check may call and stay a
// check in Prefix mode.
var pureFuncPkgs = map[string]bool{
	"fmt": true, "strings": true, "bytes": true, "errors": true, "strconv": true, "reflect": true, "math": true,
}

// reportsOnly reports whether s calls nothing but t's reporting methods,
// builtins and functions of pureFuncPkgs, and declares and assigns nothing
// outside itself: dropping it from a fragment changes no state.
func reportsOnly(s dst.Stmt, tname string) bool {
	switch s.(type) {
	case *dst.IfStmt, *dst.ExprStmt:
	default:
		return false
	}
	ok := true
	dst.Inspect(s, func(n dst.Node) bool {
		switch n := n.(type) {
		case *dst.FuncLit, *dst.AssignStmt, *dst.IncDecStmt, *dst.SendStmt, *dst.GoStmt, *dst.DeferStmt:
			ok = false
		case *dst.CallExpr:
			switch fun := unparen(n.Fun).(type) {
			case *dst.Ident:
				switch fun.Name {
				case "len", "cap", "string", "int", "float64", "byte", "rune":
				default:
					ok = false
				}
			case *dst.SelectorExpr:
				id, isID := fun.X.(*dst.Ident)
				switch {
				case !isID:
					ok = false
				case id.Name == tname && tname != "":
					ok = ok && checkMethods[fun.Sel.Name] && fun.Sel.Name != "Run"
				default:
					ok = ok && pureFuncPkgs[id.Name]
				}
			default:
				ok = false
			}
		}
		return ok
	})
	return ok
}

// stmtKind says what a top-level statement is to the fragments after it.
type stmtKind uint8

const (
	kindOther stmtKind = iota
	kindCheck          // setup only when it changes what a fragment uses
	kindEnv            // always setup
)

// stmtInfo is what Split knows of a top-level statement.
type stmtInfo struct {
	kind stmtKind
	// declared are the names it declares in the function's scope (vars,
	// consts, types); vars the variables among them, in order.
	declared map[string]bool
	vars     []string
	// uses are the names it mentions; mutates those it may change.
	uses, mutates map[string]bool
	// simple reports a statement without blocks: a call, an assignment,
	// inc/dec, defer, go or send.
	simple bool
	// calls are the functions called by name: calling a local closure may
	// change what it captured.
	calls map[string]bool
	// assigned are the variables a simple assignment or inc/dec changes:
	// one that is not local (a package variable) makes it setup of every
	// later fragment.
	assigned map[string]bool
}

// testMethods are the methods of *testing.T by role; others are kindOther.
var (
	checkMethods = map[string]bool{
		"Error": true, "Errorf": true, "Fatal": true, "Fatalf": true, "Log": true, "Logf": true,
		"Fail": true, "FailNow": true, "Skip": true, "Skipf": true, "SkipNow": true, "Run": true,
		"Helper": true,
	}
	envMethods = map[string]bool{"Parallel": true, "Setenv": true, "Chdir": true, "Cleanup": true}
)

func intersects(a, b map[string]bool) bool {
	for n := range a {
		if b[n] {
			return true
		}
	}
	return false
}

// analyzeStmt classifies a top-level statement of a test whose *testing.T
// parameter is tname.
func analyzeStmt(s dst.Stmt, tname string) stmtInfo {
	in := stmtInfo{declared: map[string]bool{}, uses: map[string]bool{}, mutates: map[string]bool{}, assigned: map[string]bool{}, calls: map[string]bool{}}
	inner := s
	for {
		l, ok := inner.(*dst.LabeledStmt)
		if !ok {
			break
		}
		inner = l.Stmt
	}
	switch x := inner.(type) {
	case *dst.AssignStmt:
		in.simple = true
		if x.Tok != token.DEFINE {
			for _, e := range x.Lhs {
				markRoot(in.assigned, e)
			}
		}
		if x.Tok == token.DEFINE {
			for _, e := range x.Lhs {
				if id, ok := e.(*dst.Ident); ok && id.Name != "_" {
					in.declared[id.Name] = true
					in.vars = append(in.vars, id.Name)
				}
			}
		}
	case *dst.DeclStmt:
		if g, ok := x.Decl.(*dst.GenDecl); ok {
			for _, sp := range g.Specs {
				switch sp := sp.(type) {
				case *dst.ValueSpec:
					for _, id := range sp.Names {
						if id.Name == "_" {
							continue
						}
						in.declared[id.Name] = true
						if g.Tok == token.VAR {
							in.vars = append(in.vars, id.Name)
						}
					}
				case *dst.TypeSpec:
					in.declared[sp.Name.Name] = true
				}
			}
		}
	case *dst.IncDecStmt:
		in.simple = true
		markRoot(in.assigned, x.X)
	case *dst.ExprStmt, *dst.DeferStmt, *dst.GoStmt, *dst.SendStmt:
		in.simple = true
	}
	sels := map[*dst.Ident]bool{}
	dst.Inspect(s, func(n dst.Node) bool {
		switch n := n.(type) {
		case *dst.SelectorExpr:
			sels[n.Sel] = true
		case *dst.Ident:
			if !sels[n] {
				in.uses[n.Name] = true
			}
		case *dst.AssignStmt:
			if n.Tok != token.DEFINE {
				for _, e := range n.Lhs {
					markRoot(in.mutates, e)
				}
			}
		case *dst.IncDecStmt:
			markRoot(in.mutates, n.X)
		case *dst.RangeStmt:
			if n.Tok == token.ASSIGN {
				markRoot(in.mutates, n.Key)
				markRoot(in.mutates, n.Value)
			}
		case *dst.UnaryExpr:
			if n.Op == token.AND {
				markRoot(in.mutates, n.X)
			}
		case *dst.CallExpr:
			// A method called on a variable may change it, unless its
			// name says it reads.
			if sel, ok := n.Fun.(*dst.SelectorExpr); ok && !readMethod(sel.Sel.Name) {
				markRoot(in.mutates, sel.X)
			}
			if id, ok := unparen(n.Fun).(*dst.Ident); ok {
				in.calls[id.Name] = true
			}
		}
		return true
	})
	delete(in.mutates, tname)
	in.kind = classify(inner, tname, in)
	// Arguments of a call made for its effects only, other than a check,
	// may be changed by it (sort.Ints(xs)).
	if es, ok := inner.(*dst.ExprStmt); ok && in.kind != kindCheck {
		if c, ok := es.X.(*dst.CallExpr); ok {
			for _, a := range c.Args {
				if id, ok := a.(*dst.Ident); ok && id.Name != tname {
					markRoot(in.mutates, a)
				}
			}
		}
	}
	return in
}

// classify says whether a statement is a check, environment setup, or
// other.
func classify(s dst.Stmt, tname string, in stmtInfo) stmtKind {
	switch x := s.(type) {
	case *dst.IfStmt:
		if len(in.mutates) == 0 && len(in.declared) == 0 {
			return kindCheck
		}
	case *dst.ExprStmt:
		c, ok := x.X.(*dst.CallExpr)
		if !ok {
			return kindOther
		}
		if sel, ok := c.Fun.(*dst.SelectorExpr); ok {
			if id, ok := sel.X.(*dst.Ident); ok && id.Name == tname && tname != "" {
				switch {
				case checkMethods[sel.Sel.Name]:
					return kindCheck
				case envMethods[sel.Sel.Name]:
					return kindEnv
				}
			}
		}
		if len(c.Args) > 0 {
			if id, ok := c.Args[0].(*dst.Ident); ok && id.Name == tname && tname != "" {
				return kindCheck // assert.Equal(t, ...), check(t, ...)
			}
		}
	}
	return kindOther
}

// readMethod reports whether a method of this name is taken to leave its
// receiver unchanged: Len, Cap, Size, String, Error, Empty, Peek, Equal,
// Contains, IsX, HasX.
func readMethod(name string) bool {
	switch name {
	case "Len", "Cap", "Size", "String", "Error", "Empty", "IsEmpty", "Peek", "Equal", "Contains":
		return true
	}
	for _, p := range []string{"Is", "Has"} {
		if len(name) > len(p) && strings.HasPrefix(name, p) && unicode.IsUpper(rune(name[len(p)])) {
			return true
		}
	}
	return false
}

// markRoot adds the variable at the root of e (v in v, v.f, v[i], *v) to m.
func markRoot(m map[string]bool, e dst.Expr) {
	for e != nil {
		switch x := e.(type) {
		case *dst.Ident:
			if x.Name != "_" {
				m[x.Name] = true
			}
			return
		case *dst.SelectorExpr:
			e = x.X
		case *dst.IndexExpr:
			e = x.X
		case *dst.StarExpr:
			e = x.X
		case *dst.ParenExpr:
			e = x.X
		default:
			return
		}
	}
}

func hasGoto(b *dst.BlockStmt) bool {
	found := false
	dst.Inspect(b, func(n dst.Node) bool {
		if br, ok := n.(*dst.BranchStmt); ok && br.Tok == token.GOTO {
			found = true
		}
		return !found
	})
	return found
}
