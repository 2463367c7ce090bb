package collect

import (
	"context"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"
)

// Purity: a call is observed at a site only when evaluating it cannot
// change what the program does next. A function of the module is pure
// when its body, checked on its syntax and types:
//
//   - assigns only to its own local variables, the fields of its local
//     struct values and the elements of its local arrays (no store
//     through a pointer, into a slice or map element or a package
//     variable);
//   - starts no goroutine, defers nothing, uses no channel, makes no
//     closure;
//   - calls only builtins that write nothing (len, cap, append, make,
//     new, min, max, complex, real, imag, panic), conversions, functions
//     and methods of the module that are themselves pure (at most
//     maxPureDepth calls deep; recursion is assumed pure, as its body is
//     checked anyway), and the standard-library functions of pureStd.
//
// A call through an interface is pure when the interface is declared in
// the module and every named type that may implement it has a pure
// method of that name, at least one type does (pureDynamic: goldmark's
// pc.IsInLinkLabel() through parser.Context, whose one implementation
// reads a map); so are the methods of reflect.Type listed in pureStd.
// Calls of function values are never pure. A pure call
// may still panic or loop: the hook evaluates it under recover (a panic
// is a missing value) and within a time bound.
const maxPureDepth = 4

// pureStd are standard-library functions and methods free of side
// effects, by types.Func.FullName.
var pureStd = map[string]bool{}

func init() {
	for pkg, names := range map[string]string{
		"strings":      "Contains ContainsAny ContainsRune HasPrefix HasSuffix Index IndexAny IndexByte IndexRune LastIndex LastIndexAny LastIndexByte Count EqualFold Compare TrimSpace Trim TrimLeft TrimRight TrimPrefix TrimSuffix ToLower ToUpper Fields Split SplitN Repeat Replace ReplaceAll Cut CutPrefix CutSuffix",
		"bytes":        "Contains ContainsAny ContainsRune HasPrefix HasSuffix Index IndexAny IndexByte IndexRune LastIndex LastIndexByte Count Equal EqualFold Compare TrimSpace Trim TrimLeft TrimRight TrimPrefix TrimSuffix",
		"unicode":      "IsUpper IsLower IsDigit IsLetter IsSpace IsPunct IsNumber IsControl IsPrint IsGraphic IsMark IsSymbol IsTitle ToUpper ToLower ToTitle In Is",
		"unicode/utf8": "RuneLen RuneCount RuneCountInString Valid ValidString ValidRune DecodeRune DecodeRuneInString DecodeLastRune DecodeLastRuneInString FullRune FullRuneInString RuneStart",
		"math":         "IsNaN IsInf Abs Max Min Floor Ceil Trunc Round Sqrt Signbit Inf NaN Pow Log Log2 Log10 Mod Float64bits Float64frombits Float32bits MaxInt",
		"math/bits":    "LeadingZeros LeadingZeros64 TrailingZeros TrailingZeros64 OnesCount OnesCount64 Len Len64",
		"strconv":      "Itoa FormatInt FormatUint FormatFloat FormatBool Quote QuoteRune IsPrint IsGraphic",
		"errors":       "Is",
		"slices":       "Contains Index Equal",
		"math/big":     "(*Int).Sign (*Int).Cmp (*Int).CmpAbs (*Int).BitLen (*Int).IsInt64 (*Int).IsUint64 (*Int).Int64 (*Int).Uint64 (*Float).Sign (*Float).IsInf (*Float).IsInt (*Rat).Sign (*Rat).IsInt",
		"time":         "Time.IsZero Time.Before Time.After Time.Equal Time.Unix Duration.Seconds Duration.Milliseconds",
		"reflect": "ValueOf TypeOf Value.IsNil Value.IsValid Value.IsZero Value.Len Value.Cap Value.Kind Value.CanAddr Value.CanSet Value.CanInterface Value.NumField Value.NumMethod " +
			"Value.Type Value.Bool Value.Int Value.Uint Value.Float Value.String Value.Field Value.Elem Value.Index Value.MapIndex Value.Interface Value.CanInt Value.CanUint Value.CanFloat " +
			"Kind.String StructTag.Get StructTag.Lookup " +
			// reflect.Type is an interface only package reflect implements
			// (it has unexported methods): its methods are static in effect.
			"Type.Kind Type.Elem Type.Key Type.Len Type.Name Type.PkgPath Type.String Type.NumField Type.Field Type.NumMethod Type.Implements Type.AssignableTo Type.ConvertibleTo Type.Comparable Type.Size Type.Bits Type.NumIn Type.NumOut Type.In Type.Out Type.IsVariadic",
	} {
		for _, n := range strings.Fields(names) {
			if strings.HasPrefix(n, "(") {
				// (*Int).Sign -> (*math/big.Int).Sign
				pureStd["(*"+pkg+"."+strings.TrimPrefix(n, "(*")] = true
				continue
			}
			if typ, m, ok := strings.Cut(n, "."); ok {
				pureStd["("+pkg+"."+typ+")."+m] = true
				continue
			}
			pureStd[pkg+"."+n] = true
		}
	}
}

// pureHigherOrder are standard-library functions free of side effects
// whose function argument is called: a call of one is pure when each of
// its function arguments is a pure function or a function literal whose
// body is pure by the same rules (semver's containsOnly, strings.IndexFunc
// with a literal that tests strings.ContainsRune). A literal anywhere else
// is not.
var pureHigherOrder = map[string]bool{}

func init() {
	for _, pkg := range []string{"strings", "bytes"} {
		for _, n := range strings.Fields("IndexFunc LastIndexFunc ContainsFunc TrimFunc TrimLeftFunc TrimRightFunc FieldsFunc") {
			pureHigherOrder[pkg+"."+n] = true
		}
	}
	pureHigherOrder["slices.IndexFunc"] = true
	pureHigherOrder["slices.ContainsFunc"] = true
}

// purity decides which functions are pure, with memoized answers.
type purity struct {
	decls map[*types.Func]funcSyntax
	memo  map[*types.Func]int8 // 1 pure, -1 not, 2 being checked
	// Other packages of the module (semver.Canonical called by modfile's
	// isCanonicalVersion) are parsed on first need: byName holds their
	// functions by types.Func.FullName, as their objects are not the
	// loaded program's; loaded says which were tried.
	module string
	load   func(pkgPath string) []*packages.Package
	byName map[string]funcSyntax
	loaded map[string]bool
	// others are the packages of the module loaded on first need, by
	// path; universes are the loaded program's packages, test variants
	// included (pureDynamic looks for implementations in them).
	others    map[string][]*packages.Package
	universes []*types.Package
}

// otherPackage returns fn's syntax from another package of the module,
// parsing that package on first need.
func (p *purity) otherPackage(fn *types.Func) (funcSyntax, bool) {
	if fs, ok := p.byName[fn.FullName()]; ok {
		return fs, true
	}
	path := ""
	if fn.Pkg() != nil {
		path = fn.Pkg().Path()
	}
	if p.load == nil || p.loaded[path] || !p.inModule(path) {
		return funcSyntax{}, false
	}
	p.loaded[path] = true
	pkgs := p.load(path)
	p.others[path] = pkgs
	for _, pkg := range pkgs {
		if pkg.TypesInfo == nil {
			continue
		}
		for _, f := range pkg.Syntax {
			for _, decl := range f.Decls {
				if fd, ok := decl.(*ast.FuncDecl); ok && fd.Body != nil {
					if obj, ok := pkg.TypesInfo.Defs[fd.Name].(*types.Func); ok {
						p.byName[obj.FullName()] = funcSyntax{fd, pkg.TypesInfo}
					}
				}
			}
		}
	}
	fs, ok := p.byName[fn.FullName()]
	return fs, ok
}

// funcSyntax is a function declaration with the types of its package.
type funcSyntax struct {
	decl *ast.FuncDecl
	info *types.Info
}

// purity returns the program's purity analysis, built on first use.
func (prog *Program) purity(ctx context.Context) *purity {
	if prog.pure != nil {
		return prog.pure
	}
	p := &purity{decls: map[*types.Func]funcSyntax{}, memo: map[*types.Func]int8{},
		module: prog.Module, byName: map[string]funcSyntax{}, loaded: map[string]bool{}, others: map[string][]*packages.Package{}}
	p.load = func(path string) []*packages.Package {
		cfg := &packages.Config{Context: ctx, Mode: packages.NeedName | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo, Dir: prog.Dir}
		if len(prog.tags) > 0 {
			cfg.BuildFlags = []string{"-tags=" + strings.Join(prog.tags, ",")}
		}
		pkgs, err := packages.Load(cfg, path)
		if err != nil {
			return nil
		}
		return pkgs
	}
	for _, d := range prog.pkgs {
		for _, pkg := range append([]*packages.Package{d.pkg}, d.tests...) {
			if pkg == nil || pkg.Types == nil || pkg.TypesInfo == nil {
				continue
			}
			p.universes = append(p.universes, pkg.Types)
			for _, f := range pkg.Syntax {
				for _, decl := range f.Decls {
					fd, ok := decl.(*ast.FuncDecl)
					if !ok || fd.Body == nil {
						continue
					}
					if fn, ok := pkg.TypesInfo.Defs[fd.Name].(*types.Func); ok {
						p.decls[fn] = funcSyntax{fd, pkg.TypesInfo}
					}
				}
			}
		}
	}
	prog.pure = p
	return p
}

// pure reports whether calling fn has no side effects.
func (p *purity) pure(fn *types.Func, depth int) bool {
	fn = fn.Origin()
	if pureStd[fn.FullName()] {
		return true
	}
	if recv := fn.Signature().Recv(); recv != nil && types.IsInterface(recv.Type()) {
		if depth > maxPureDepth {
			return false
		}
		return p.memoized(fn, func() bool { return p.pureDynamic(fn, depth) })
	}
	fs, ok := p.decls[fn]
	if !ok && depth <= maxPureDepth {
		fs, ok = p.otherPackage(fn)
	}
	if !ok || depth > maxPureDepth {
		return false
	}
	return p.memoized(fn, func() bool { return p.pureBody(fs, depth) })
}

// memoized is decide's answer for fn, computed once: a function met again
// while its answer is being decided (recursion) counts as pure, so that a
// recursive function is judged by the rest of its body.
func (p *purity) memoized(fn *types.Func, decide func() bool) bool {
	switch p.memo[fn] {
	case 1, 2:
		return true
	case -1:
		return false
	}
	p.memo[fn] = 2
	ok := decide()
	p.memo[fn] = -1
	if ok {
		p.memo[fn] = 1
	}
	return ok
}

// pureBody checks a function's body (see the package comment above).
func (p *purity) pureBody(fs funcSyntax, depth int) bool {
	fd, info := fs.decl, fs.info
	var local func(e ast.Expr) bool
	local = func(e ast.Expr) bool {
		// A field of a local struct value or an element of a local array
		// is local too (p.major = ... in a parser that fills its result).
		switch x := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			if sel := info.Selections[x]; sel != nil && sel.Kind() == types.FieldVal && !sel.Indirect() {
				if _, isPtr := info.TypeOf(x.X).Underlying().(*types.Pointer); !isPtr {
					return local(x.X)
				}
			}
			return false
		case *ast.IndexExpr:
			if _, isArray := info.TypeOf(x.X).Underlying().(*types.Array); isArray {
				return local(x.X)
			}
			return false
		}
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return false
		}
		if id.Name == "_" {
			return true
		}
		obj := info.ObjectOf(id)
		v, ok := obj.(*types.Var)
		return ok && v.Pos() >= fd.Pos() && v.Pos() < fd.End() && !v.IsField()
	}
	ok := true
	// The function literals passed to a pure higher-order call: their
	// bodies are checked as the function's own (a variable they assign is
	// the function's local or their own).
	lits := map[*ast.FuncLit]bool{}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if !ok {
			return false
		}
		if lit, isLit := n.(*ast.FuncLit); isLit && lits[lit] {
			return true
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if !local(l) {
					ok = false
				}
			}
		case *ast.IncDecStmt:
			ok = local(n.X)
		case *ast.RangeStmt:
			if n.Tok == token.ASSIGN && ((n.Key != nil && !local(n.Key)) || (n.Value != nil && !local(n.Value))) {
				ok = false
			}
			if tv, found := info.Types[n.X]; found {
				if _, isChan := tv.Type.Underlying().(*types.Chan); isChan {
					ok = false
				}
			}
		case *ast.GoStmt, *ast.DeferStmt, *ast.SendStmt, *ast.SelectStmt, *ast.FuncLit:
			ok = false
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				ok = false
			}
		case *ast.CallExpr:
			ok = p.pureCall(n, info, depth) || p.pureHigherOrderCall(n, info, depth, lits)
		}
		return ok
	})
	return ok
}

// pureHigherOrderCall reports whether call is a call of a function of
// pureHigherOrder whose function arguments are pure functions or
// function literals, which it adds to lits (their bodies are checked
// where they are visited).
func (p *purity) pureHigherOrderCall(call *ast.CallExpr, info *types.Info, depth int, lits map[*ast.FuncLit]bool) bool {
	fun := ast.Unparen(call.Fun)
	if ix, ok := fun.(*ast.IndexExpr); ok {
		fun = ix.X
	} else if ix, ok := fun.(*ast.IndexListExpr); ok {
		fun = ix.X
	}
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	f, ok := info.Uses[sel.Sel].(*types.Func)
	if !ok || !pureHigherOrder[f.Origin().FullName()] {
		return false
	}
	var found []*ast.FuncLit
	for _, a := range call.Args {
		tv, ok := info.Types[a]
		if !ok {
			return false
		}
		if _, isFunc := tv.Type.Underlying().(*types.Signature); !isFunc {
			continue
		}
		switch a := ast.Unparen(a).(type) {
		case *ast.FuncLit:
			found = append(found, a)
		case *ast.Ident, *ast.SelectorExpr:
			var id *ast.Ident
			if s, isSel := a.(*ast.SelectorExpr); isSel {
				id = s.Sel
			} else {
				id = a.(*ast.Ident)
			}
			g, ok := info.Uses[id].(*types.Func)
			if !ok || !p.pure(g, depth+1) {
				return false // a function value, or an impure function
			}
		default:
			return false
		}
	}
	for _, lit := range found {
		lits[lit] = true
	}
	return true
}

// pureCall reports whether a call written in a function being checked is
// pure: a conversion, a builtin that writes nothing, or a static call of
// a pure function.
func (p *purity) pureCall(call *ast.CallExpr, info *types.Info, depth int) bool {
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
		return true // a conversion
	}
	fun := ast.Unparen(call.Fun)
	if ix, ok := fun.(*ast.IndexExpr); ok {
		fun = ix.X // an instantiation f[T]
	} else if ix, ok := fun.(*ast.IndexListExpr); ok {
		fun = ix.X
	}
	var obj types.Object
	switch f := fun.(type) {
	case *ast.Ident:
		obj = info.Uses[f]
	case *ast.SelectorExpr:
		if sel := info.Selections[f]; sel != nil {
			if sel.Kind() != types.MethodVal {
				return false // a method value's call
			}
			obj = sel.Obj()
		} else {
			obj = info.Uses[f.Sel] // pkg.Func
		}
	}
	switch obj := obj.(type) {
	case *types.Builtin:
		switch obj.Name() {
		case "len", "cap", "append", "make", "new", "min", "max", "complex", "real", "imag", "panic":
			return true
		}
		return false
	case *types.Func:
		return p.pure(obj, depth+1)
	}
	return false // a call of a function value
}

// pureDynamic reports whether a call of the interface method m is pure
// (see the package comment above). The types that may implement m's
// interface are looked for in the loaded program's packages, their test
// variants included, and in the interface's own package: in a package
// where the interface is in scope (its own, or one importing it), the
// types that implement it; elsewhere, every type with a method of m's
// name. A generic type with such a method makes the call impure (it is
// not checked per instance).
func (p *purity) pureDynamic(m *types.Func, depth int) bool {
	named, ok := types.Unalias(m.Signature().Recv().Type()).(*types.Named)
	if !ok || named.Obj().Pkg() == nil || !p.inModule(named.Obj().Pkg().Path()) {
		return false
	}
	path, name := named.Obj().Pkg().Path(), named.Obj().Name()
	universes := p.universes
	if !slices.ContainsFunc(universes, func(u *types.Package) bool { return u.Path() == path }) {
		p.otherPackage(m) // loads the interface's package
		for _, pkg := range p.others[path] {
			if pkg.Types != nil {
				universes = append(universes, pkg.Types)
			}
		}
	}
	found := false
	for _, u := range universes {
		var iface *types.Interface
		if obj, ok := lookupIn(u, path, name).(*types.TypeName); ok {
			iface, _ = obj.Type().Underlying().(*types.Interface)
		}
		for _, n := range u.Scope().Names() {
			tn, ok := u.Scope().Lookup(n).(*types.TypeName)
			if !ok || tn.IsAlias() || types.IsInterface(tn.Type()) {
				continue
			}
			ptr := types.NewPointer(tn.Type())
			obj, _, _ := types.LookupFieldOrMethod(ptr, false, tn.Pkg(), m.Name())
			impl, ok := obj.(*types.Func)
			if !ok {
				continue
			}
			if iface != nil && !types.Implements(tn.Type(), iface) && !types.Implements(ptr, iface) {
				continue
			}
			if nt, isNamed := tn.Type().(*types.Named); isNamed && nt.TypeParams().Len() > 0 {
				return false
			}
			if !p.pure(impl, depth+1) {
				return false
			}
			found = true
		}
	}
	return found
}

// inModule reports whether the package path is the module's or one of
// its packages'.
func (p *purity) inModule(path string) bool {
	return p.module != "" && (path == p.module || strings.HasPrefix(path, p.module+"/"))
}

// lookupIn returns the object named name of the package path as the
// package u sees it: u's own, or that of a package u imports, directly
// or not; nil when u does not reach path.
func lookupIn(u *types.Package, path, name string) types.Object {
	seen := map[*types.Package]bool{}
	var walk func(q *types.Package) types.Object
	walk = func(q *types.Package) types.Object {
		if seen[q] {
			return nil
		}
		seen[q] = true
		if q.Path() == path {
			return q.Scope().Lookup(name)
		}
		for _, imp := range q.Imports() {
			if obj := walk(imp); obj != nil {
				return obj
			}
		}
		return nil
	}
	return walk(u)
}
