package collect

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
)

// unreadParams are the parameters of the innermost function around a
// site (the last FuncDecl or FuncLit of stack) that its body never reads.
func unreadParams(stack []ast.Node, info *types.Info) []*types.Var {
	ft, body := innermostFunc(stack)
	if ft == nil || body == nil || ft.Params == nil {
		return nil
	}
	var params []*types.Var
	for _, field := range ft.Params.List {
		for _, id := range field.Names {
			if v, ok := info.Defs[id].(*types.Var); ok && id.Name != "_" {
				params = append(params, v)
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			params = slices.DeleteFunc(params, func(v *types.Var) bool { return info.Uses[id] == v })
		}
		return len(params) > 0
	})
	return params
}

// innermostFunc is the type and body of the innermost function around a
// site: the last FuncDecl or FuncLit of stack.
func innermostFunc(stack []ast.Node) (*ast.FuncType, *ast.BlockStmt) {
	for _, n := range slices.Backward(stack) {
		switch n := n.(type) {
		case *ast.FuncDecl:
			return n.Type, n.Body
		case *ast.FuncLit:
			return n.Type, n.Body
		}
	}
	return nil, nil
}

// unreadSubstitutions returns cond, as written in src (of file tf), with
// one of its operands replaced by a parameter its function never reads,
// of the operand's type: a function that takes a value and never reads
// it was most likely meant to (BurntSushi/toml's eStruct passed
// totalFields to a closure testing `fieldIndex[0] != len(fields)-1`,
// which had to be `fieldIndex[0] != totalFields-1`). Constants, the
// names of functions and fields, and cond as a whole are not replaced.
func unreadSubstitutions(cond ast.Expr, stack []ast.Node, info *types.Info, src []byte, tf *token.File) []string {
	params := unreadParams(stack, info)
	if len(params) == 0 {
		return nil
	}
	var out []string
	replaceableOperands(cond, info, func(e ast.Expr, tv types.TypeAndValue) {
		for _, p := range params {
			if types.Identical(tv.Type, p.Type()) {
				out = appendSpliced(out, src, tf, cond, e, p.Name())
			}
		}
	})
	return out
}

// appendSpliced appends to out cond, as written in src (of file tf), with
// its operand e replaced by with, unless out has it.
func appendSpliced(out []string, src []byte, tf *token.File, cond, e ast.Expr, with string) []string {
	s := string(src[tf.Offset(cond.Pos()):tf.Offset(e.Pos())]) + with + string(src[tf.Offset(e.End()):tf.Offset(cond.End())])
	if slices.Contains(out, s) {
		return out
	}
	return append(out, s)
}

// replaceableOperands calls visit with each operand of cond that a
// substitution may replace, and its type: values, not constants, the
// names of functions and fields, or cond as a whole.
func replaceableOperands(cond ast.Expr, info *types.Info, visit func(e ast.Expr, tv types.TypeAndValue)) {
	ast.Inspect(cond, func(n ast.Node) bool {
		e, ok := n.(ast.Expr)
		if !ok || e == cond {
			return true
		}
		tv, ok := info.Types[e]
		if ok && tv.Value == nil && tv.IsValue() && !isCallee(cond, e) && !isFieldName(cond, e) {
			visit(e, tv)
		}
		return true
	})
}

// isCallee reports whether e is the function of a call in root.
func isCallee(root, e ast.Expr) bool {
	return occurs(root, func(n ast.Node) bool { c, ok := n.(*ast.CallExpr); return ok && c.Fun == e })
}

// isFieldName reports whether e is the selected name of a selector in
// root (Sel in x.Sel).
func isFieldName(root, e ast.Expr) bool {
	return occurs(root, func(n ast.Node) bool { s, ok := n.(*ast.SelectorExpr); return ok && s.Sel == e })
}

// occurs reports whether a node of root satisfies is.
func occurs(root ast.Node, is func(ast.Node) bool) bool {
	found := false
	ast.Inspect(root, func(n ast.Node) bool {
		found = found || (n != nil && is(n))
		return !found
	})
	return found
}
