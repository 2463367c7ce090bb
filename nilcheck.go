package nopol

import (
	"context"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/nopol-go/nopol/collect"
)

// The nil checks are tried where a failing test's coverage run panicked
// with a nil dereference: the check the runtime made, written where it
// panicked. At the innermost frame of the module's code, for each operand
// x the statement there dereferences (collect.Site's NilDerefs), in this
// order:
//
//   - a condition the panic interrupted, with the check joined to it:
//     `x == nil || cond` where its branch leaves (the nil leaves with
//     it), `x != nil && cond` otherwise, then the other one; only the
//     second where the branch dereferences x itself (yaml.v3's
//     `token == nil || token.typ != yaml_BLOCK_SEQUENCE_START_TOKEN && …`).
//     These go first, before any site is searched, as the bounds checks
//     do: the condition already tests x, without the check.
//   - a guard before the statement: wrapping it, `if x != nil { stmt }`,
//     where it can be, then `if x == nil { exit }` with the site's first
//     exits (a twin guard's, the zero values, a return of the function;
//     yaml.v3's `if token == nil { return false }`). These come after
//     every other tier but NpeFix's replacements, whatever the effort: a
//     guard where the nil is dereferenced tolerates it, and the search
//     may find the condition that lets it through, or a guard elsewhere
//     (the examples' math305: `math.IsInf(p, 0)`, not `c == nil`). Where
//     a failing test runs a gocheck suite they go first too: every run
//     there runs the whole suite, and the search of one site takes a
//     minute.
//
// They are validated on the whole suite like any candidate (method
// "nil-check"). NpeFix's replacements (npefix.go) come last.

// Bounds of the nil-check tier.
const (
	maxNilCheckExits = 3 // exits tried per operand
	maxNilChecks     = 8 // candidates in all
)

// nilCheckTarget is one nil-check candidate at a site.
type nilCheckTarget struct {
	site collect.Site
	st   style
	c    candidate
}

// nilChecks validates the nil checks (see above), those joined to
// conditions with conds, the guards with guards; it returns how many it
// tried, and done when one is the patch.
func (r *repairer) nilChecks(ctx context.Context, conds, guards bool) (n int, done bool, err error) {
	targets := r.nilCheckTargets(conds, guards)
	if len(targets) == 0 {
		return 0, false, nil
	}
	r.enter(phaseValidation)
	r.logf("nil checks: a failing test dereferences nil; trying %s where it panicked", plural(len(targets), "check"))
	for i, t := range targets {
		if err := ctx.Err(); err != nil {
			return i, false, err
		}
		rep := r.siteReport(t.site, t.st, 0, "nil-check")
		r.ranked, r.spec = nil, nil
		name := "nil check"
		if t.st.name == "return" {
			name = "nil check, leaving by `" + t.st.exit + "`, if"
		}
		ok, sr, err := r.tryPatch(ctx, t.site, t.st, t.c, name, &rep)
		if err != nil {
			return i + 1, false, err
		}
		if !ok && rep.Outcome == "" {
			rep.Outcome = nilOutcome(sr)
		}
		r.res.Sites = append(r.res.Sites, rep)
		if ok {
			return i + 1, true, nil
		}
	}
	return len(targets), false, nil
}

// nilCheckTargets lists the nil checks in the order they are tried, those
// joined to conditions with conds, the guards with guards.
func (r *repairer) nilCheckTargets(conds, guards bool) []nilCheckTarget {
	var out []nilCheckTarget
	type key struct {
		site       int
		style, src string
		guard      collect.GuardStyle
	}
	seen := map[key]bool{}
	add := func(t nilCheckTarget) {
		key := key{t.site.ID, t.st.name, t.c.src, t.st.guard}
		if len(out) >= maxNilChecks || seen[key] || !r.strategyWanted(t.st) {
			return
		}
		if why := r.antiPatternOf(t.site, t.st, nil, t.c); why != "" {
			r.logf("rejected the nil check `%s`: %s", t.c.src, why)
			return
		}
		seen[key] = true
		out = append(out, t)
	}
	for _, k := range r.failing {
		stack := r.stacks[k]
		if len(stack) == 0 || !strings.Contains(r.cover[k].Output, nilDeref) {
			continue
		}
		loc := stack[0]
		var guard *collect.Site
		var interrupted []collect.Site
		for i, site := range r.prog.Sites {
			if site.File != loc.File || site.Line != loc.Line || !r.wanted(site) {
				continue
			}
			switch {
			case site.Kind == collect.Guard && guard == nil:
				guard = &r.prog.Sites[i]
			case site.Kind == collect.Cond && r.interrupted[k][site.ID]:
				interrupted = append(interrupted, site)
			}
		}
		if guard == nil {
			continue
		}
		if !conds {
			interrupted = nil
		}
		for _, site := range interrupted {
			for _, x := range guard.NilDerefs {
				for _, src := range nilClauses(site, x) {
					add(nilCheckTarget{site, style{name: "cond"}, candidate{src: src, method: "nil-check"}})
				}
			}
		}
		for _, x := range guard.NilDerefs {
			if !guards {
				break
			}
			if guard.CanWrap {
				st := style{name: "guard", guard: collect.GuardWrap, strategy: collect.StrategySkip}
				add(nilCheckTarget{*guard, st, candidate{src: x + " != nil", method: "nil-check"}})
			}
			bodies := map[string]bool{}
			for i, e := range guard.Exits {
				if len(bodies) >= maxNilCheckExits || bodies[e.Body] || !r.strategyWanted(style{strategy: e.Strategy}) {
					continue
				}
				bodies[e.Body] = true
				st := style{name: "return", guard: collect.GuardExit(i), strategy: e.Strategy, exit: e.Body}
				add(nilCheckTarget{*guard, st, candidate{src: x + " == nil", method: "nil-check"}})
			}
		}
	}
	return out
}

// nilClauses are site's condition with a nil check of x joined to it, in
// the order they are tried (see above); nil when the condition does not
// read x. They are built and printed as the bounds checks are (bounds.go):
// within a chain of the same operator the check is one more clause of it
// (`x == nil || a || b`), else the condition is parenthesized as needed.
func nilClauses(site collect.Site, x string) []string {
	fset, orig, _, ok := parseCond(site.Original)
	if !ok || !reads(orig, x) {
		return nil
	}
	joined := func(cmp, op token.Token) string {
		// x is printed as written: an identifier node holds the selector
		// chain's text (c.p), as bounds.go's len does its call.
		check := &ast.BinaryExpr{X: ast.NewIdent(x), Op: cmp, Y: ast.NewIdent("nil")}
		root := clone(unparen(orig))
		at := &root
		for {
			b, ok := (*at).(*ast.BinaryExpr)
			if !ok || b.Op != op {
				break
			}
			at = &b.X
		}
		*at = &ast.BinaryExpr{X: check, Op: op, Y: *at}
		return render(fset, parenthesize(root, token.LowestPrec))
	}
	orNil, andNotNil := joined(token.EQL, token.LOR), joined(token.NEQ, token.LAND)
	switch b := site.Then; {
	case b != nil && slices.Contains(b.Derefs, x):
		return []string{andNotNil}
	case b != nil && b.Exits:
		return []string{orNil, andNotNil}
	}
	return []string{andNotNil, orNil}
}

// reads reports whether e holds the expression x.
func reads(e ast.Expr, x string) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if found {
			return false
		}
		if y, ok := n.(ast.Expr); ok && types.ExprString(y) == x {
			found = true
		}
		return true
	})
	return found
}
