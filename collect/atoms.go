package collect

import (
	"go/ast"
	"go/token"
	"go/types"
	"go/version"
	"slices"
)

// atom is a sub-expression of a Cond site's condition whose value is
// recorded as the program evaluates it (see atoms).
type atom struct {
	// exprs are the occurrences of the atom (types.ExprString equal),
	// all recorded into the same slot: the value recorded is the last
	// evaluated.
	exprs []ast.Expr
	kind  ValueKind
	// plain reports that the atom's type is bool, int, float64, string
	// or untyped bool, for which there are non-generic hooks (NopolAPB,
	// NopolAPI, NopolAPF, NopolAPS), the only ones before Go 1.18.
	plain bool
}

// plainType reports whether t has a non-generic atom hook.
func plainType(t types.Type) bool {
	b, ok := types.Unalias(t).(*types.Basic)
	if !ok {
		return false
	}
	switch b.Kind() {
	case types.Bool, types.UntypedBool, types.Int, types.Float64, types.String:
		return true
	}
	return false
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
// Indexes are atoms although the snapshot may observe them: a condition
// that compares one (path[0] == '-') is then an input of synthesis
// whole, as a call's comparison is (the snapshot leaves out a Cond
// site's own condition), and path[0] == '-' && kind != FilePath is as
// small as a fit of other inputs.
func (o *observer) atoms(cond ast.Expr) []atom {
	var out []atom
	seen := map[string]int{} // index in out + 1
	add := func(e ast.Expr, bool bool) {
		tv, ok := o.info.Types[e]
		if !ok || tv.Value != nil || !tv.IsValue() || o.safeExpr(e, false) {
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
		out = append(out, atom{[]ast.Expr{e}, k, plainType(tv.Type)})
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

// siblingConstants returns the constants of other packages that the
// file refers to (reflect.Array) and that have the named type of a
// constant compared in cond (reflect.Slice in t.Kind() == reflect.Slice),
// or of an observed call's result (reflect.Interface for v.Kind(),
// observer.enums; cond may be nil):
// the values a fixed condition most likely compares with, which neither
// the function's literals nor the package's constants hold. Those of the
// enclosing function fn come first, then those of the rest of the file,
// in source order, written as in the file, without duplicates.
func (o *observer) siblingConstants(cond ast.Expr, fn ast.Node) []Constant {
	named := append([]types.Type(nil), o.enums...)
	if cond != nil {
		ast.Inspect(cond, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.BinaryExpr:
				for _, e := range []ast.Expr{x.X, x.Y} {
					if tv, ok := o.info.Types[ast.Unparen(e)]; ok && tv.Value != nil {
						if _, ok := types.Unalias(tv.Type).(*types.Named); ok && kindOf(tv.Type) != 0 {
							named = append(named, tv.Type)
						}
					}
				}
			}
			return true
		})
	}
	if len(named) == 0 {
		return nil
	}
	var out []Constant
	seen := map[string]bool{}
	add := func(fc fileConst) {
		if seen[fc.expr] {
			return
		}
		for _, t := range named {
			if types.Identical(fc.c.Type(), t) {
				if v, ok := constValue(fc.c.Val()); ok {
					seen[fc.expr] = true
					out = append(out, Constant{Expr: fc.expr, Value: v, Type: typeName(fc.c.Type())})
				}
				break
			}
		}
	}
	consts := o.facts.foreignConsts
	if fn != nil {
		for _, fc := range consts {
			if contains(fn, fc.sel) {
				add(fc)
			}
		}
	}
	for _, fc := range consts {
		add(fc)
	}
	return out
}

// withCondConstants returns cs with the named constants cond reads that
// cs lacks appended, past maxConstants if need be: a package with many
// constants (uniseg's 40 line-break properties) leaves some of those the
// condition compares with out of the first maxConstants, and the rules
// that read a condition's constants by value (nopol's dead-clause: `prop
// == prFormat && prop != prZWJ`) need them all. cond may be nil.
func (o *observer) withCondConstants(cs []Constant, cond ast.Expr) []Constant {
	if cond == nil {
		return cs
	}
	ast.Inspect(cond, func(n ast.Node) bool {
		var id *ast.Ident
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.Ident:
			id = x
		case *ast.SelectorExpr:
			id = x.Sel
		default:
			return true
		}
		c, ok := o.info.Uses[id].(*types.Const)
		if !ok {
			return true
		}
		expr := types.ExprString(n.(ast.Expr))
		if slices.ContainsFunc(cs, func(k Constant) bool { return k.Expr == expr }) {
			return false
		}
		if v, ok := constValue(c.Val()); ok {
			cs = append(cs, Constant{Expr: expr, Value: v, Type: typeName(c.Type())})
		}
		return false
	})
	return cs
}

// maxSiblings bounds the sibling constants of a site.
const maxSiblings = 12

// mergeConstants returns at most maxSiblings of siblings, then the
// constants of cs whose Expr is not among them, at most maxConstants in
// all.
func mergeConstants(siblings, cs []Constant) []Constant {
	if len(siblings) == 0 {
		return cs
	}
	siblings = siblings[:min(len(siblings), maxSiblings)]
	seen := map[string]bool{}
	out := make([]Constant, 0, maxConstants)
	for _, c := range siblings {
		seen[c.Expr] = true
		out = append(out, c)
	}
	for _, c := range cs {
		if !seen[c.Expr] && len(out) < maxConstants {
			out = append(out, c)
		}
	}
	return out
}
