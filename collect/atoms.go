package collect

import (
	"go/ast"
	"go/token"
	"go/types"
	"go/version"
)

// atom is a sub-expression of a Cond site's condition whose value is
// recorded as the program evaluates it (see atoms).
type atom struct {
	// exprs are the occurrences of the atom (types.ExprString equal),
	// all recorded into the same slot: the value recorded is the last
	// evaluated.
	exprs []ast.Expr
	kind  ValueKind
}

// atomsMinVersion is the language version the atom hooks (generic
// functions) need in the site's file and package.
const atomsMinVersion = "go1.18"

// genericsOK reports whether Go language version v (as in
// types.Package.GoVersion, "" for unknown) can call the generic hooks.
func genericsOK(v string) bool {
	return v == "" || !version.IsValid(v) || version.Compare(v, atomsMinVersion) >= 0
}

// atoms returns the atoms of condition cond, in source order: the maximal
// boolean sub-expressions below its &&, || and ! and parentheses (calls
// included, such as f.CanAddr()), and the operands of basic kind of the
// comparisons among them (v.Len() in v.Len() > 0). Constants, operands
// that are not of a basic kind, and expressions that are safe to observe
// (already in the snapshot) are left out: the atoms are what the snapshot
// cannot observe without calling functions, and they are recorded
// without any extra evaluation, by the instrumented condition itself.
func (o *observer) atoms(cond ast.Expr) []atom {
	var out []atom
	seen := map[string]int{} // index in out + 1
	add := func(e ast.Expr, bool bool) {
		tv, ok := o.info.Types[e]
		if !ok || tv.Value != nil || !tv.IsValue() || o.safe(e) {
			return
		}
		k := kindOf(tv.Type)
		if k == 0 || (bool && k != KindBool) {
			return
		}
		if b, ok := tv.Type.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 && k != KindBool {
			return // its type depends on the context the hook would hide
		}
		s := types.ExprString(e)
		if i := seen[s]; i > 0 {
			out[i-1].exprs = append(out[i-1].exprs, e)
			return
		}
		out = append(out, atom{[]ast.Expr{e}, k})
		seen[s] = len(out)
	}
	var walk func(e ast.Expr)
	walk = func(e ast.Expr) {
		switch x := e.(type) {
		case *ast.ParenExpr:
			walk(x.X)
			return
		case *ast.UnaryExpr:
			if x.Op == token.NOT {
				walk(x.X)
				return
			}
		case *ast.BinaryExpr:
			switch x.Op {
			case token.LAND, token.LOR:
				walk(x.X)
				walk(x.Y)
				return
			case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
				add(x, true)
				add(ast.Unparen(x.X), false)
				add(ast.Unparen(x.Y), false)
				return
			}
		}
		add(e, true)
	}
	walk(cond)
	return out
}
