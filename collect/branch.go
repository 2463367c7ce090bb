package collect

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Branch describes the then-branch of a Cond site's if statement: what a
// candidate condition must not take away (see the root package's
// anti-patterns).
type Branch struct {
	// Panics reports a branch that ends in a panic; ReturnsError one that
	// returns a non-nil error (a result that is not nil and whose type
	// implements error: error itself or a concrete error type).
	Panics, ReturnsError bool `json:",omitempty"`
	// Exits reports a branch that ends by leaving: return, break,
	// continue, goto or panic.
	Exits bool `json:",omitempty"`
	// Errors are the error values the branch returns, as written, when
	// they are variables or fields (err in return nil, err).
	Errors []string `json:",omitempty"`
	// Derefs are the expressions the branch dereferences, as written:
	// x in x.f, x.m(), *x, x[i] (pointers, maps, slices, interfaces).
	Derefs []string `json:",omitempty"`
}

// thenBranch describes the body of n.
func thenBranch(n *ast.IfStmt, info *types.Info) *Branch {
	b := &Branch{}
	if k := len(n.Body.List); k > 0 {
		switch last := n.Body.List[k-1].(type) {
		case *ast.ReturnStmt:
			b.Exits = true
			// An error is a result whose type implements error: the
			// interface itself, or a concrete &InvalidVersionError{...}.
			errType := types.Universe.Lookup("error").Type().Underlying().(*types.Interface)
			for _, r := range last.Results {
				tv, ok := info.Types[r]
				if ok && !tv.IsNil() && tv.Type != nil && types.Implements(tv.Type, errType) {
					b.ReturnsError = true
					switch ast.Unparen(r).(type) {
					case *ast.Ident, *ast.SelectorExpr:
						b.Errors = append(b.Errors, types.ExprString(r))
					}
				}
			}
		case *ast.BranchStmt:
			b.Exits = last.Tok != token.FALLTHROUGH
		case *ast.ExprStmt:
			if isPanic(last.X, info) {
				b.Exits, b.Panics = true, true
			}
		}
	}
	seen := map[string]bool{}
	deref := func(x ast.Expr) {
		x = ast.Unparen(x)
		tv, ok := info.Types[x]
		if !ok || !nilable(tv.Type) {
			return
		}
		if s := types.ExprString(x); !seen[s] {
			seen[s] = true
			b.Derefs = append(b.Derefs, s)
		}
	}
	ast.Inspect(n.Body, func(node ast.Node) bool {
		switch e := node.(type) {
		case *ast.SelectorExpr:
			if sel, ok := info.Selections[e]; ok && sel.Indirect() || isInterface(info, e.X) {
				deref(e.X)
			}
		case *ast.StarExpr:
			deref(e.X)
		case *ast.IndexExpr:
			deref(e.X)
		case *ast.FuncLit:
			return false // runs later, if at all
		}
		return true
	})
	return b
}

func isInterface(info *types.Info, x ast.Expr) bool {
	tv, ok := info.Types[x]
	return ok && tv.IsValue() && types.IsInterface(tv.Type)
}

// nilable reports whether a value of type t can be nil and is dereferenced
// (or indexed) through it.
func nilable(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Map, *types.Slice, *types.Interface:
		return true
	}
	return false
}

// loopVars are the names of the integer loop counters in scope at the top
// of stack: the variables declared by the init statement of an enclosing
// for loop, and the key of a range over a slice, array, string or integer.
func loopVars(stack []ast.Node, info *types.Info) []string {
	var out []string
	add := func(x ast.Expr) {
		id, ok := x.(*ast.Ident)
		if !ok || id.Name == "_" {
			return
		}
		if obj := info.Defs[id]; obj != nil {
			if b, ok := obj.Type().Underlying().(*types.Basic); ok && b.Info()&types.IsInteger != 0 {
				out = append(out, id.Name)
			}
		}
	}
	for _, n := range stack {
		switch n := n.(type) {
		case *ast.ForStmt:
			if as, ok := n.Init.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
				for _, l := range as.Lhs {
					add(l)
				}
			}
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE && n.Key != nil && countsUp(info, n.X) {
				add(n.Key)
			}
		case *ast.FuncLit, *ast.FuncDecl:
			out = out[:0] // a closure's loops are its own
		}
	}
	return out
}

// countsUp reports whether ranging over x gives integer indexes as keys.
func countsUp(info *types.Info, x ast.Expr) bool {
	tv, ok := info.Types[x]
	if !ok {
		return false
	}
	t := tv.Type.Underlying()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem().Underlying()
	}
	switch t := t.(type) {
	case *types.Slice, *types.Array:
		return true
	case *types.Basic:
		return t.Info()&(types.IsString|types.IsInteger) != 0
	}
	return false
}
