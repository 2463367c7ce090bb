package collect

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
)

// nonNegative returns Site.NonNegative for cond, a condition in fn (the
// outermost function around it): the local integer variables cond reads
// that every assignment in fn keeps at zero or above: declared with no
// value, or assigned a length, a capacity, a non-negative constant, or a
// sum or product of those and the variable itself; incremented; the key
// of a range over a slice, an array, a string or an integer. A variable
// whose address is taken, or that a tuple assignment sets, is not one.
func nonNegative(cond ast.Expr, fn ast.Node, info *types.Info) []string {
	if cond == nil || fn == nil {
		return nil
	}
	var vars []*types.Var
	ast.Inspect(cond, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		v, ok := info.Uses[id].(*types.Var)
		if !ok || v.IsField() || slices.Contains(vars, v) || !isIntegerVar(v) || !declaredIn(v, fn) {
			return true
		}
		vars = append(vars, v)
		return true
	})
	if len(vars) == 0 {
		return nil
	}
	bad := map[*types.Var]bool{}
	declared := map[*types.Var]bool{}
	objOf := func(e ast.Expr) *types.Var {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return nil
		}
		obj := info.Defs[id]
		if obj == nil {
			obj = info.Uses[id]
		}
		v, _ := obj.(*types.Var)
		if v == nil || !slices.Contains(vars, v) {
			return nil
		}
		return v
	}
	ast.Inspect(fn, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				v := objOf(l)
				if v == nil {
					continue
				}
				declared[v] = true
				switch {
				case len(n.Lhs) != len(n.Rhs):
					bad[v] = true
				case n.Tok == token.DEFINE || n.Tok == token.ASSIGN || n.Tok == token.ADD_ASSIGN || n.Tok == token.MUL_ASSIGN:
					if !nonNegativeExpr(n.Rhs[i], v, info) {
						bad[v] = true
					}
				default:
					bad[v] = true
				}
			}
		case *ast.IncDecStmt:
			if v := objOf(n.X); v != nil && n.Tok == token.DEC {
				bad[v] = true
			}
		case *ast.UnaryExpr:
			if v := objOf(n.X); v != nil && n.Op == token.AND {
				bad[v] = true
			}
		case *ast.RangeStmt:
			if v := objOf(n.Key); v != nil {
				declared[v] = true
				if !countsUp(info, n.X) {
					bad[v] = true
				}
			}
			if v := objOf(n.Value); v != nil {
				bad[v] = true
			}
		case *ast.ValueSpec:
			for i, name := range n.Names {
				v := objOf(name)
				if v == nil {
					continue
				}
				declared[v] = true
				if len(n.Values) > 0 && (len(n.Values) != len(n.Names) || !nonNegativeExpr(n.Values[i], v, info)) {
					bad[v] = true
				}
			}
		}
		return true
	})
	var out []string
	for _, v := range vars {
		if declared[v] && !bad[v] {
			out = append(out, v.Name())
		}
	}
	return out
}

// isIntegerVar reports whether v is of an integer type.
func isIntegerVar(v *types.Var) bool {
	b, ok := v.Type().Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// declaredIn reports whether v is declared inside fn's body (not a
// parameter or a result).
func declaredIn(v *types.Var, fn ast.Node) bool {
	var body *ast.BlockStmt
	switch f := fn.(type) {
	case *ast.FuncDecl:
		body = f.Body
	case *ast.FuncLit:
		body = f.Body
	}
	return body != nil && body.Pos() <= v.Pos() && v.Pos() < body.End()
}

// nonNegativeExpr reports whether e is zero or more whatever the values
// it reads: a non-negative integer constant, len or cap of something,
// self (the variable assigned), or a sum or product of those.
func nonNegativeExpr(e ast.Expr, self *types.Var, info *types.Info) bool {
	e = ast.Unparen(e)
	if tv, ok := info.Types[e]; ok && tv.Value != nil {
		return tv.Value.Kind() == constant.Int && constant.Sign(tv.Value) >= 0
	}
	switch x := e.(type) {
	case *ast.Ident:
		return info.Uses[x] == self
	case *ast.CallExpr:
		f, ok := ast.Unparen(x.Fun).(*ast.Ident)
		return ok && (f.Name == "len" || f.Name == "cap") && len(x.Args) == 1 && info.Uses[f] == types.Universe.Lookup(f.Name)
	case *ast.BinaryExpr:
		return (x.Op == token.ADD || x.Op == token.MUL) && nonNegativeExpr(x.X, self, info) && nonNegativeExpr(x.Y, self, info)
	}
	return false
}
