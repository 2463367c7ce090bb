package collect

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
)

// maxAlternates bounds the alternates of one condition.
const maxAlternates = 8

// alternateSubstitutions returns cond, as written in src (of file tf), with
// one of its operands replaced by an expression of the operand's type
// that its function writes elsewhere and that the code ties to the
// operand:
//
//   - a boolean local, in scope at the condition, defined by a chain of
//     && or || of which the operand is a clause: the code refined the
//     flag and the condition kept the raw one (BurntSushi/toml's eStruct
//     defined `isEmbed := f.Anonymous && …` and tested `!f.Anonymous`
//     after it, where `!isEmbed` was meant). A value merely computed
//     from the operand is no refinement of it (`m := (min + max) / 2`
//     for min in npe-math369);
//   - the same receiver's other method, called with the same arguments,
//     as the function writes it: of two methods alike the condition
//     called the wrong one (pflag's getFlagType compared a flag's type
//     with `reflect.TypeOf(out).Name()` and printed
//     `reflect.TypeOf(out).String()` in the error it returned; the
//     latter was meant).
//
// Fields are not swapped: a struct's fields of one type are many, and the
// suite passes with the wrong one too often (`l.Offset == m.Slope` for
// `l.Slope == m.Slope` in npe-math988a). Nor is a method call compared
// with the same method of another value (`x.Len() == y.Len()`): like is
// compared with like.
//
// Constants, the names of functions and fields, and cond as a whole are
// not replaced; the result keeps the order of the operands in cond, then
// of the writes in the function.
func alternateSubstitutions(cond ast.Expr, stack []ast.Node, info *types.Info, src []byte, tf *token.File) []string {
	_, body := innermostFunc(stack)
	if body == nil {
		return nil
	}
	text := func(e ast.Node) string { return string(src[tf.Offset(e.Pos()):tf.Offset(e.End())]) }
	inCond := func(n ast.Node) bool { return n.Pos() >= cond.Pos() && n.End() <= cond.End() }

	// The locals defined or assigned before cond, with the expressions
	// that define them; the method calls the function writes outside cond.
	type local struct {
		v   *types.Var
		rhs ast.Expr
	}
	var locals []local
	addLocal := func(id *ast.Ident, rhs ast.Expr) {
		if v := localVar(id, info); v != nil && v.Parent().Contains(cond.Pos()) {
			locals = append(locals, local{v, rhs})
		}
	}
	var calls []ast.Expr
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return !inCond(n)
		case *ast.AssignStmt:
			if (n.Tok != token.DEFINE && n.Tok != token.ASSIGN) || len(n.Lhs) != len(n.Rhs) || n.Pos() >= cond.Pos() {
				break
			}
			for i, l := range n.Lhs {
				if id, ok := l.(*ast.Ident); ok {
					addLocal(id, n.Rhs[i])
				}
			}
		case *ast.ValueSpec:
			if len(n.Names) != len(n.Values) || n.Pos() >= cond.Pos() {
				break
			}
			for i, id := range n.Names {
				addLocal(id, n.Values[i])
			}
		case *ast.CallExpr:
			if s, ok := n.Fun.(*ast.SelectorExpr); ok && !inCond(n) && isMember(s, info, types.MethodVal) {
				calls = append(calls, n)
			}
		}
		return true
	})

	var out []string
	add := func(e ast.Expr, with string) {
		if len(out) < maxAlternates {
			out = appendSpliced(out, src, tf, cond, e, with)
		}
	}
	replaceableOperands(cond, info, func(e ast.Expr, tv types.TypeAndValue) {
		operand := text(e)
		for _, l := range locals {
			if id, ok := ast.Unparen(e).(*ast.Ident); ok && info.Uses[id] == l.v {
				continue
			}
			if types.Identical(l.v.Type(), tv.Type) && slices.ContainsFunc(clausesOf(l.rhs), func(x ast.Expr) bool { return text(x) == operand }) {
				add(e, l.v.Name())
			}
		}
		recv, member := receiverOf(e, info)
		if recv == "" || likeWithLike(cond, e, info) {
			return
		}
		for _, w := range calls {
			wrecv, wmember := receiverOf(w, info)
			if wrecv == recv && wmember != member && types.Identical(info.TypeOf(w), tv.Type) {
				add(e, text(w))
			}
		}
	})
	return out
}

// localVar is the variable id defines or assigns when it is a local of a
// function (not a package-level variable), or nil.
func localVar(id *ast.Ident, info *types.Info) *types.Var {
	obj := info.Defs[id]
	if obj == nil {
		obj = info.Uses[id]
	}
	v, ok := obj.(*types.Var)
	if !ok || v.IsField() || v.Parent() == nil || v.Parent() == v.Pkg().Scope() || id.Name == "_" {
		return nil
	}
	return v
}

// isMember reports whether s selects a member of a value of kind.
func isMember(s *ast.SelectorExpr, info *types.Info, kind types.SelectionKind) bool {
	sel, ok := info.Selections[s]
	return ok && sel.Kind() == kind
}

// receiverOf returns, for e a method call x.m(…), the source of x with
// the call's arguments and the method's name, and "" for any other
// expression.
func receiverOf(e ast.Expr, info *types.Info) (recv, method string) {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || call.Ellipsis.IsValid() {
		return "", ""
	}
	s, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || !isMember(s, info, types.MethodVal) {
		return "", ""
	}
	args := ""
	for _, a := range call.Args {
		args += "," + types.ExprString(a)
	}
	return types.ExprString(s.X) + "(" + args + ")", s.Sel.Name
}

// likeWithLike reports whether e, a method call, is an operand of a
// comparison in cond whose other operand calls the same method.
func likeWithLike(cond, e ast.Expr, info *types.Info) bool {
	_, method := receiverOf(e, info)
	return occurs(cond, func(n ast.Node) bool {
		b, ok := n.(*ast.BinaryExpr)
		if !ok || (ast.Unparen(b.X) != e && ast.Unparen(b.Y) != e) {
			return false
		}
		_, mx := receiverOf(b.X, info)
		_, my := receiverOf(b.Y, info)
		return mx == method && my == method
	})
}

// clausesOf are the operands of the chain of && and || that e is, or
// nothing when e is no such chain.
func clausesOf(e ast.Expr) []ast.Expr {
	b, ok := ast.Unparen(e).(*ast.BinaryExpr)
	if !ok || (b.Op != token.LAND && b.Op != token.LOR) {
		return nil
	}
	var out []ast.Expr
	for _, x := range []ast.Expr{b.X, b.Y} {
		if more := clausesOf(x); more != nil {
			out = append(out, more...)
		} else {
			out = append(out, ast.Unparen(x))
		}
	}
	return out
}
