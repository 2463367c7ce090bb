package collect

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"sort"

	"github.com/nopol-go/nopol/internal/astname"
)

// Checks the file writes elsewhere. A missing guard or clause is often a
// check the same file already makes in another function, over the same
// parameters or package state (the "fix ingredients" of the plastic
// surgery hypothesis, Barr et al., FSE 2014): go-toml's
// unmarshalLocalDate tests `v.Kind() != reflect.Interface && v.Type() !=
// timeType` before it sets v, and unmarshalLocalDateTime, a few lines
// below, lacked the same test. So a site also observes, as booleans, the
// atoms of the file's if conditions (the comparisons and boolean calls
// below &&, || and !) that:
//
//   - read only package-level names and parameters (or receivers) that
//     the site's function has too, with the same name and an identical
//     type (a local of another function means something else), and no
//     package variable whose reading would close an initialization
//     cycle (initGraph); or a local both functions define once, never
//     assign again nor take the address of, with the same expression
//     over such names: go-cmp's SortSlices and SortMaps both begin
//     `vf := reflect.ValueOf(lessOrCompareFunc)`, so the one's
//     `function.IsType(vf.Type(), function.Compare)` is the other's
//     (sameLocal);
//   - have no side effect: fields, len and cap, conversions, and calls
//     the purity analysis proves pure (see purity), no index;
//   - compile at the site and are not observed already.
//
// Those that read an operand of the site's statement or condition come
// first, then those the file writes most; at most maxFileAtoms. They are
// evaluated in snapshot runs only, under recover (Observed.Call).
const maxFileAtoms = 4

// condLeaf is an atom of a file's conditions: its source, how many times
// the file writes it, the parameters of the function it is written in,
// and the functions it calls.
type condLeaf struct {
	e       ast.Expr
	src     string
	count   int
	origin  map[types.Object]bool
	callees []*types.Func
	// defs are the locals of the function it is written in that are
	// defined once (singleDefs).
	defs map[types.Object]ast.Expr
}

// fileFacts are what the sites of one file look up in the whole file,
// found once per file (pkgData.factsOf).
type fileFacts struct {
	// leaves are the side-effect-free atoms of the file's if conditions,
	// in source order, without duplicates (the first written kept).
	leaves []*condLeaf
	// inConds counts the calls of each function and method in the
	// file's if conditions (calls.go).
	inConds map[*types.Func]int
	// foreignConsts are the constants of other packages the file names
	// (reflect.Array), in source order (siblingConstants).
	foreignConsts []fileConst
	// siblings are, per function of the file, its siblings (siblingsOf,
	// filled as guard sites ask).
	siblings map[*ast.FuncDecl][]sibling
	// guardsAfter are the file's one-exit ifs by the one-line text of the
	// statement before them (twinGuards, built at the first guard site
	// that asks).
	guardsAfter map[string][]guardAfter
}

// fileConst is a constant of another package named in the file.
type fileConst struct {
	sel  *ast.SelectorExpr
	expr string
	c    *types.Const
}

// factsOf returns the facts of file f, whose sites o observes.
func (d *pkgData) factsOf(f *ast.File, o *observer) *fileFacts {
	if ff, ok := d.facts[f]; ok {
		return ff
	}
	ff := &fileFacts{inConds: map[*types.Func]int{}}
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.IfStmt:
			ast.Inspect(x.Cond, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					if fn, ok := calleeFunc(call, o.info); ok {
						ff.inConds[fn.Origin()]++
					}
				}
				return true
			})
		case *ast.SelectorExpr:
			c, ok := o.info.Uses[x.Sel].(*types.Const)
			if !ok || c.Pkg() == o.pkg {
				return true
			}
			if id, ok := x.X.(*ast.Ident); ok {
				if _, ok := o.info.Uses[id].(*types.PkgName); ok {
					ff.foreignConsts = append(ff.foreignConsts, fileConst{x, types.ExprString(x), c})
				}
			}
		}
		return true
	})
	if o.pure != nil {
		ff.leaves = o.condLeaves(f)
	}
	if d.facts == nil {
		d.facts = map[*ast.File]*fileFacts{}
	}
	d.facts[f] = ff
	return ff
}

// condLeaves returns the side-effect-free atoms of the if conditions of
// file f, in source order, without duplicates (the first written kept).
func (o *observer) condLeaves(f *ast.File) []*condLeaf {
	var out []*condLeaf
	bySrc := map[string]*condLeaf{}
	leaf := func(e ast.Expr, origin map[types.Object]bool, defs map[types.Object]ast.Expr) {
		if tv, ok := o.info.Types[e]; !ok || tv.Value != nil || !isBool(tv.Type) {
			return
		}
		src := types.ExprString(e)
		if l := bySrc[src]; l != nil {
			l.count++
			return
		}
		var callees []*types.Func
		if !o.sideEffectFree(e, &callees) {
			return
		}
		l := &condLeaf{e: e, src: src, count: 1, origin: origin, callees: callees, defs: defs}
		bySrc[src] = l
		out = append(out, l)
	}
	for _, decl := range f.Decls {
		fd, ok := decl.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		origin := o.paramObjects(fd)
		defs := singleDefs(fd.Body, o.info)
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if ifs, ok := n.(*ast.IfStmt); ok {
				astname.BoolAtoms(ifs.Cond, func(e ast.Expr) { leaf(e, origin, defs) })
			}
			return true
		})
	}
	return out
}

// fileAtoms returns the atoms of the file's conditions (leaves) that site
// node of function fn may observe (see above).
func (o *observer) fileAtoms(fn, node ast.Node) []Observed {
	if o.pure == nil || fn == nil {
		return nil
	}
	leaves := o.facts.leaves
	params := o.paramsOf(fn)
	var here map[types.Object]ast.Expr // the site function's, on first need
	type ranked struct {
		*condLeaf
		reads bool
	}
	named := identNames(node)
	var cands []ranked
	for _, l := range leaves {
		if contains(node, l.e) || slices.ContainsFunc(l.callees, func(f *types.Func) bool {
			return f == o.fn || f.Pkg() == o.pkg && !o.graph.mayCall(o.fn, f.Origin())
		}) {
			continue
		}
		same := func(v *types.Var) bool {
			if here == nil {
				here = singleDefs(bodyOf(fn), o.info)
			}
			return o.sameLocal(v, l, params, here)
		}
		names, ok := o.portable(l.e, l.origin, params, same)
		if !ok {
			continue
		}
		cands = append(cands, ranked{l, slices.ContainsFunc(names, func(n string) bool { return named[n] })})
	}
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].reads != cands[j].reads {
			return cands[i].reads
		}
		return cands[i].count > cands[j].count
	})
	var out []Observed
	for _, c := range cands {
		if len(out) == maxFileAtoms {
			break
		}
		if o.seen[c.src] || o.checkExpr(c.src) != nil {
			continue
		}
		o.seen[c.src] = true
		out = append(out, Observed{Expr: c.src, Kind: KindBool, Call: true})
	}
	return out
}

// withFileAtoms inserts atoms into obs after the natoms atoms of the
// site's condition and the observations that follow them most closely
// (the calls of withCalls come first), within maxObserved.
func (o *observer) withFileAtoms(obs []Observed, natoms int, atoms []Observed) []Observed {
	return insertObserved(obs, natoms+10+maxCalls, atoms)
}

// insertObserved inserts more into obs at index at (or at its end), and
// keeps maxObserved of the result, or more to keep all of more.
func insertObserved(obs []Observed, at int, more []Observed) []Observed {
	if len(more) == 0 {
		return obs
	}
	at = min(len(obs), at)
	out := append(append(append([]Observed(nil), obs[:at]...), more...), obs[at:]...)
	return out[:min(len(out), max(maxObserved, at+len(more)))]
}

// identNames is the set of the identifiers in node.
func identNames(node ast.Node) map[string]bool {
	out := map[string]bool{}
	ast.Inspect(node, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			out[id.Name] = true
		}
		return true
	})
	return out
}

// contains reports whether outer's source range holds inner.
func contains(outer, inner ast.Node) bool {
	return outer.Pos() <= inner.Pos() && inner.End() <= outer.End()
}

func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsBoolean != 0
}

// paramIdents returns the names of the parameters and receiver of fn, a
// function declaration or literal.
func paramIdents(fn ast.Node) []*ast.Ident {
	var fls []*ast.FieldList
	switch f := fn.(type) {
	case *ast.FuncDecl:
		fls = []*ast.FieldList{f.Recv, f.Type.Params}
	case *ast.FuncLit:
		fls = []*ast.FieldList{f.Type.Params}
	}
	var out []*ast.Ident
	for _, fl := range fls {
		if fl != nil {
			for _, f := range fl.List {
				out = append(out, f.Names...)
			}
		}
	}
	return out
}

// paramObjects returns the parameters and receiver of fd.
func (o *observer) paramObjects(fd *ast.FuncDecl) map[types.Object]bool {
	out := map[types.Object]bool{}
	for _, n := range paramIdents(fd) {
		if obj := o.info.Defs[n]; obj != nil {
			out[obj] = true
		}
	}
	return out
}

// paramsOf returns the parameters and receiver of fn by name.
func (o *observer) paramsOf(fn ast.Node) map[string]types.Type {
	out := map[string]types.Type{}
	for _, n := range paramIdents(fn) {
		if obj := o.info.Defs[n]; obj != nil {
			out[n.Name] = obj.Type()
		}
	}
	return out
}

// portable reports whether atom e, written in a function whose parameters
// are origin, means the same at the site: every variable it reads is a
// package-level one, a parameter that the site's function has, by name
// and type (params), or a local for which local (nil: none) says so.
// names are the variables it reads.
func (o *observer) portable(e ast.Expr, origin map[types.Object]bool, params map[string]types.Type, local func(*types.Var) bool) (names []string, ok bool) {
	ok = true
	ast.Inspect(e, func(n ast.Node) bool {
		id, isID := n.(*ast.Ident)
		if !isID || !ok {
			return ok
		}
		v, isVar := o.info.Uses[id].(*types.Var)
		if !isVar || v.IsField() {
			return true
		}
		switch {
		case v.Parent() == o.pkg.Scope():
			if !o.graph.mayObserve(o.fn, v) {
				ok = false // an initialization cycle (initGraph)
			}
		case origin[v]:
			if t, has := params[id.Name]; !has || !types.Identical(t, v.Type()) {
				ok = false
			}
		default:
			ok = local != nil && local(v)
		}
		if !slices.Contains(names, id.Name) {
			names = append(names, id.Name)
		}
		return true
	})
	return names, ok
}

// sameLocal reports whether v, a local of the function leaf l is written
// in, means the same at the site: both functions define a local of its
// name once (here: the site function's singleDefs) with the same type and
// the same expression, which reads only what is portable without locals,
// and the site's is the one in scope there.
func (o *observer) sameLocal(v *types.Var, l *condLeaf, params map[string]types.Type, here map[types.Object]ast.Expr) bool {
	def, ok := l.defs[v]
	if !ok {
		return false
	}
	inner := o.pkg.Scope().Innermost(o.pos)
	if inner == nil {
		return false
	}
	_, w := inner.LookupParent(v.Name(), o.pos)
	wv, ok := w.(*types.Var)
	if !ok || !types.Identical(wv.Type(), v.Type()) {
		return false
	}
	hdef, ok := here[wv]
	if !ok || types.ExprString(hdef) != types.ExprString(def) {
		return false
	}
	var callees []*types.Func
	if !o.sideEffectFree(def, &callees) {
		return false
	}
	_, ok = o.portable(def, l.origin, params, nil)
	return ok
}

// singleDefs returns the locals body defines once, with one value
// (`x := e`, `var x = e`), whose name it never assigns again (to the
// variable, a field or an element of it: assignedNames), increments,
// ranges over or takes the address of, with their defining expressions.
func singleDefs(body *ast.BlockStmt, info *types.Info) map[types.Object]ast.Expr {
	out := map[types.Object]ast.Expr{}
	if body == nil {
		return out
	}
	writes := map[string]int{}
	for _, name := range assignedNames(body) {
		writes[name]++
	}
	ast.Inspect(body, func(n ast.Node) bool {
		if r, ok := n.(*ast.RangeStmt); ok {
			for _, k := range []ast.Expr{r.Key, r.Value} {
				if id, ok := k.(*ast.Ident); ok {
					writes[id.Name]++
				}
			}
		}
		return true
	})
	ast.Inspect(body, func(n ast.Node) bool {
		var id *ast.Ident
		var val ast.Expr
		switch x := n.(type) {
		case *ast.AssignStmt:
			if x.Tok == token.DEFINE && len(x.Lhs) == 1 && len(x.Rhs) == 1 {
				id, _ = x.Lhs[0].(*ast.Ident)
				val = x.Rhs[0]
			}
		case *ast.ValueSpec:
			if len(x.Names) == 1 && len(x.Values) == 1 {
				id, val = x.Names[0], x.Values[0]
			}
		}
		if id != nil && writes[id.Name] == 1 {
			if obj := info.Defs[id]; obj != nil {
				out[obj] = val
			}
		}
		return true
	})
	return out
}

// sideEffectFree reports whether e reads without writing: names, fields,
// literals, operators, conversions, len and cap, and calls of pure
// functions and methods (added to callees); no index, slice, receive or
// address.
func (o *observer) sideEffectFree(e ast.Expr, callees *[]*types.Func) bool {
	switch x := e.(type) {
	case *ast.Ident, *ast.BasicLit:
		return true
	case *ast.ParenExpr:
		return o.sideEffectFree(x.X, callees)
	case *ast.SelectorExpr:
		if sel := o.info.Selections[x]; sel != nil {
			return sel.Kind() == types.FieldVal && o.sideEffectFree(x.X, callees)
		}
		return true // a qualified name
	case *ast.StarExpr:
		return o.sideEffectFree(x.X, callees)
	case *ast.UnaryExpr:
		return x.Op != token.ARROW && x.Op != token.AND && o.sideEffectFree(x.X, callees)
	case *ast.BinaryExpr:
		return o.sideEffectFree(x.X, callees) && o.sideEffectFree(x.Y, callees)
	case *ast.CallExpr:
		for _, a := range x.Args {
			if !o.sideEffectFree(a, callees) {
				return false
			}
		}
		if tv, ok := o.info.Types[x.Fun]; ok && tv.IsType() {
			return true // a conversion
		}
		fun := ast.Unparen(x.Fun)
		if id, ok := fun.(*ast.Ident); ok {
			if b, ok := o.info.Uses[id].(*types.Builtin); ok {
				return b.Name() == "len" || b.Name() == "cap"
			}
		}
		f, ok := calleeFunc(x, o.info)
		if !ok || f.Signature().Variadic() || !o.pure.pure(f, 0) {
			return false
		}
		*callees = append(*callees, f)
		if sel, ok := fun.(*ast.SelectorExpr); ok && o.info.Selections[sel] != nil {
			return o.sideEffectFree(sel.X, callees)
		}
		return true
	}
	return false
}
