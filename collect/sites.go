package collect

import (
	"bytes"
	"context"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/nopol-go/nopol/internal/astname"
)

// siteSyntax is what instrumentation needs to know about a site besides
// the exported Site.
type siteSyntax struct {
	pkg  *pkgData
	file string // absolute file name
	// start and end are the byte offsets of the condition (Cond) or the
	// statement (Guard) in the file.
	start, end int
	pos        token.Pos
	// snap is the Go source of the snapshot arguments for the observed
	// expressions after the atoms.
	snap string
	// atoms are the occurrences of the atoms of a Cond site's condition;
	// natoms the number of atoms, the first natoms of Site.Observed.
	atoms  []atomSpan
	natoms int
	// off leaves the site out of the instrumented source: it did not
	// compile there (see leaveOut); it is never reached.
	off bool
	// copyable is set for a Cond site whose condition can be written a
	// second time on its line, as it is (see siteWraps).
	copyable bool
}

// copyable reports whether the condition of a Cond site, node of source
// text text, can be written a second time on its line, uninstrumented: it
// has one line, and no function literal (whose statements would be sites
// of their own, instrumented only in the other copy).
func copyable(kind SiteKind, node ast.Node, text []byte) bool {
	cond, ok := node.(ast.Expr)
	return kind == Cond && ok && !bytes.ContainsAny(text, "\n\r") && !containsFuncLit(cond)
}

// atomSpan is where an atom occurs in the file, its kind, and its slot
// (its index in Site.Observed).
type atomSpan struct {
	start, end int
	kind       ValueKind
	slot       int
	// plain chooses the non-generic hook (language before Go 1.18).
	plain bool
}

// fileSource returns the bytes of a file of the program, read once.
func (prog *Program) fileSource(name string) ([]byte, error) {
	if src, ok := prog.sources[name]; ok {
		return src, nil
	}
	src, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	if prog.sources == nil {
		prog.sources = map[string][]byte{}
	}
	prog.sources[name] = src
	return src, nil
}

// findSites appends the sites of the non-test, non-generated files of d to
// prog.Sites, in file and position order.
func (prog *Program) findSites(ctx context.Context, d *pkgData) {
	type found struct {
		site Site
		syn  siteSyntax
	}
	var all []found
	tpkg, info := d.pkg.Types, d.pkg.TypesInfo
	if tpkg == nil || info == nil {
		return
	}
	goFiles := map[string]bool{}
	for _, f := range d.pkg.GoFiles {
		goFiles[f] = true
	}
	inSyntax := map[string]bool{}
	for _, f := range d.pkg.Syntax {
		tf := prog.fset.File(f.Pos())
		if tf == nil {
			continue
		}
		name := tf.Name()
		inSyntax[name] = true
		if strings.HasSuffix(name, "_test.go") || !goFiles[name] {
			continue // a test, or the go command's output for a cgo file
		}
		why := ""
		switch {
		case !strings.HasPrefix(name, prog.Dir+string(os.PathSeparator)):
			why = "outside the main module (nopol repairs the module it runs in)"
		case ast.IsGenerated(f):
			why = "generated (change its generator instead)"
		case importsC(f):
			why = `imports "C" (cgo files cannot be instrumented)`
		}
		src, err := prog.fileSource(name)
		if why == "" && (err != nil || len(src) != tf.Size()) {
			why = "changed while nopol was loading it"
		}
		if why != "" {
			prog.Excluded = append(prog.Excluded, ExcludedFile{File: name, Why: why})
			continue
		}
		add := func(kind SiteKind, node ast.Node, stack []ast.Node, wrap bool) {
			fn, fnName := enclosingFunc(stack)
			if fn == nil || callsRecover(node, info) {
				// recover works only when the deferred function calls it
				// itself: the hook's wrapping would break it.
				return
			}
			start, end := tf.Offset(node.Pos()), tf.Offset(node.End())
			p := prog.fset.PositionFor(node.Pos(), false)
			s := Site{
				Kind:     kind,
				Package:  d.path,
				File:     name,
				Line:     p.Line,
				Col:      p.Column,
				Func:     fnName,
				Original: string(src[start:end]),
			}
			if kind == Guard && !wrap {
				// A compound statement is named by its first line.
				s.Original = firstLine(s.Original)
			}
			if outer := outermostFunc(stack); outer != nil {
				s.FuncLines = [2]int{prog.fset.PositionFor(outer.Pos(), false).Line, prog.fset.PositionFor(outer.End(), false).Line}
			}
			s.Inside = ifsAround(node, stack, prog.fset)
			o := &observer{pkg: tpkg, info: info, file: f, pos: node.Pos(), graph: d.initGraph(), pure: prog.purity(ctx)}
			if kind == Guard && wrap && o.soleLoopStep(node.(ast.Stmt), stack) {
				wrap = false // skipped, the loop spins: no state it tests changes
			}
			o.facts, o.msets, o.data, o.panicTests = d.factsOf(f, o), &d.msets, d, len(prog.PanicTests) > 0
			if fd, ok := outermostFunc(stack).(*ast.FuncDecl); ok {
				o.fn = info.Defs[fd.Name]
			}
			if ifs, ok := stack[len(stack)-1].(*ast.IfStmt); ok && kind == Cond && ifs.Cond == node {
				o.then = ifs.Body
			}
			s.Observed = o.observe(kind, node)
			var spans []atomSpan
			var shadows []Observed
			natoms := 0
			if cond, ok := node.(ast.Expr); ok && kind == Cond {
				generics := genericsOK(tpkg.GoVersion()) && genericsOK(info.FileVersions[f])
				var obs []Observed
				for _, a := range o.atoms(cond) {
					expr := types.ExprString(a.exprs[0])
					if o.seen[expr] || len(obs) >= maxObserved || (!generics && !a.plain) {
						continue
					}
					o.seen[expr] = true
					for _, e := range a.exprs {
						spans = append(spans, atomSpan{tf.Offset(e.Pos()), tf.Offset(e.End()), a.kind, len(obs), !generics})
					}
					ob := Observed{Expr: string(src[tf.Offset(a.exprs[0].Pos()):tf.Offset(a.exprs[0].End())]), Kind: a.kind}
					if tv, ok := info.Types[a.exprs[0]]; ok {
						ob.Char, ob.Enum = isChar(tv.Type), isEnum(tv.Type)
					}
					obs = append(obs, ob)
					var callees []*types.Func
					if o.sideEffectFree(a.exprs[0], &callees) && astname.HasCall(a.exprs[0]) && !slices.ContainsFunc(callees, func(f *types.Func) bool { return f.Origin() == o.fn }) {
						shadows = append(shadows, Observed{Expr: ob.Expr, Kind: ob.Kind, Char: ob.Char, Enum: ob.Enum, Call: true, Shadow: true})
					}
				}
				natoms = len(obs)
				if len(obs) > 0 {
					s.Observed = append(obs, s.Observed...)
					if len(s.Observed) > maxObserved {
						s.Observed = s.Observed[:maxObserved]
					}
				}
			}
			s.Constants = o.constants(outermostFunc(stack))
			s.Observed = o.withCalls(s.Observed, natoms, node, outermostFunc(stack), s.Constants)
			s.Observed = o.withFileAtoms(s.Observed, natoms, o.fileAtoms(outermostFunc(stack), node))
			var cond ast.Expr
			if c, ok := node.(ast.Expr); ok && kind == Cond {
				cond = c
			}
			s.Constants = mergeConstants(o.siblingConstants(cond, outermostFunc(stack)), s.Constants)
			s.Constants = o.withCondConstants(s.Constants, cond)
			// Last, outside maxObserved: the atoms' shadows (the atoms,
			// first, are never cut).
			s.Observed = append(s.Observed, shadows...)
			if kind == Guard && wrap {
				if ob, ok := o.noOp(node.(ast.Stmt)); ok {
					s.Observed = append(s.Observed, ob)
				}
			}
			groups := d.comparedGroups(outermostFunc(stack), info)
			for i := range s.Observed {
				if ob := &s.Observed[i]; ob.Kind == KindInt || ob.Kind == KindFloat || ob.Kind == KindString {
					ob.Type = o.exprType(ob.Expr)
					ob.Groups = groups[ob.Expr]
				}
			}
			for i := range s.Constants {
				// Those withCondConstants and siblingConstants added.
				if c, ok := o.pkg.Scope().Lookup(s.Constants[i].Expr).(*types.Const); ok {
					s.Constants[i].Group = d.enumConsts()[c]
				}
			}
			s.LoopVars = loopVars(stack, info)
			if kind == Cond {
				if ifs, ok := stack[len(stack)-1].(*ast.IfStmt); ok && ifs.Cond == node {
					s.Then = thenBranch(ifs, info)
					s.Then.Messages = branchMessages(ifs.Body)
					if s.Then.Exits {
						s.Then.DerefsAfter = derefsAfter(stack, info)
						s.Then.IndexedAfter = indexedAfter(stack, info)
						s.Then.IndexVarsAfter = indexVarsAfter(stack, info)
						s.Then.BoundedAfter = boundedAfter(stack, info)
					}
					s.ElseAfter = elseAfter(stack)
					s.ElseIfs = elseIfs(ifs)
					s.SameBody = sameBodyConds(ifs, outermostFunc(stack), src, tf)
				}
				s.Unread = unreadSubstitutions(node.(ast.Expr), stack, info, src, tf)
				s.Alternates = alternateSubstitutions(node.(ast.Expr), stack, info, src, tf)
				s.EnumNames = d.enumNames(node.(ast.Expr), info)
				s.NonNegative = nonNegative(node.(ast.Expr), outermostFunc(stack), info)
				s.Callees = condCallees(node.(ast.Expr), info, prog.fset, tpkg)
			}
			if kind == Guard {
				s.CanWrap = wrap
				s.Holds = heldConditions(node.(ast.Stmt), stack)
				s.SkippedChecks = skippedChecks(node.(ast.Stmt), stack, info)
				if ifs, ok := node.(*ast.IfStmt); ok {
					for _, c := range conjuncts(ifs.Cond) {
						s.IfConds = append(s.IfConds, types.ExprString(c))
					}
					s.DeadAfter = deadAfter(ifs, stack, info, src, tf)
				}
				s.Exits = o.exits(fn, node.(ast.Stmt), stack, src, tf, fnName)
				s.NilFixes, s.NilDerefs = o.nilFixes(node.(ast.Stmt), fn)
				if !wrap && len(s.Exits) == 0 {
					return
				}
			}
			all = append(all, found{s, siteSyntax{
				pkg: d, file: name, start: start, end: end, pos: node.Pos(),
				snap: snapSource(s.Observed[natoms:]), atoms: spans, natoms: natoms,
				copyable: copyable(kind, node, src[start:end]),
			}})
		}
		if ws := recoverWraps(f, tf, info, ""); len(ws) > 0 {
			if prog.recovers == nil {
				prog.recovers = map[string][]wrap{}
			}
			prog.recovers[name] = ws
		}
		ast.PreorderStack(f, nil, func(n ast.Node, stack []ast.Node) bool {
			switch n := n.(type) {
			case *ast.IfStmt:
				// The if statement on top of the stack: its branch is
				// described (Site.Then).
				add(Cond, n.Cond, append(slices.Clip(stack), n), false)
			case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
				prog.guards(stmtList(n), append(stack, n), info, add)
			}
			return true
		})
	}
	for _, f := range d.pkg.GoFiles {
		if !inSyntax[f] && !strings.HasSuffix(f, "_test.go") {
			// Compiled through cgo: its syntax is the go command's output.
			prog.Excluded = append(prog.Excluded, ExcludedFile{File: f, Why: `imports "C" (cgo files cannot be instrumented)`})
		}
	}
	sort.SliceStable(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if a.site.File != b.site.File {
			return a.site.File < b.site.File
		}
		if a.syn.start != b.syn.start {
			return a.syn.start < b.syn.start
		}
		return a.site.Kind < b.site.Kind
	})
	for _, f := range all {
		prog.Sites = append(prog.Sites, f.site)
		prog.syn = append(prog.syn, f.syn)
	}
}

// guards reports the statements of list that can take a guard: every
// statement before which an exit compiles, and whether it can also be
// wrapped (`if COND { stmt }`).
func (prog *Program) guards(list []ast.Stmt, stack []ast.Node, info *types.Info, add func(SiteKind, ast.Node, []ast.Node, bool)) {
	for i, st := range list {
		last := i == len(list)-1
		switch st := st.(type) {
		case *ast.ExprStmt:
			// A panic ending a block may be what makes the function
			// terminate; wrapping it would break "missing return".
			add(Guard, st, stack, !(last && isPanic(st.X, info)))
		case *ast.AssignStmt:
			add(Guard, st, stack, st.Tok != token.DEFINE)
		case *ast.IncDecStmt, *ast.SendStmt:
			add(Guard, st, stack, true)
		case *ast.ReturnStmt:
			add(Guard, st, stack, !last)
		case *ast.BranchStmt:
			// A break or continue right in a loop's body: a guard
			// before it keeps the loop going (if isDigit(c) {
			// continue }), or it gets wrapped (if !isDigit(c) { break }).
			// One inside an if's branch is that if's condition to
			// repair.
			if (st.Tok == token.BREAK || st.Tok == token.CONTINUE) && inLoopBody(stack) {
				add(Guard, st, stack, true)
			}
		case *ast.DeclStmt:
			if g, ok := st.Decl.(*ast.GenDecl); ok && g.Tok == token.VAR {
				add(Guard, st, stack, false)
			}
		case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt,
			*ast.SelectStmt, *ast.GoStmt, *ast.DeferStmt, *ast.LabeledStmt:
			add(Guard, st, stack, false)
		}
	}
}

// inLoopBody reports whether the block on top of stack is the body of a
// for or range loop.
func inLoopBody(stack []ast.Node) bool {
	if len(stack) < 2 {
		return false
	}
	switch stack[len(stack)-2].(type) {
	case *ast.ForStmt, *ast.RangeStmt:
		return true
	}
	return false
}

func isPanic(x ast.Expr, info *types.Info) bool {
	call, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok {
		return false
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return false
	}
	b, ok := info.Uses[id].(*types.Builtin)
	return ok && b.Name() == "panic"
}

func importsC(f *ast.File) bool {
	for _, imp := range f.Imports {
		if imp.Path.Value == `"C"` {
			return true
		}
	}
	return false
}

// enclosingFunc returns the innermost function (declaration or literal) on
// the stack and the name of the declared function around it.
func enclosingFunc(stack []ast.Node) (fn ast.Node, name string) {
	for i := len(stack) - 1; i >= 0; i-- {
		switch n := stack[i].(type) {
		case *ast.FuncLit:
			if fn == nil {
				fn = n
			}
		case *ast.FuncDecl:
			if fn == nil {
				fn = n
			}
			return fn, astname.Func(n)
		}
	}
	return fn, "func"
}

// outermostFunc returns the outermost function on the stack.
func outermostFunc(stack []ast.Node) ast.Node {
	for _, n := range stack {
		switch n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return n
		}
	}
	return nil
}

// callsRecover reports whether node calls the builtin recover.
// recoverWraps are the edits that write each recover() call of f as
// qualifier.NopolRecovered(recover()) (NopolRecovered(recover()) when
// qualifier is ""): recover is still called by the deferred function
// itself, and the hook prints the stack of a runtime error it recovered
// in a failing test's coverage run (see NopolRecovered in hookrt).
func recoverWraps(f *ast.File, tf *token.File, info *types.Info, qualifier string) []wrap {
	hook := "NopolRecovered("
	if qualifier != "" {
		hook = qualifier + "." + hook
	}
	var out []wrap
	ast.Inspect(f, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && isRecover(call, info) {
			out = append(out, wrap{start: tf.Offset(call.Pos()), end: tf.Offset(call.End()), prefix: hook, suffix: ")"})
		}
		return true
	})
	return out
}

// isRecover reports whether call calls the builtin recover.
func isRecover(call *ast.CallExpr, info *types.Info) bool {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok || id.Name != "recover" || info == nil {
		return false
	}
	_, builtin := info.Uses[id].(*types.Builtin)
	return builtin
}

func callsRecover(node ast.Node, info *types.Info) bool {
	found := false
	ast.Inspect(node, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && isRecover(call, info) {
			found = true
		}
		return !found
	})
	return found
}
