package collect

import (
	"go/ast"
	"go/types"
	"slices"
	"sort"
)

// NpeFix's replacement strategies (Cornu's thesis, ch. 6), for a
// statement that dereferences a nil value: before the statement,
// `if x == nil { x = v }`, x the dereferenced operand (a variable or a
// field), v in this order:
//
//   - StrategyNilVar: an in-scope variable of x's type (NpeFix s1b:
//     parameters and the receiver, then locals, innermost first, then
//     the package's variables);
//   - StrategyNilNew: a new instance (NpeFix s2b): &T{} for a pointer to
//     a struct, make for a map, and for an interface a type of the
//     package that implements it (T{} or &T{}, found with go/types).
//
// Only the "global" variants: x keeps the value for the rest of the
// function (Go has no conditional expression for NpeFix's local s1a/s2a).
const (
	StrategyNilVar = "nil-in-scope-value"
	StrategyNilNew = "nil-new-instance"
)

// NilFix is one replacement of a nil operand, before a Guard site's
// statement: `if Operand == nil { Body }`.
type NilFix struct {
	Operand, Body, Strategy string
	// Passed reports an operand the statement passes to a call rather
	// than dereferences: for a panic's caller frame, where the nil may
	// come from.
	Passed bool `json:",omitempty"`
}

// Bounds of the replacements of one statement.
const (
	maxNilOperands = 3
	maxNilValues   = 3
)

// nilFixes returns the replacements of the nil operands that stmt
// dereferences (fields selected through a pointer, methods called on an
// interface or through a pointer with a value receiver, *x, calls of a
// function value), then of the nil-able operands it passes to declared
// functions (NilFix.Passed). fn is the function around stmt. derefs are
// the operands stmt dereferences that can be tested against nil there,
// whether or not they have a replacement.
func (o *observer) nilFixes(stmt ast.Stmt, fn ast.Node) (fixes []NilFix, derefs []string) {
	inner := o.pkg.Scope().Innermost(o.pos)
	if inner == nil {
		return nil, nil
	}
	type operand struct {
		x      ast.Expr
		passed bool
	}
	var operands []operand
	seen := map[string]bool{}
	add := func(x ast.Expr, passed bool) {
		x = ast.Unparen(x)
		if len(operands) >= maxNilOperands || !o.assignable(x, inner) {
			return
		}
		src := types.ExprString(x)
		if !seen[src] {
			seen[src] = true
			operands = append(operands, operand{x, passed})
		}
	}
	// The statement itself, not the bodies of a compound one nor
	// function literals: they run later, or elsewhere.
	roots := []ast.Node{stmt}
	switch s := stmt.(type) {
	case *ast.IfStmt:
		roots = []ast.Node{s.Cond}
		if s.Init != nil {
			roots = []ast.Node{s.Init, s.Cond}
		}
	case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt, *ast.BlockStmt:
		return nil, nil
	}
	for _, root := range roots {
		o.derefs(root, func(x ast.Expr) { add(x, false) })
	}
	for _, op := range operands {
		derefs = append(derefs, types.ExprString(op.x))
	}
	// Then the nil-able arguments of the statement's calls of declared
	// functions: the nil a callee dereferences may come from here.
	for _, root := range roots {
		ast.Inspect(root, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.CallExpr:
				if o.declaredFunc(n.Fun) {
					for _, a := range n.Args {
						add(a, true)
					}
				}
			}
			return true
		})
	}

	sig := o.signature(fn)
	for _, op := range operands {
		src := types.ExprString(op.x)
		t := o.info.TypeOf(op.x)
		n := 0
		for _, v := range o.varsOfType(t, sig, inner) {
			if n >= maxNilValues || v == src {
				continue
			}
			fixes = append(fixes, NilFix{Operand: src, Body: src + " = " + v, Strategy: StrategyNilVar, Passed: op.passed})
			n++
		}
		for _, v := range o.instances(t) {
			fixes = append(fixes, NilFix{Operand: src, Body: src + " = " + v, Strategy: StrategyNilNew, Passed: op.passed})
		}
	}
	return fixes, derefs
}

// derefs calls add with the operands root dereferences.
func (o *observer) derefs(root ast.Node, add func(ast.Expr)) {
	ast.Inspect(root, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.StarExpr:
			if tv, ok := o.info.Types[n.X]; ok && !tv.IsType() {
				add(n.X)
			}
		case *ast.SelectorExpr:
			sel := o.info.Selections[n]
			if sel == nil {
				return true
			}
			_, ptr := o.info.TypeOf(n.X).Underlying().(*types.Pointer)
			_, iface := o.info.TypeOf(n.X).Underlying().(*types.Interface)
			switch {
			case sel.Kind() == types.FieldVal && ptr:
				add(n.X)
			case sel.Kind() == types.MethodVal && iface:
				add(n.X)
			case sel.Kind() == types.MethodVal && ptr:
				if m, ok := sel.Obj().(*types.Func); ok {
					if _, recvPtr := m.Signature().Recv().Type().(*types.Pointer); !recvPtr {
						add(n.X)
					}
				}
			}
		case *ast.CallExpr:
			if tv, ok := o.info.Types[n.Fun]; ok && !tv.IsType() && !tv.IsBuiltin() {
				if _, isFunc := o.info.TypeOf(n.Fun).Underlying().(*types.Signature); isFunc && !o.declaredFunc(n.Fun) {
					add(n.Fun)
				}
			}
		}
		return true
	})
}

// declaredFunc reports whether f names a declared function or method
// (never nil), not a variable or field of function type.
func (o *observer) declaredFunc(f ast.Expr) bool {
	switch f := ast.Unparen(f).(type) {
	case *ast.Ident:
		_, ok := o.info.Uses[f].(*types.Func)
		return ok
	case *ast.SelectorExpr:
		_, ok := o.info.Uses[f.Sel].(*types.Func)
		return ok
	case *ast.IndexExpr, *ast.IndexListExpr:
		return true // an instantiated generic function
	}
	return false
}

// assignable reports whether x can be assigned at the site and tested
// against nil: a variable in scope (not a constant or function), or a
// chain of field selections from one, of a nilable type.
func (o *observer) assignable(x ast.Expr, inner *types.Scope) bool {
	switch t := o.info.TypeOf(x); {
	case t == nil:
		return false
	default:
		switch t.Underlying().(type) {
		case *types.Pointer, *types.Interface, *types.Map, *types.Signature:
		default:
			return false
		}
	}
	for {
		switch e := x.(type) {
		case *ast.Ident:
			v, ok := o.info.Uses[e].(*types.Var)
			return ok && (v.Parent() == v.Pkg().Scope() && v.Pkg() == o.pkg || o.visible(inner, v))
		case *ast.SelectorExpr:
			sel := o.info.Selections[e]
			if sel == nil || sel.Kind() != types.FieldVal {
				return false
			}
			x = ast.Unparen(e.X)
		default:
			return false
		}
	}
}

// varsOfType are the in-scope variables of type t: the parameters and the
// receiver, the locals innermost first, then the package's variables.
func (o *observer) varsOfType(t types.Type, sig *types.Signature, inner *types.Scope) []string {
	var out []string
	add := func(v *types.Var) {
		if types.Identical(v.Type(), t) && !slices.Contains(out, v.Name()) {
			out = append(out, v.Name())
		}
	}
	if sig != nil {
		for v := range sig.Params().Variables() {
			if o.visible(inner, v) {
				add(v)
			}
		}
		if r := sig.Recv(); r != nil && o.visible(inner, r) {
			add(r)
		}
	}
	for s := inner; s != nil && s != o.pkg.Scope() && s != types.Universe; s = s.Parent() {
		names := slices.Clone(o.scopeNames(s))
		sort.Slice(names, func(i, j int) bool { return s.Lookup(names[i]).Pos() > s.Lookup(names[j]).Pos() })
		for _, name := range names {
			if v, ok := s.Lookup(name).(*types.Var); ok && o.visible(inner, v) {
				add(v)
			}
		}
	}
	scope := o.pkg.Scope()
	for _, name := range o.scopeNames(scope) {
		if v, ok := scope.Lookup(name).(*types.Var); ok && o.visible(inner, v) && o.graph.mayObserve(o.fn, v) {
			add(v)
		}
	}
	return out
}

// instances are new values of type t written at the site: &T{} for a
// pointer to a struct, make(M) for a map, and for an interface up to
// maxNilValues struct types of the package that implement it.
func (o *observer) instances(t types.Type) []string {
	check := func(src string) bool { return o.checkExpr(src) == nil }
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		if _, ok := u.Elem().Underlying().(*types.Struct); ok {
			if z, ok := o.zero(u.Elem()); ok && check("&"+z) {
				return []string{"&" + z}
			}
		}
	case *types.Map:
		if z, ok := o.typeName(t); ok && check("make("+z+")") {
			return []string{"make(" + z + ")"}
		}
	case *types.Interface:
		var out []string
		scope := o.pkg.Scope()
		for _, name := range o.scopeNames(scope) {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok || tn.IsAlias() || len(out) >= maxNilValues {
				continue
			}
			named, ok := tn.Type().(*types.Named)
			if !ok || named.TypeParams() != nil {
				continue
			}
			if _, ok := named.Underlying().(*types.Struct); !ok {
				continue
			}
			var v string
			switch {
			case types.Implements(named, u):
				v = name + "{}"
			case types.Implements(types.NewPointer(named), u):
				v = "&" + name + "{}"
			default:
				continue
			}
			if check(v) {
				out = append(out, v)
			}
		}
		return out
	}
	return nil
}
