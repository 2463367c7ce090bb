package collect

import (
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"github.com/nopol-go/nopol/internal/qualify"
	"golang.org/x/tools/go/types/typeutil"
)

// Bounds on what is observed at one site.
const (
	maxObserved  = 30
	maxConstants = 30
)

// observer computes the observed expressions and constants at one site.
type observer struct {
	pkg  *types.Package
	info *types.Info
	file *ast.File
	pos  token.Pos
	// fn is the object of the declared function around the site (nil in
	// a package-level function literal); graph says which package
	// variables it may refer to without an initialization cycle.
	fn    types.Object
	graph *initGraph
	// pure decides which calls may be observed; nil observes none.
	pure *purity
	// recv are the in-scope variables and their fields, with their
	// types, innermost scope first: the operands of observed calls.
	recv []typedExpr
	// enums are the named integer types of the observed calls' results
	// from other packages (reflect.Kind of v.Kind()): their constants
	// that the file uses are the site's too (siblingConstants).
	enums []types.Type
	// facts are those of the site's file; msets the package's method
	// sets, computed once per type.
	facts *fileFacts
	msets *typeutil.MethodSetCache
	// data is the site's package (how its panics are written); panicTests
	// whether a test of the program expects a panic (panics.go).
	data       *pkgData
	panicTests bool

	// then is the branch the site's condition guards (a Cond of an if
	// statement), nil otherwise.
	then *ast.BlockStmt

	seen map[string]bool
}

// observe returns the expressions recorded at a site, at most
// maxObserved, in this order of priority: the condition's (or
// statement's) own side-effect-free operands; the nil-ness of the values
// the branch it guards reads (branchNils); the local variables
// (innermost scope first) with their nil-ness and len; the basic-kind
// fields of those (one level, nil-safe); the len and nil-ness of their
// other fields; then package variables, their fields and the len and
// nil-ness of those.
func (o *observer) observe(kind SiteKind, node ast.Node) []Observed {
	o.seen = map[string]bool{}
	var ops []Observed
	var locals, globals obsGroups

	// The condition's operands, in source order.
	for _, root := range operandRoots(kind, node) {
		o.operands(kind, node, root, &ops)
	}

	var branch []Observed
	if kind == Cond && o.then != nil {
		branch = o.branchNils()
	}

	// Closest scope first: a scope's variables and their fields come
	// before those of the scopes around it (the options of the loop's
	// entry before the nil-ness of the function's slices).
	var scopes [][]Observed
	inner := o.pkg.Scope().Innermost(o.pos)
	for s := inner; s != nil && s != o.pkg.Scope() && s != types.Universe; s = s.Parent() {
		if s.Parent() == o.pkg.Scope() {
			break // the file scope holds only imports
		}
		var here obsGroups
		for _, name := range o.scopeNames(s) {
			if v, ok := s.Lookup(name).(*types.Var); ok && o.visible(inner, v) {
				o.addVar(&here, name, v.Type())
				o.addRecv(name, v.Type())
			}
		}
		scopes = append(scopes, append(here.vars, here.fields...))
		locals.derived = append(locals.derived, here.derived...)
	}
	for _, name := range o.globalNames() {
		v, ok := o.pkg.Scope().Lookup(name).(*types.Var)
		if !ok || !o.visible(inner, v) || !o.graph.mayObserve(o.fn, v) {
			continue
		}
		o.addVar(&globals, name, v.Type())
	}

	var out []Observed
	groups := append(append([][]Observed{ops, branch}, scopes...), locals.derived, globals.vars, globals.fields, globals.derived)
	for _, group := range groups {
		for _, ob := range group {
			if len(out) < maxObserved {
				out = append(out, ob)
			}
		}
	}
	return out
}

// maxBranchNils bounds the observations branchNils returns.
const maxBranchNils = 3

// branchNils returns the nil-ness of the values the condition's branch
// (o.then) reads, in source order, at most maxBranchNils: a variable or a
// variable's field of a pointer, interface, func, map, slice or chan type,
// declared before the condition, read (not assigned) in the branch. A
// condition often fails to guard a value its branch uses: gorilla/mux's
// `match.MatchErr == ErrMethodMismatch && r.handler != nil` before
// `match.Handler = r.handler`. Those come right after the condition's
// operands, before the variables in scope, which are cut by maxObserved
// at sites with many.
func (o *observer) branchNils() []Observed {
	var out []Observed
	var visit func(node ast.Node) bool
	visit = func(node ast.Node) bool {
		if len(out) >= maxBranchNils {
			return false
		}
		switch node := node.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			for _, e := range node.Rhs {
				ast.Inspect(e, visit)
			}
			return false
		case *ast.IncDecStmt:
			return false
		case *ast.Ident, *ast.SelectorExpr:
			e := node.(ast.Expr)
			if !o.readable(e) {
				return true // a method, a package: its operand may be read
			}
			if tv, ok := o.info.Types[e]; ok && tv.IsValue() && nillable(tv.Type) && o.sameMeaning(e) {
				o.add(&out, Observed{Expr: types.ExprString(e) + " == nil", Kind: KindBool, NilGuard: o.nilGuard(e)})
			}
			return false
		}
		return true
	}
	ast.Inspect(o.then, visit)
	return out
}

// readable reports whether e is a variable or a field of one, at most one
// selection deep (x, x.f).
func (o *observer) readable(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		_, ok := o.info.Uses[e].(*types.Var)
		return ok
	case *ast.SelectorExpr:
		sel := o.info.Selections[e]
		id, ok := e.X.(*ast.Ident)
		return ok && sel != nil && sel.Kind() == types.FieldVal && o.readable(id)
	}
	return false
}

// nillable reports whether nil is a value of t.
func nillable(t types.Type) bool {
	if _, ok := types.Unalias(t).(*types.TypeParam); ok {
		return false
	}
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Interface, *types.Signature, *types.Map, *types.Slice, *types.Chan:
		return true
	}
	return false
}

// globalNames returns the names of the package scope, those the
// enclosing function reads first (in name order, as the rest): a flag
// such as BurntSushi/toml's tomlNext, 20th of 23 package variables, is
// otherwise cut by maxObserved at the sites that need it.
func (o *observer) globalNames() []string {
	names := slices.Clone(o.scopeNames(o.pkg.Scope()))
	reads := map[string]bool{}
	for _, obj := range o.graph.refs[o.fn] {
		reads[obj.Name()] = true
	}
	slices.SortStableFunc(names, func(a, b string) int {
		switch {
		case reads[a] == reads[b]:
			return 0
		case reads[a]:
			return -1
		}
		return 1
	})
	return names
}

// obsGroups are the expressions observed of some variables, by priority:
// the variables themselves (values, nil-ness, len), their basic-kind
// fields, and the len and nil-ness of their other fields.
type obsGroups struct {
	vars, fields, derived []Observed
}

// nilGuard returns the pointer whose nil-ness guards a field selection
// e (p.f with p a pointer, or len(p.f)), "" otherwise.
func (o *observer) nilGuard(e ast.Expr) string {
	if call, ok := ast.Unparen(e).(*ast.CallExpr); ok && len(call.Args) == 1 {
		if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
			if _, ok := o.info.Uses[id].(*types.Builtin); ok {
				e = call.Args[0] // len or cap, the only calls safe lets through
			}
		}
	}
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok || o.info.Selections[sel] == nil {
		return ""
	}
	if tv, ok := o.info.Types[sel.X]; ok {
		if _, ptr := tv.Type.Underlying().(*types.Pointer); ptr {
			return types.ExprString(sel.X)
		}
	}
	return ""
}

// visible reports whether v is what its name means at the site.
func (o *observer) visible(inner *types.Scope, v *types.Var) bool {
	if v.Name() == "_" || v.Name() == "" || strings.HasPrefix(v.Name(), "nopol") || inner == nil {
		return false
	}
	_, obj := inner.LookupParent(v.Name(), o.pos)
	return obj == v
}

func (o *observer) add(group *[]Observed, ob Observed) {
	if o.seen[ob.Expr] {
		return
	}
	o.seen[ob.Expr] = true
	*group = append(*group, ob)
}

// addVar adds what is observed of a variable expr of type t.
func (o *observer) addVar(g *obsGroups, expr string, t types.Type) {
	if _, ok := types.Unalias(t).(*types.TypeParam); ok {
		return
	}
	o.addValue(&g.vars, &g.vars, expr, "", t)
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		if st, ok := u.Elem().Underlying().(*types.Struct); ok {
			o.addFields(g, expr, expr, st)
		}
	case *types.Struct:
		o.addFields(g, expr, "", u)
	}
}

// addValue adds to values what is observed of the value of expr of type
// t: the value itself for basic kinds, and to derived its len (strings,
// slices, maps, chans) and nil-ness (nillable types), each guarded by
// nilGuard.
func (o *observer) addValue(values, derived *[]Observed, expr, nilGuard string, t types.Type) {
	if _, ok := types.Unalias(t).(*types.TypeParam); ok {
		return
	}
	if k := kindOf(t); k != 0 {
		o.add(values, Observed{Expr: expr, Kind: k, NilGuard: nilGuard, Char: isChar(t), Enum: isEnum(t)})
		if k == KindString {
			o.add(derived, Observed{Expr: "len(" + expr + ")", Kind: KindInt, NilGuard: nilGuard})
		}
		return
	}
	if nillable(t) {
		o.add(derived, Observed{Expr: expr + " == nil", Kind: KindBool, NilGuard: nilGuard})
	}
	switch t.Underlying().(type) {
	case *types.Slice, *types.Map, *types.Chan:
		o.add(derived, Observed{Expr: "len(" + expr + ")", Kind: KindInt, NilGuard: nilGuard})
	}
}

// addFields adds what is observed of the fields of a struct reachable
// from expr, one level deep: basic-kind fields to g.fields, the len and
// nil-ness of the others to g.derived.
func (o *observer) addFields(g *obsGroups, expr, nilGuard string, st *types.Struct) {
	for f := range st.Fields() {
		if f.Embedded() || f.Name() == "_" || (!f.Exported() && f.Pkg() != o.pkg) {
			continue
		}
		o.addValue(&g.fields, &g.derived, expr+"."+f.Name(), nilGuard, f.Type())
	}
}

// isChar reports whether t is byte or rune (not another named integer
// type), as written: go/types gives byte and rune their own basic types,
// identical to uint8 and int32 but named so; an int32 field (an index,
// a count) is no character.
func isChar(t types.Type) bool {
	b, ok := types.Unalias(t).(*types.Basic)
	return ok && (b.Name() == "byte" || b.Name() == "rune")
}

// isEnum reports a defined integer type other than byte and rune
// (reflect.Kind, time.Month, a package's own iota type): its values have
// names, and a literal compared with it is a magic number.
func isEnum(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	b, ok := n.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// kindOf maps a type with a basic underlying type to its ValueKind, 0 for
// other types.
func kindOf(t types.Type) ValueKind {
	if _, ok := types.Unalias(t).(*types.TypeParam); ok {
		return 0
	}
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return 0
	}
	info := b.Info()
	switch {
	case b.Kind() == types.UnsafePointer || b.Kind() == types.UntypedNil:
		return 0
	case info&types.IsBoolean != 0:
		return KindBool
	case info&types.IsInteger != 0:
		return KindInt
	case info&types.IsFloat != 0:
		return KindFloat
	case info&types.IsString != 0:
		return KindString
	}
	return 0
}

// safe reports whether evaluating e has no side effects and calls no
// function: variables, field selections, dereferences, arithmetic and
// comparisons of those, len/cap, and indexes of a map, slice, array or
// string by such an expression or a constant (visited[t], xs[i]). A
// panic (nil dereference, division by zero, an index out of range) is
// caught at run time and recorded as a missing value, which synthesis
// reads as a short-circuit would (i < len(xs) && xs[i] > 0).
func (o *observer) safe(e ast.Expr) bool { return o.safeExpr(e, true) }

// safeExpr is safe, with indexes or without.
func (o *observer) safeExpr(e ast.Expr, indexes bool) bool {
	safe := func(e ast.Expr) bool { return o.safeExpr(e, indexes) }
	constOrSafe := func(e ast.Expr) bool { return o.isConst(e) || safe(e) }
	switch e := e.(type) {
	case *ast.Ident:
		_, ok := o.info.Uses[e].(*types.Var)
		return ok
	case *ast.ParenExpr:
		return safe(e.X)
	case *ast.SelectorExpr:
		if sel := o.info.Selections[e]; sel != nil {
			return sel.Kind() == types.FieldVal && safe(e.X)
		}
		_, ok := o.info.Uses[e.Sel].(*types.Var) // pkg.Var
		return ok
	case *ast.StarExpr:
		return safe(e.X)
	case *ast.IndexExpr:
		tv, ok := o.info.Types[e.X]
		if !indexes || !ok || !tv.IsValue() || !indexable(tv.Type) {
			return false
		}
		return safe(e.X) && constOrSafe(e.Index)
	case *ast.UnaryExpr:
		switch e.Op {
		case token.SUB, token.ADD, token.NOT, token.XOR:
			return safe(e.X)
		}
		return false
	case *ast.BinaryExpr:
		return constOrSafe(e.X) && constOrSafe(e.Y)
	case *ast.BasicLit:
		return false
	case *ast.CallExpr:
		id, ok := ast.Unparen(e.Fun).(*ast.Ident)
		if !ok || len(e.Args) != 1 {
			return false
		}
		b, ok := o.info.Uses[id].(*types.Builtin)
		return ok && (b.Name() == "len" || b.Name() == "cap") && safe(e.Args[0])
	}
	return false
}

// indexable reports whether an index of a value of type t reads memory
// and does nothing else: a map, a slice, an array or a pointer to one, a
// string (not a generic function's instantiation).
func indexable(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		_, ok := p.Elem().Underlying().(*types.Array)
		return ok
	}
	switch u := t.Underlying().(type) {
	case *types.Map, *types.Slice, *types.Array:
		return true
	case *types.Basic:
		return u.Info()&types.IsString != 0
	}
	return false
}

// isConst reports whether e is a constant or nil.
func (o *observer) isConst(e ast.Expr) bool {
	tv, ok := o.info.Types[e]
	return ok && (tv.Value != nil || tv.IsNil())
}

// constants returns the literals of fn, 0 and "", and the named constants
// of the package visible at the site, at most maxConstants.
func (o *observer) constants(fn ast.Node) []Constant {
	var out []Constant
	seen := map[string]int{} // kind:value[:type] → index in out
	add := func(expr string, v constant.Value, factor, bound bool, t types.Type, group string) {
		val, ok := constValue(v)
		if !ok {
			return
		}
		key := strconv.Itoa(int(val.Kind)) + ":" + v.ExactString()
		if _, named := t.(*types.Named); named {
			// A constant of a defined type is not its value: kind ==
			// ModulePath, not kind == 0, where both are written.
			key += ":" + typeName(t)
		}
		if group != "" {
			key += ":" + group
		}
		if i, ok := seen[key]; ok {
			out[i].Factor = out[i].Factor && factor
			out[i].Bound = out[i].Bound || bound
			return
		}
		if len(out) >= maxConstants {
			return
		}
		seen[key] = len(out)
		c := Constant{Expr: expr, Value: val, Factor: factor, Bound: bound, Group: group}
		if t != nil {
			c.Type = typeName(t)
		}
		out = append(out, c)
	}
	if fn != nil {
		factors, bounds := factorLiterals(fn), boundLiterals(fn)
		ast.Inspect(fn, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok {
				if tv, ok := o.info.Types[lit]; ok && tv.Value != nil {
					// 1e8: a power of ten, written as one.
					scale := lit.Kind == token.FLOAT && strings.ContainsAny(lit.Value, "eE") && !strings.HasPrefix(lit.Value, "0x") && !strings.HasPrefix(lit.Value, "0X")
					add(lit.Value, tv.Value, factors[lit] || scale, bounds[lit], nil, "")
				}
			}
			return true
		})
	}
	// The neutral values, which guards compare with more than any other
	// (`len(x) == 0`, `s == ""`), even where the function writes none.
	add("0", constant.MakeInt64(0), false, false, nil, "")
	add(`""`, constant.MakeString(""), false, false, nil, "")
	inner := o.pkg.Scope().Innermost(o.pos)
	// The names of the enumerations fn compares something with come
	// first: the names it stands for (sbATerm in a sentence-break
	// function of uniseg, not gcPe, a general category of the same
	// value), before the cap cuts.
	used := map[string]bool{}
	if o.data != nil && fn != nil {
		for _, gs := range o.data.comparedGroups(fn, o.info) {
			for _, g := range gs {
				used[g] = true
			}
		}
	}
	for _, first := range []bool{true, false} {
		for _, name := range o.scopeNames(o.pkg.Scope()) {
			c, ok := o.pkg.Scope().Lookup(name).(*types.Const)
			if !ok || inner == nil {
				continue
			}
			if _, obj := inner.LookupParent(name, o.pos); obj != c {
				continue
			}
			group := ""
			if o.data != nil {
				group = o.data.enumConsts()[c]
			}
			if used[group] != first {
				continue
			}
			// Two enumerations' names of one value are two constants.
			add(name, c.Val(), false, false, c.Type(), group)
		}
	}
	return out
}

// boundLiterals returns the literals of fn written as an operand of <,
// <=, > or >= (Constant.Bound).
func boundLiterals(fn ast.Node) map[*ast.BasicLit]bool {
	out := map[*ast.BasicLit]bool{}
	ast.Inspect(fn, func(n ast.Node) bool {
		if b, ok := n.(*ast.BinaryExpr); ok {
			switch b.Op {
			case token.LSS, token.LEQ, token.GTR, token.GEQ:
				for _, e := range []ast.Expr{b.X, b.Y} {
					if lit, ok := ast.Unparen(e).(*ast.BasicLit); ok {
						out[lit] = true
					}
				}
			}
		}
		return true
	})
	return out
}

// factorLiterals returns the literals of fn written as an operand of *,
// /, %, << or >>, or as the length of an array type (Constant.Factor).
func factorLiterals(fn ast.Node) map[*ast.BasicLit]bool {
	out := map[*ast.BasicLit]bool{}
	mark := func(es ...ast.Expr) {
		for _, e := range es {
			if lit, ok := ast.Unparen(e).(*ast.BasicLit); ok {
				out[lit] = true
			}
		}
	}
	ast.Inspect(fn, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			switch n.Op {
			case token.MUL, token.QUO, token.REM, token.SHL, token.SHR:
				mark(n.X, n.Y)
			}
		case *ast.AssignStmt:
			switch n.Tok {
			case token.MUL_ASSIGN, token.QUO_ASSIGN, token.REM_ASSIGN, token.SHL_ASSIGN, token.SHR_ASSIGN:
				mark(n.Rhs...)
			}
		case *ast.ArrayType:
			if n.Len != nil {
				mark(n.Len)
			}
		}
		return true
	})
	return out
}

// constValue converts a constant to a Value; ok is false for values that
// do not fit (big integers, complex numbers).
func constValue(v constant.Value) (Value, bool) {
	switch v.Kind() {
	case constant.Bool:
		return Value{Kind: KindBool, Bool: constant.BoolVal(v)}, true
	case constant.Int:
		i, exact := constant.Int64Val(v)
		return Value{Kind: KindInt, Int: i}, exact
	case constant.Float:
		f, _ := constant.Float64Val(v)
		return Value{Kind: KindFloat, Float: f}, true
	case constant.String:
		return Value{Kind: KindString, Str: constant.StringVal(v)}, true
	}
	return Value{}, false
}

// returnStmt returns the statement that returns zero values from a
// function of signature sig at the site (a bare return for visible named
// results), and whether one can be written there.
func (o *observer) returnStmt(sig *types.Signature) (string, bool) {
	res := sig.Results()
	if res.Len() == 0 {
		return "return", true
	}
	if res.At(0).Name() != "" && o.namedResultsVisible(sig) {
		return "return", true
	}
	zeros := o.zeroValues(res, res.Len())
	if zeros == nil {
		return "", false
	}
	return "return " + strings.Join(zeros, ", "), true
}

// zero returns a Go expression for the zero value of t valid at the site.
func (o *observer) zero(t types.Type) (string, bool) {
	if _, ok := types.Unalias(t).(*types.TypeParam); !ok {
		switch u := t.Underlying().(type) {
		case *types.Basic:
			switch {
			case u.Info()&types.IsBoolean != 0:
				return "false", true
			case u.Info()&types.IsString != 0:
				return `""`, true
			case u.Info()&types.IsNumeric != 0:
				return "0", true
			case u.Kind() == types.UnsafePointer:
				return "nil", true
			}
		case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Signature, *types.Interface:
			return "nil", true
		}
	}
	s, ok := o.typeName(t)
	if !ok {
		return "", false
	}
	if !o.namesTypes(s) {
		return "", false // a name of the type is shadowed at the site
	}
	// A struct or array is written as its composite literal, as people
	// write it (Point{}); other types as *new(T).
	switch t.Underlying().(type) {
	case *types.Struct, *types.Array:
		if lit := s + "{}"; o.checkExpr(lit) == nil {
			return lit, true
		}
	}
	expr := "*new(" + s + ")"
	if o.checkExpr(expr) != nil {
		return "", false
	}
	return expr, true
}

// typeName is t as the site's file writes it; ok is false when a package
// it needs is not imported there (or only as _ or .).
func (o *observer) typeName(t types.Type) (string, bool) {
	return qualify.TypeString(t, o.pkg.Path(), qualify.Imports(o.file, o.info))
}

// namesTypes reports whether every name in the type expression src
// denotes a type (or a package) at the site: a local variable may shadow a
// type's name, and Go 1.26's new(expr) would then type-check as well.
func (o *observer) namesTypes(src string) bool {
	e, err := parser.ParseExpr(src)
	if err != nil {
		return false
	}
	inner := o.pkg.Scope().Innermost(o.pos)
	if inner == nil {
		return false
	}
	ok := true
	sels := map[*ast.Ident]bool{}
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			sels[n.Sel] = true
		case *ast.Ident:
			if sels[n] {
				return true
			}
			_, obj := inner.LookupParent(n.Name, o.pos)
			switch obj.(type) {
			case *types.TypeName, *types.PkgName:
			default:
				ok = false
			}
		}
		return ok
	})
	return ok
}

// typeAt type-checks the Go expression src at the site and returns its
// type.
func (o *observer) typeAt(src string) (types.Type, error) {
	e, err := parser.ParseExpr(src)
	if err != nil {
		return nil, err
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
	if err := types.CheckExpr(token.NewFileSet(), o.pkg, o.pos, e, info); err != nil {
		return nil, err
	}
	return info.Types[e].Type, nil
}

// exprType returns the type of the expression src at the site, as
// Observed.Type, or "" when it does not check or is not a number or a
// string.
func (o *observer) exprType(src string) string {
	t, err := o.typeAt(src)
	if err != nil {
		return ""
	}
	return typeName(t)
}

// typeName is Observed.Type and Constant.Type of t: "" unless t is a
// typed number or string.
func typeName(t types.Type) string {
	b, ok := t.Underlying().(*types.Basic)
	if !ok || b.Info()&(types.IsNumeric|types.IsString) == 0 || b.Info()&types.IsUntyped != 0 {
		return ""
	}
	return types.TypeString(t, nil)
}

// checkExpr type-checks the Go expression src at the site.
func (o *observer) checkExpr(src string) error {
	_, err := o.typeAt(src)
	return err
}

// operands adds the side-effect-free operands under root to ops.
func (o *observer) operands(kind SiteKind, node, root ast.Node, ops *[]Observed) {
	ast.Inspect(root, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit, *ast.CompositeLit:
			return false
		}
		e, ok := n.(ast.Expr)
		if !ok || (kind == Cond && n == node) || !o.safe(e) {
			return true
		}
		if b, ok := e.(*ast.BinaryExpr); ok && (b.Op == token.SHL || b.Op == token.SHR) {
			if tv, ok := o.info.Types[b.X]; ok && tv.Value != nil {
				// An untyped constant shifted: its type comes from
				// the context, which an observation changes.
				return true
			}
		}
		if root != node && !o.sameMeaning(e) {
			return true // declared in the statement's header
		}
		tv, ok := o.info.Types[e]
		if !ok || tv.Value != nil || !tv.IsValue() {
			return true
		}
		if k := kindOf(tv.Type); k != 0 {
			o.add(ops, Observed{Expr: types.ExprString(e), Kind: k, NilGuard: o.nilGuard(e), Char: isChar(tv.Type), Enum: isEnum(tv.Type)})
		}
		return true
	})
}

// operandRoots are the parts of a site evaluated before anything else runs
// in it: the whole condition or simple statement, the header of a compound
// statement (whose body declares names not in scope at the site).
func operandRoots(kind SiteKind, node ast.Node) []ast.Node {
	if kind == Cond {
		return []ast.Node{node}
	}
	var roots []ast.Node
	add := func(ns ...ast.Node) {
		for _, n := range ns {
			if n != nil {
				roots = append(roots, n)
			}
		}
	}
	switch s := node.(type) {
	case *ast.LabeledStmt:
		return operandRoots(kind, s.Stmt)
	case *ast.IfStmt:
		add(s.Init, s.Cond)
	case *ast.ForStmt:
		add(s.Init, s.Cond)
	case *ast.RangeStmt:
		add(s.X)
	case *ast.SwitchStmt:
		add(s.Init, s.Tag)
	case *ast.TypeSwitchStmt:
		add(s.Init, s.Assign)
	case *ast.SelectStmt, *ast.BlockStmt:
	case *ast.AssignStmt:
		if s.Tok == token.DEFINE {
			for _, e := range s.Rhs {
				add(e)
			}
		} else {
			add(s)
		}
	case *ast.DeclStmt:
		if g, ok := s.Decl.(*ast.GenDecl); ok {
			for _, sp := range g.Specs {
				if vs, ok := sp.(*ast.ValueSpec); ok {
					for _, e := range vs.Values {
						add(e)
					}
				}
			}
		}
	default:
		add(node)
	}
	return roots
}

// noOp returns the observed "x == v" of the assignment "x = v" (see
// Observed.NoOp), when stmt is one whose sides have no side effect and
// compare: x of a comparable type, or v the predeclared nil.
func (o *observer) noOp(stmt ast.Stmt) (Observed, bool) {
	as, ok := stmt.(*ast.AssignStmt)
	if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return Observed{}, false
	}
	lhs, rhs := as.Lhs[0], as.Rhs[0]
	if id, ok := lhs.(*ast.Ident); ok && id.Name == "_" {
		return Observed{}, false
	}
	tv, ok := o.info.Types[lhs]
	if !ok {
		return Observed{}, false
	}
	rv, ok := o.info.Types[rhs]
	if !ok || !(types.Comparable(tv.Type) || rv.IsNil()) {
		return Observed{}, false
	}
	var callees []*types.Func
	if !o.sideEffectFree(lhs, &callees) || !o.sideEffectFree(rhs, &callees) {
		return Observed{}, false
	}
	expr := types.ExprString(lhs) + " == " + types.ExprString(rhs)
	if o.checkExpr(expr) != nil {
		return Observed{}, false
	}
	return Observed{Expr: expr, Kind: KindBool, Call: len(callees) > 0, NoOp: true}, true
}

// scopeNames returns s.Names(), computed once per scope and package:
// every site of a package reads its package scope's names, which Names
// sorts anew at each call (yaml.v3's 5221 sites spent a fifth of Load
// there). The caller must not modify it.
func (o *observer) scopeNames(s *types.Scope) []string {
	if o.data == nil {
		return s.Names()
	}
	if names, ok := o.data.names[s]; ok {
		return names
	}
	if o.data.names == nil {
		o.data.names = map[*types.Scope][]string{}
	}
	names := s.Names()
	o.data.names[s] = names
	return names
}
