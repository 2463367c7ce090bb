// Package astname names Go declarations the way nopol reports them.
package astname

import "go/ast"

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
