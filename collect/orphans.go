package collect

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"
)

// Orphans: a check deleted from a function often leaves behind what only
// it used. The function it called is then called nowhere (staticcheck's
// U1000), the option field it tested is set and never read. BurntSushi/toml
// v1.3.0's eStruct lost
//
//	if opts.omitempty && isEmpty(fieldVal) {
//		continue
//	}
//
// and with it the only call of isEmpty and the only read of
// tagOptions.omitempty, while the same loop still has
//
//	if opts.omitzero && isZero(fieldVal) {
//		continue
//	}
//
// A twin guard written with orphans is such a guard of the site's function
// with each operand that has an orphan sibling replaced by it (omitzero by
// omitempty, fields of one struct of one type; isZero by isEmpty,
// functions of one signature), offered at the guard sites of that
// function where it compiles (StrategyTwin; Exit.From names the orphans),
// those that use the most orphans first.
// go-cmp's compareAny lost `if s.tryMethod(t, vx, vy) { return }` beside
// `if s.tryOptions(t, vx, vy) { return }` the same way.
//
// An orphan is, in the package's non-test code, an unexported function or
// method that nothing but its own body refers to (a method no interface
// of the package declares: one called through it is not named); an
// unexported constant
// or variable nothing refers to; a field of one of the package's structs
// that nothing reads (an exported one that nothing writes either: a
// setting the package never looks at, not a result it fills in).

// orphanSet holds a package's orphans.
type orphanSet map[types.Object]bool

// orphans returns the orphans of d's non-test package, found on first use.
func (d *pkgData) orphans() orphanSet {
	if d.orphanObjs != nil {
		return d.orphanObjs
	}
	out := orphanSet{}
	d.orphanObjs = out
	tpkg, info := d.pkg.Types, d.pkg.TypesInfo
	if tpkg == nil || info == nil {
		return out
	}
	// Every declaration's object, and the uses of each outside it.
	decls := map[types.Object]ast.Node{}
	fields := map[*types.Var]bool{}
	for _, f := range d.pkg.Syntax {
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				if obj := info.Defs[decl.Name]; obj != nil && !decl.Name.IsExported() && decl.Name.Name != "init" && decl.Name.Name != "main" {
					decls[obj] = decl
				}
			case *ast.GenDecl:
				for _, spec := range decl.Specs {
					switch spec := spec.(type) {
					case *ast.ValueSpec:
						for _, name := range spec.Names {
							if obj := info.Defs[name]; obj != nil && !name.IsExported() && name.Name != "_" {
								decls[obj] = spec
							}
						}
					case *ast.TypeSpec:
						st, ok := spec.Type.(*ast.StructType)
						if !ok {
							continue
						}
						for _, fl := range st.Fields.List {
							for _, name := range fl.Names {
								if v, ok := info.Defs[name].(*types.Var); ok && name.Name != "_" {
									fields[v] = true
								}
							}
						}
					}
				}
			}
		}
	}
	used := map[types.Object]bool{}
	read, written := map[*types.Var]bool{}, map[*types.Var]bool{}
	for _, f := range d.pkg.Syntax {
		lhs := map[ast.Expr]bool{}
		ast.PreorderStack(f, nil, func(n ast.Node, stack []ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, l := range n.Lhs {
					lhs[ast.Unparen(l)] = true
				}
			case *ast.CompositeLit:
				// An unkeyed struct literal writes its fields in order.
				t := info.TypeOf(n)
				if t == nil || len(n.Elts) == 0 {
					return true
				}
				st, ok := t.Underlying().(*types.Struct)
				if p, isPtr := t.Underlying().(*types.Pointer); isPtr {
					st, ok = p.Elem().Underlying().(*types.Struct)
				}
				if !ok {
					return true
				}
				if _, keyed := n.Elts[0].(*ast.KeyValueExpr); !keyed {
					for i := range min(len(n.Elts), st.NumFields()) {
						written[st.Field(i)] = true
					}
				}
			case *ast.KeyValueExpr:
				if id, ok := n.Key.(*ast.Ident); ok {
					if v, ok := info.Uses[id].(*types.Var); ok && v.IsField() {
						written[v] = true
						lhs[id] = true
					}
				}
			case *ast.Ident:
				obj := info.Uses[n]
				if obj == nil || lhs[n] {
					return true
				}
				if v, ok := obj.(*types.Var); ok && fields[v] {
					// A field named alone is a composite literal's key
					// (counted above) or an embedded field's promotion.
					read[v] = true
				}
				if decl, ok := decls[obj]; ok && !slices.Contains(stack, decl) {
					used[obj] = true
				}
			case *ast.SelectorExpr:
				v, ok := info.Uses[n.Sel].(*types.Var)
				if !ok || !fields[v] {
					return true
				}
				if lhs[n] {
					written[v] = true
				} else {
					read[v] = true
				}
				lhs[n.Sel] = true // not read again as an identifier
			}
			return true
		})
	}
	// A method may be called through an interface of the package, which
	// names the interface's method, not it.
	viaInterface := map[string]bool{}
	for _, name := range tpkg.Scope().Names() {
		if it, ok := tpkg.Scope().Lookup(name).Type().Underlying().(*types.Interface); ok {
			for m := range it.Methods() {
				viaInterface[m.Name()] = true
			}
		}
	}
	for obj := range decls {
		if f, ok := obj.(*types.Func); ok && f.Signature().Recv() != nil && viaInterface[f.Name()] {
			continue
		}
		if !used[obj] {
			out[obj] = true
		}
	}
	for v := range fields {
		if !read[v] && (!v.Exported() || !written[v]) {
			out[v] = true
		}
	}
	return out
}

// orphanSibling returns the orphan that can stand for the object x names
// in e (an identifier, or a selector's field or method): a field of the
// same struct, a method of the same type, a package function, constant or
// variable, of an identical type; "" when there is none, or more than
// one.
func (o *observer) orphanSibling(e ast.Expr, orphans orphanSet) (string, types.Object) {
	var x types.Object
	var recv types.Type
	switch e := e.(type) {
	case *ast.Ident:
		x = o.info.Uses[e]
	case *ast.SelectorExpr:
		x = o.info.Uses[e.Sel]
		if sel, ok := o.info.Selections[e]; ok {
			recv = sel.Recv()
		}
	}
	if x == nil || orphans[x] || x.Pkg() != o.pkg {
		return "", nil
	}
	found := ""
	for y := range orphans {
		if !siblings(x, y, recv, o.pkg) {
			continue
		}
		if found != "" {
			return "", nil // ambiguous
		}
		found = y.Name()
	}
	return found, x
}

// siblings reports whether orphan y can stand for x: the same kind of
// object, of an identical type, a field or method of the type recv when x
// is (recv is the selector's receiver type).
func siblings(x, y types.Object, recv types.Type, pkg *types.Package) bool {
	switch x := x.(type) {
	case *types.Var:
		yv, ok := y.(*types.Var)
		if !ok || x.IsField() != yv.IsField() || !types.Identical(x.Type(), yv.Type()) {
			return false
		}
		if !x.IsField() {
			return x.Parent() == pkg.Scope() && yv.Parent() == pkg.Scope()
		}
		if recv == nil {
			return false
		}
		obj, _, _ := types.LookupFieldOrMethod(recv, true, pkg, y.Name())
		return obj == y
	case *types.Const:
		yc, ok := y.(*types.Const)
		return ok && types.Identical(x.Type(), yc.Type())
	case *types.Func:
		yf, ok := y.(*types.Func)
		if !ok {
			return false
		}
		xs, ys := x.Signature(), yf.Signature()
		if (xs.Recv() == nil) != (ys.Recv() == nil) || !types.Identical(xs.Params(), ys.Params()) || !types.Identical(xs.Results(), ys.Results()) {
			return false
		}
		if xs.Recv() == nil {
			return true
		}
		if recv == nil {
			return false
		}
		obj, _, _ := types.LookupFieldOrMethod(recv, true, pkg, y.Name())
		return obj == y
	}
	return false
}

// withOrphans returns the source of n (a condition or statement of the
// file) with each operand that has an orphan sibling replaced by it, and
// the orphans used; "" when none is replaced. An orphan stands for one
// name (the one the deleted check used where the file now has another):
// where it would replace two different names, in n or in an earlier
// part of the same rewrite (stands, filled as it goes), n is not
// rewritten and clash is true. uniseg's one unused int constant,
// gcNone, would otherwise turn `state == wbNewline || state == wbCR ||
// state == wbLF` into `state == gcNone || state == gcNone || state ==
// gcNone`.
func (o *observer) withOrphans(n ast.Node, src []byte, tf *token.File, orphans orphanSet, stands map[string]types.Object) (text string, used []string, clash bool) {
	type edit struct {
		start, end int
		text       string
	}
	var edits []edit
	ast.Inspect(n, func(m ast.Node) bool {
		if clash {
			return false
		}
		e, ok := m.(ast.Expr)
		if !ok {
			return true
		}
		at := e
		switch m := m.(type) {
		case *ast.SelectorExpr:
			at = m.Sel
		case *ast.Ident:
		default:
			return true
		}
		// A selector's Sel, seen again as an identifier, has no
		// receiver type: orphanSibling finds no field or method for it.
		name, x := o.orphanSibling(e, orphans)
		if name == "" {
			return true
		}
		if was, ok := stands[name]; ok && was != x {
			clash = true
			return false
		}
		stands[name] = x
		edits = append(edits, edit{tf.Offset(at.Pos()), tf.Offset(at.End()), name})
		if !slices.Contains(used, name) {
			used = append(used, name)
		}
		return true
	})
	if clash || len(edits) == 0 {
		return "", nil, clash
	}
	slices.SortFunc(edits, func(a, b edit) int { return a.start - b.start })
	start, end := tf.Offset(n.Pos()), tf.Offset(n.End())
	if start < 0 || end > len(src) {
		return "", nil, false
	}
	var b strings.Builder
	at := start
	for _, e := range edits {
		if e.start < at || e.end > end {
			return "", nil, false
		}
		b.WriteString(string(src[at:e.start]))
		b.WriteString(e.text)
		at = e.end
	}
	b.WriteString(string(src[at:end]))
	return joinLines(b.String()), used, false
}

// OrphansFrom begins the Exit.From of a twin guard written with orphans;
// the orphans it uses follow.
const OrphansFrom = "orphans "

// maxOrphanTwins bounds the twin guards written with orphans offered at
// one site.
const maxOrphanTwins = 2

// orphanRewrite is a one-exit if written with orphans (withOrphans): its
// condition and exit, the orphans they use, and the exit's return results
// as rewritten (the original's text to the new). It does not depend on
// the site, so each if is rewritten once (pkgData.rewrites).
type orphanRewrite struct {
	guard, body string
	used        []string
	results     map[string]string
}

// rewrite returns ifs written with the package's orphans (rewriteOf),
// computed once per if.
func (o *observer) rewrite(ifs *ast.IfStmt, src []byte, tf *token.File, orphans orphanSet) *orphanRewrite {
	if w, ok := o.data.rewrites[ifs]; ok {
		return w
	}
	if o.data.rewrites == nil {
		o.data.rewrites = map[*ast.IfStmt]*orphanRewrite{}
	}
	w := o.rewriteOf(ifs, src, tf, orphans)
	o.data.rewrites[ifs] = w
	return w
}

// rewriteOf returns ifs written with the package's orphans; nil when no
// operand of its condition has an orphan sibling, or when one orphan
// would stand for two names (withOrphans), in the condition or in the
// exit: the rewrite is not one deleted check's.
func (o *observer) rewriteOf(ifs *ast.IfStmt, src []byte, tf *token.File, orphans orphanSet) *orphanRewrite {
	stands := map[string]types.Object{}
	guard, used, _ := o.withOrphans(ifs.Cond, src, tf, orphans, stands)
	if guard == "" {
		return nil
	}
	exit := ifs.Body.List[0]
	w := &orphanRewrite{guard: guard, body: oneLineSource(src, tf, exit), results: map[string]string{}}
	b, more, clash := o.withOrphans(exit, src, tf, orphans, stands)
	if clash {
		return nil
	}
	if b != "" {
		w.body, used = b, append(used, more...)
	}
	slices.Sort(used)
	w.used = slices.Compact(used)
	if ret, ok := exit.(*ast.ReturnStmt); ok {
		for _, r := range ret.Results {
			if text, _, _ := o.withOrphans(r, src, tf, orphans, stands); text != "" {
				w.results[oneLineSource(src, tf, r)] = text
			}
		}
	}
	return w
}

// orphanTwins are the exits of the twin guards written with orphans of
// the site before stmt in fn, whose ancestors are stack: each if of fn
// without init or else whose body is one exit, with its operands replaced
// by their orphan siblings (rewrite), when its condition and exit compile
// at the site and the site's block does not already hold it; those that
// use the most orphans first, then in source order.
func (o *observer) orphanTwins(fn ast.Node, stmt ast.Stmt, stack []ast.Node, sig *types.Signature, src []byte, tf *token.File, inLoop, breakable bool) []Exit {
	if o.data == nil || fn == nil {
		return nil
	}
	orphans := o.data.orphans()
	if len(orphans) == 0 {
		return nil
	}
	here := stmtTexts(enclosingList(stmt, stack), src, tf)
	var found []*orphanRewrite
	ast.Inspect(fn, func(n ast.Node) bool {
		s, ok := n.(ast.Stmt)
		if !ok {
			return true
		}
		ifs := oneExitIf(s)
		if ifs == nil {
			return true
		}
		w := o.rewrite(ifs, src, tf, orphans)
		if w == nil || w.body == "" || here["if "+w.guard+" { "+w.body+" }"] ||
			slices.ContainsFunc(found, func(f *orphanRewrite) bool { return f.body == w.body && f.guard == w.guard }) {
			return true
		}
		// A return's results are checked as the orphans rewrite them.
		adapt := func(text string) string {
			if r, ok := w.results[text]; ok {
				return r
			}
			return text
		}
		if o.exitCompiles(ifs.Body.List[0], adapt, sig, src, tf, inLoop, breakable) && o.boolAt(w.guard) {
			found = append(found, w)
		}
		return true
	})
	// The deleted check used every orphan it left.
	slices.SortStableFunc(found, func(a, b *orphanRewrite) int { return len(b.used) - len(a.used) })
	var out []Exit
	for _, w := range found[:min(len(found), maxOrphanTwins)] {
		out = append(out, Exit{Body: w.body, Strategy: StrategyTwin, Guard: w.guard, From: OrphansFrom + strings.Join(w.used, ", ")})
	}
	return out
}
