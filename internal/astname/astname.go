// Package astname names Go declarations the way nopol reports them.
package astname

import (
	"go/ast"
	"go/token"
)

// Func names a function declaration: "Name" for a function, "Recv.Name" for
// a method, whatever the receiver's pointer, parentheses or type
// parameters ("func (s *Set[T]) Add" is "Set.Add").
func Func(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
			continue
		case *ast.ParenExpr:
			t = x.X
			continue
		case *ast.IndexExpr:
			t = x.X
			continue
		case *ast.IndexListExpr:
			t = x.X
			continue
		}
		break
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return fd.Name.Name
}

// Callee is the name a call is made through: f in f(x), pkg.F's F and
// x.m's m; nil for a call of any other expression (a function literal, a
// call's result).
func Callee(call *ast.CallExpr) *ast.Ident {
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		return f
	case *ast.SelectorExpr:
		return f.Sel
	}
	return nil
}

// BoolAtoms calls yield with each atom of the boolean expression e: its
// operands below &&, || and !, parentheses removed, left to right
// (a, b and c in a && !(b || c)).
func BoolAtoms(e ast.Expr, yield func(ast.Expr)) {
	e = ast.Unparen(e)
	switch x := e.(type) {
	case *ast.BinaryExpr:
		if x.Op == token.LAND || x.Op == token.LOR {
			BoolAtoms(x.X, yield)
			BoolAtoms(x.Y, yield)
			return
		}
	case *ast.UnaryExpr:
		if x.Op == token.NOT {
			BoolAtoms(x.X, yield)
			return
		}
	}
	yield(e)
}

// HasCall reports whether e has a call expression (a conversion counts
// too: the syntax cannot tell them apart).
func HasCall(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if _, ok := n.(*ast.CallExpr); ok {
			found = true
		}
		return !found
	})
	return found
}

// Calls are the call expressions of e (conversions too), in preorder.
func Calls(e ast.Expr) []*ast.CallExpr { return All[*ast.CallExpr](e) }

// All are the nodes of type T under root (root included), in preorder.
func All[T ast.Node](root ast.Node) []T {
	var out []T
	ast.Inspect(root, func(n ast.Node) bool {
		if x, ok := n.(T); ok {
			out = append(out, x)
		}
		return true
	})
	return out
}
