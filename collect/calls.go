package collect

import (
	"go/ast"
	"go/token"
	"go/types"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/nopol-go/nopol/internal/qualify"
)

// Calls observed at a site (evaluated in snapshot runs only). Real conditions are built on calls
// (v.IsNil(), x.Sign() > 0, !isSeparator(r), math.IsNaN(f)), so a site
// also observes, when pure (see purity):
//
//   - the methods without arguments of the in-scope variables and of
//     their fields, with one result of basic kind (an error result is
//     observed as "!= nil"), interface methods included when every
//     implementation is pure (pc.IsInLinkLabel(); purity);
//   - the functions of the site's package with one parameter, applied to
//     each in-scope variable of that parameter's type, and those with two
//     or three parameters and a result of basic kind, applied to in-scope
//     variables of the parameters' types (at most maxArgLists argument
//     lists per function and first argument: shouldOmitEmpty(kv.Options,
//     kv.Value)); where two parameters share a type, the position is a
//     role, and an argument must be named as its parameter (t.Year for
//     year in isValidDate(year, month, day int), never t.Hour);
//   - the elements m[k] of in-scope maps with elements of basic kind at
//     in-scope keys (visited[t]);
//   - standard-library predicates of packages the file already imports:
//     math.IsNaN(f), math.IsInf(f, 0), unicode.IsUpper/IsLower/IsDigit/
//     IsLetter/IsSpace(r), utf8.RuneLen(r), strings (bytes).Contains/
//     HasPrefix/HasSuffix(s, c) for the function's string constants c,
//     strings.ContainsRune(s, r) for its rune constants, and
//     errors.Is(err, e) for the error variables of the package;
//   - err == e for the package-level error variables e (of the package
//     or another) that the package's own code compares an error with
//     (match.MatchErr == ErrMethodMismatch in gorilla/mux): the package
//     tells its sentinels apart by identity, and a fix does too.
//
// At most maxCalls calls are observed: one per operand in turn, the
// operands of the site's condition or statement first, then by scope,
// innermost first; per operand, the package's functions (those the
// site's function calls first, then predicates) and map elements first,
// then its methods (boolean results first), then the standard library's
// predicates. The operands the site names first take turns alone, with
// the calls the site's function makes or the file tests in a condition
// only, up to maxSiteCalls.
// They go after the atoms and the first observed variables, within
// maxObserved in all. A call that panics is a missing value; a snapshot
// run that times out (a call may never end) is run again with the calls
// left out (Run.NoCalls).
const maxCalls = 10

// maxSiteCalls bounds the calls the operands named in the site take
// before the others have a turn (see calls).
const maxSiteCalls = maxCalls / 2

// typedExpr is an expression with its type.
type typedExpr struct {
	expr string
	t    types.Type
}

// addRecv records a variable (and its fields, one level) as an operand of
// observed calls.
func (o *observer) addRecv(expr string, t types.Type) {
	if _, ok := types.Unalias(t).(*types.TypeParam); ok {
		return
	}
	o.recv = append(o.recv, typedExpr{expr, t})
	st, ok := t.Underlying().(*types.Struct)
	if p, isPtr := t.Underlying().(*types.Pointer); isPtr {
		st, ok = p.Elem().Underlying().(*types.Struct)
	}
	if !ok {
		return
	}
	for f := range st.Fields() {
		if f.Embedded() || f.Name() == "_" || (!f.Exported() && f.Pkg() != o.pkg) {
			continue
		}
		if _, ok := types.Unalias(f.Type()).(*types.TypeParam); !ok {
			o.recv = append(o.recv, typedExpr{expr + "." + f.Name(), f.Type()})
		}
	}
}

// withCalls inserts the calls observed at the site into obs, after the
// natoms atoms and the variables closest to the site.
func (o *observer) withCalls(obs []Observed, natoms int, node, fn ast.Node, consts []Constant) []Observed {
	return insertObserved(obs, natoms+10, o.calls(node, fn, consts))
}

// calls returns the calls observed at the site (see the comment above).
func (o *observer) calls(node, fn ast.Node, consts []Constant) []Observed {
	if o.pure == nil || len(o.recv) == 0 {
		return nil
	}
	// Operands named in the site first.
	named := identNames(node)
	recv := append([]typedExpr(nil), o.recv...)
	root := func(e string) string { r, _, _ := strings.Cut(e, "."); return r }
	sort.SliceStable(recv, func(i, j int) bool {
		a, b := named[root(recv[i].expr)], named[root(recv[j].expr)]
		return a && !b
	})
	// Per operand, its calls; then one call per operand in turn, so that
	// one operand with many methods does not take the whole budget.
	type ranked struct {
		ob    Observed
		rank  int
		tests int        // calls in the file's conditions (fileFacts.inConds)
		enum  types.Type // a result of a named integer type of another package
	}
	perRecv := make([][]Observed, len(recv))
	perRank := make([][]int, len(recv))
	enums := map[string]types.Type{}
	imports := o.importNames()
	funcs, nary := o.pureFuncs()
	called := o.calledIn(fn)
	inConds := o.facts.inConds
	byRelevance(funcs, called)
	byRelevance(nary, called)
	sentinels := o.sentinels(fn)
	for i, r := range recv {
		var cands []ranked
		add := func(ob Observed, rank int, enum types.Type) {
			ob.Call = true
			cands = append(cands, ranked{ob: ob, rank: rank, enum: enum})
		}
		// The package's own predicates first (isNil(v),
		// shouldOmitEmpty(o, v), visited[t]): they say what the code
		// means; then the methods, boolean ones first; then the
		// standard library's. A function or method the site's function
		// calls comes first of all, and a method the file calls in a
		// condition (v.Kind() in v.Kind() != reflect.Interface) before
		// the functions the code does not call: what the code already
		// tests of a value is what a fix most likely tests.
		funcRank := func(f *types.Func) int {
			if called[f] {
				return 0
			}
			return 2
		}
		for _, f := range funcs {
			if f == o.fn || !o.graph.mayCall(o.fn, f) {
				continue // the site's own function (recursion), or an initialization cycle
			}
			if types.Identical(f.Signature().Params().At(0).Type(), r.t) {
				if k := kindOf(f.Signature().Results().At(0).Type()); k != 0 {
					add(Observed{Expr: f.Name() + "(" + r.expr + ")", Kind: k}, funcRank(f), nil)
				}
			}
		}
		for _, f := range nary {
			if f == o.fn || !o.graph.mayCall(o.fn, f) {
				continue
			}
			for _, args := range argLists(f.Signature().Params(), r, recv) {
				add(Observed{Expr: f.Name() + "(" + strings.Join(args, ", ") + ")", Kind: kindOf(f.Signature().Results().At(0).Type())}, funcRank(f), nil)
			}
		}
		for _, ob := range o.indexes(r, recv) {
			add(ob, 2, nil)
		}
		var methods []ranked
		o.methodCalls(r, func(m *types.Func, ob Observed) {
			rank := 4
			switch {
			case called[m] || called[m.Origin()]:
				rank = 0
			case inConds[m.Origin()] > 0:
				rank = 1
			case ob.Kind == KindBool:
				rank = 3
			}
			var enum types.Type
			if res := m.Signature().Results().At(0).Type(); ob.Enum {
				if n, ok := types.Unalias(res).(*types.Named); ok && n.Obj().Pkg() != o.pkg {
					enum = res
				}
			}
			methods = append(methods, ranked{ob, rank, inConds[m.Origin()], enum})
		})
		// By rank, then the methods the file tests most first; a
		// function of the same rank stays before them (below).
		sort.SliceStable(methods, func(i, j int) bool {
			a, b := methods[i], methods[j]
			return a.rank < b.rank || a.rank == b.rank && a.tests > b.tests
		})
		for _, m := range methods {
			add(m.ob, m.rank, m.enum)
		}
		if types.Identical(r.t, errorType) {
			for _, e := range o.data.comparedErrors() {
				add(Observed{Expr: r.expr + " == " + e, Kind: KindBool}, 1, nil)
			}
		}
		for _, ob := range o.stdCalls(r, imports, consts, sentinels, called) {
			add(ob, 5, nil)
		}
		sort.SliceStable(cands, func(i, j int) bool { return cands[i].rank < cands[j].rank })
		for _, c := range cands {
			perRecv[i] = append(perRecv[i], c.ob)
			perRank[i] = append(perRank[i], c.rank)
			if c.enum != nil {
				enums[c.ob.Expr] = c.enum
			}
		}
	}
	// One call per operand in turn, each the operand's next one that
	// compiles at the site and is not observed already (checked only
	// when its turn comes: most calls never get one). The operands the
	// site names take their turns first, up to maxSiteCalls calls, with
	// the calls the code already makes or tests (rank 1 at most:
	// !f.CanAddr() for !f.CanSet(), where the file tests mv.CanAddr());
	// then every operand, with its other calls.
	var out []Observed
	next := make([]int, len(perRecv))
	turns := func(limit, maxRank int, only func(i int) bool) {
		for len(out) < limit {
			added := false
			for i, obs := range perRecv {
				if !only(i) {
					continue
				}
				for len(out) < limit && next[i] < len(obs) && perRank[i][next[i]] <= maxRank {
					ob := obs[next[i]]
					next[i]++
					if !o.seen[ob.Expr] && o.checkExpr(ob.Expr) == nil {
						o.seen[ob.Expr] = true
						out = append(out, ob)
						added = true
						break
					}
				}
			}
			if !added {
				return
			}
		}
	}
	for _, ob := range o.writtenCalls(fn, nary) {
		if !o.seen[ob.Expr] && o.checkExpr(ob.Expr) == nil {
			o.seen[ob.Expr] = true
			out = append(out, ob)
		}
	}
	turns(maxSiteCalls, 1, func(i int) bool { return named[root(recv[i].expr)] })
	turns(maxCalls, math.MaxInt, func(int) bool { return true })
	for _, ob := range out {
		if t, ok := enums[ob.Expr]; ok && !slices.ContainsFunc(o.enums, func(e types.Type) bool { return types.Identical(e, t) }) {
			o.enums = append(o.enums, t)
		}
	}
	return out
}

// methodCalls calls yield with the pure methods without arguments of r
// (of its type and, for an addressable variable, of its pointer) with one
// result of basic kind or error.
func (o *observer) methodCalls(r typedExpr, yield func(*types.Func, Observed)) {
	sets := []*types.MethodSet{o.msets.MethodSet(r.t)}
	if _, isPtr := r.t.Underlying().(*types.Pointer); !isPtr && !types.IsInterface(r.t) {
		sets = append(sets, o.msets.MethodSet(types.NewPointer(r.t)))
	}
	seen := map[string]bool{}
	for _, ms := range sets {
		for sel := range ms.Methods() {
			m, ok := sel.Obj().(*types.Func)
			if !ok || seen[m.Name()] || (!m.Exported() && m.Pkg() != o.pkg) {
				continue
			}
			seen[m.Name()] = true
			sig := m.Signature()
			if sig.Params().Len() != 0 || sig.Results().Len() != 1 || !o.pure.pure(m, 0) ||
				(m.Pkg() == o.pkg && !o.graph.mayCall(o.fn, m.Origin())) {
				continue
			}
			res := sig.Results().At(0).Type()
			call := r.expr + "." + m.Name() + "()"
			if k := kindOf(res); k != 0 {
				yield(m, Observed{Expr: call, Kind: k, Enum: isEnum(res)})
			} else if types.Identical(res, errorType) {
				yield(m, Observed{Expr: call + " != nil", Kind: KindBool})
			}
		}
	}
}

// pureFuncs are the pure, non-generic, non-variadic functions of the
// site's package with one result: unary with one parameter, nary with two
// or three, whose result is of basic kind.
func (o *observer) pureFuncs() (unary, nary []*types.Func) {
	scope := o.pkg.Scope()
	for _, name := range o.scopeNames(scope) {
		f, ok := scope.Lookup(name).(*types.Func)
		if !ok || f.Signature().TypeParams() != nil {
			continue
		}
		sig := f.Signature()
		if sig.Results().Len() != 1 || sig.Variadic() {
			continue
		}
		switch n := sig.Params().Len(); {
		case n == 1 && o.pure.pure(f, 0):
			unary = append(unary, f)
		case n >= 2 && n <= maxArgs && kindOf(sig.Results().At(0).Type()) != 0 && o.pure.pure(f, 0):
			nary = append(nary, f)
		}
	}
	return unary, nary
}

// maxWrittenCalls bounds the calls writtenCalls returns.
const maxWrittenCalls = 4

// writtenCalls are the calls of the package's pure functions of two or
// more parameters (nary) that the function fn writes with a constant or
// variable of the package among their arguments, as written, the first
// maxWrittenCalls: containsOnly(s, alphanum) in semver's newPRVersion.
// argLists builds the arguments of such a function from the operands in
// scope only, and a package constant is none: the check a fix copies
// from beside it (or the guard whose error it reuses) was never observed.
// The arguments are names, selectors or literals: a call inside an
// argument is not evaluated twice.
func (o *observer) writtenCalls(fn ast.Node, nary []*types.Func) []Observed {
	if fn == nil || len(nary) == 0 {
		return nil
	}
	var out []Observed
	ast.Inspect(fn, func(n ast.Node) bool {
		if len(out) >= maxWrittenCalls {
			return false
		}
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		f, ok := calleeFunc(call, o.info)
		if !ok || f == o.fn || !slices.Contains(nary, f) || !o.graph.mayCall(o.fn, f) {
			return true
		}
		pkgArg := false
		for _, a := range call.Args {
			switch a := ast.Unparen(a).(type) {
			case *ast.BasicLit, *ast.SelectorExpr:
			case *ast.Ident:
				if obj := o.info.Uses[a]; obj != nil && obj.Parent() == o.pkg.Scope() {
					pkgArg = true
				}
			default:
				return true
			}
		}
		if !pkgArg {
			return true
		}
		ob := Observed{Expr: types.ExprString(call), Kind: kindOf(f.Signature().Results().At(0).Type()), Call: true}
		if !slices.ContainsFunc(out, func(o Observed) bool { return o.Expr == ob.Expr }) {
			out = append(out, ob)
		}
		return true
	})
	return out
}

// calledIn returns the functions the function fn calls.
func (o *observer) calledIn(fn ast.Node) map[*types.Func]bool {
	out := map[*types.Func]bool{}
	if fn == nil {
		return out
	}
	ast.Inspect(fn, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if f, ok := calleeFunc(call, o.info); ok {
				out[f] = true
			}
		}
		return true
	})
	return out
}

// byRelevance orders the package's functions for observation: those the
// site's function already calls first (isCanonicalVersion(vi.High) where
// the function tests isCanonicalVersion(vi.Low)), then predicates (a bool
// result), then the others, each group in name order.
func byRelevance(fs []*types.Func, called map[*types.Func]bool) {
	rank := func(f *types.Func) int {
		r := 2
		if b, ok := f.Signature().Results().At(0).Type().Underlying().(*types.Basic); ok && b.Kind() == types.Bool {
			r = 1
		}
		if called[f] {
			r = 0
		}
		return r
	}
	sort.SliceStable(fs, func(i, j int) bool { return rank(fs[i]) < rank(fs[j]) })
}

// maxArgs bounds the parameters of an observed function; maxArgLists the
// argument lists tried per function and first operand.
const (
	maxArgs     = 3
	maxArgLists = 2
)

// argLists returns the argument lists, at most maxArgLists, of a function
// with parameters params whose first argument is first and the others are
// operands of recv of identical types (in recv's order, each used once).
func argLists(params *types.Tuple, first typedExpr, recv []typedExpr) [][]string {
	if !types.Identical(params.At(0).Type(), first.t) || !fitsRole(params, 0, first.expr) {
		return nil
	}
	var out [][]string
	var fill func(args []string, used map[string]bool)
	fill = func(args []string, used map[string]bool) {
		if len(out) >= maxArgLists {
			return
		}
		i := len(args)
		if i == params.Len() {
			out = append(out, append([]string(nil), args...))
			return
		}
		for _, r := range recv {
			if !used[r.expr] && types.Identical(params.At(i).Type(), r.t) && fitsRole(params, i, r.expr) {
				used[r.expr] = true
				fill(append(args, r.expr), used)
				delete(used, r.expr)
			}
		}
	}
	fill([]string{first.expr}, map[string]bool{first.expr: true})
	return out
}

// fitsRole reports whether expr may be the argument of parameter i: any
// value of its type, unless another parameter has the same type; then the
// position says the role (isValidDate(year, month, day int)) and expr must
// be named as the parameter (t.Year for year, not t.Hour).
func fitsRole(params *types.Tuple, i int, expr string) bool {
	p := params.At(i)
	shared := false
	for j := range params.Len() {
		if j != i && types.Identical(params.At(j).Type(), p.Type()) {
			shared = true
		}
	}
	if !shared {
		return true
	}
	last := expr[strings.LastIndexAny(expr, ".")+1:]
	return strings.EqualFold(last, p.Name())
}

// indexes returns the elements m[k] of a map r (of basic kind) at the keys
// k of recv of its key type: a set or a visited map (visited[t]).
func (o *observer) indexes(r typedExpr, recv []typedExpr) []Observed {
	m, ok := r.t.Underlying().(*types.Map)
	if !ok {
		return nil
	}
	k := kindOf(m.Elem())
	if k == 0 {
		return nil
	}
	var out []Observed
	for _, key := range recv {
		if key.expr != r.expr && types.Identical(m.Key(), key.t) && len(out) < maxArgLists {
			out = append(out, Observed{Expr: r.expr + "[" + key.expr + "]", Kind: k, Enum: isEnum(m.Elem())})
		}
	}
	return out
}

// importNames maps the import paths of the site's file to their names.
func (o *observer) importNames() map[string]string {
	return qualify.Imports(o.file, o.info)
}

// sentinels are the package-level error variables of the site's package
// and those the enclosing function uses.
func (o *observer) sentinels(fn ast.Node) []string {
	var out []string
	seen := map[string]bool{}
	scope := o.pkg.Scope()
	for _, name := range o.scopeNames(scope) {
		if v, ok := scope.Lookup(name).(*types.Var); ok && types.Identical(v.Type(), errorType) {
			out = append(out, name)
			seen[name] = true
		}
	}
	if fn != nil {
		ast.Inspect(fn, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if v, ok := errorVar(sel, o.info); ok && v.Pkg() != o.pkg {
				if e := types.ExprString(sel); !seen[e] {
					seen[e] = true
					out = append(out, e)
				}
			}
			return true
		})
	}
	return out
}

// namedObject returns the object that e, an identifier or a selector
// (pkg.Name, x.Field), names; nil for another expression.
func namedObject(e ast.Expr, info *types.Info) types.Object {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		return info.Uses[x]
	case *ast.SelectorExpr:
		return info.Uses[x.Sel]
	}
	return nil
}

// errorType is the predeclared error.
var errorType = types.Universe.Lookup("error").Type()

// errorVar returns the package-level variable of type error (of any
// package) that e, an identifier or a selector, names.
func errorVar(e ast.Expr, info *types.Info) (*types.Var, bool) {
	v, ok := namedObject(e, info).(*types.Var)
	if !ok || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() || !types.Identical(v.Type(), errorType) {
		return nil, false
	}
	return v, true
}

// comparedErrors returns the package-level error variables (of any
// package) that d's own files compare an error with, by == or !=, as
// written there ("ErrNotFound", "io.EOF"), in the order first found.
func (d *pkgData) comparedErrors() []string {
	if d.compared != nil {
		return *d.compared
	}
	var out []string
	seen := map[string]bool{}
	d.compared = &out
	info := d.pkg.TypesInfo
	if info == nil {
		return out
	}
	for _, f := range d.pkg.Syntax {
		ast.Inspect(f, func(n ast.Node) bool {
			be, ok := n.(*ast.BinaryExpr)
			if !ok || (be.Op != token.EQL && be.Op != token.NEQ) {
				return true
			}
			for _, side := range []ast.Expr{be.X, be.Y} {
				if _, ok := errorVar(side, info); !ok {
					continue
				}
				if e := types.ExprString(ast.Unparen(side)); !seen[e] {
					seen[e] = true
					out = append(out, e)
				}
			}
			return true
		})
	}
	return out
}

// callsStd reports whether called holds the function fn of the package
// path.
func callsStd(called map[*types.Func]bool, path, fn string) bool {
	for f := range called {
		if f.Name() == fn && f.Pkg() != nil && f.Pkg().Path() == path {
			return true
		}
	}
	return false
}

// stdCalls returns the standard-library predicates over r (see the
// comment at the top).
func (o *observer) stdCalls(r typedExpr, imports map[string]string, consts []Constant, sentinels []string, called map[*types.Func]bool) []Observed {
	b, isBasic := r.t.Underlying().(*types.Basic)
	var out []Observed
	// pred is the call of path's fn, Invented unless the site's
	// function calls fn.
	pred := func(k ValueKind, path, fn string, args ...string) Observed {
		expr := imports[path] + "." + fn + "(" + strings.Join(args, ", ") + ")"
		return Observed{Expr: expr, Kind: k, Invented: !callsStd(called, path, fn)}
	}
	// as is r.expr converted to basic type k when it has another type
	// (a defined type, float32): s, not string(s), for a string.
	as := func(k types.BasicKind) string {
		if types.Identical(r.t, types.Typ[k]) {
			return r.expr
		}
		return types.Typ[k].Name() + "(" + r.expr + ")"
	}
	switch {
	case isBasic && b.Info()&types.IsFloat != 0:
		if imports["math"] != "" {
			out = append(out, pred(KindBool, "math", "IsNaN", as(types.Float64)),
				pred(KindBool, "math", "IsInf", as(types.Float64), "0"))
		}
	case types.Identical(r.t, types.Universe.Lookup("rune").Type()):
		if imports["unicode"] != "" {
			for _, f := range []string{"IsUpper", "IsLower", "IsDigit", "IsLetter", "IsSpace"} {
				out = append(out, pred(KindBool, "unicode", f, r.expr))
			}
		}
		if imports["unicode/utf8"] != "" {
			out = append(out, pred(KindInt, "unicode/utf8", "RuneLen", r.expr))
		}
	case isBasic && b.Info()&types.IsString != 0:
		if imports["strings"] == "" {
			break
		}
		for _, c := range consts {
			switch {
			case c.Value.Kind == KindString && c.Value.Str != "":
				for _, f := range []string{"Contains", "HasPrefix", "HasSuffix"} {
					out = append(out, pred(KindBool, "strings", f, as(types.String), c.Expr))
				}
			case c.Value.Kind == KindInt && strings.HasPrefix(c.Expr, "'"):
				out = append(out, pred(KindBool, "strings", "ContainsRune", as(types.String), c.Expr))
			}
		}
	case types.Identical(r.t, errorType):
		if imports["errors"] != "" {
			compared := o.data.comparedErrors()
			for _, s := range sentinels {
				if !slices.Contains(compared, s) { // observed as r == s
					out = append(out, pred(KindBool, "errors", "Is", r.expr, s))
				}
			}
		}
	}
	return out
}
