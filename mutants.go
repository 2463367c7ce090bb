package nopol

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/nopol-go/nopol/angelic"
	"github.com/nopol-go/nopol/collect"
	"github.com/nopol-go/nopol/synth"
)

// The fallback tier: when no synthesized condition passes the suite (most
// often because no site is angelic: the condition must take different
// values within one test, as a flipped comparison in a loop), plain
// mutants of the most suspicious original conditions are validated.

// maxMutationSites is how many of the most suspicious Cond sites the
// fallback mutates first; moreMutationSites how many it mutates in all,
// the others after the first tier and the twins, before the guards'
// exits: a mutant costs a run of the failing tests, and a minimal edit
// of a less suspicious condition is a likelier patch than a new guard
// (toml's seeded unify, `k < reflect.Uint64` for `<=`, a dispatch whose
// false outcome the passing tests take too, ranked 56th; the mutation
// baseline, which mutates every condition the failing tests reach,
// repaired it). Variables for the tests.
var (
	maxMutationSites  = 10
	moreMutationSites = 30
)

// mutate validates the mutants of the Cond sites from to to (excluded)
// of ranked (withheld sites first, then by score and reach in turn:
// sitesFirst, reachToo), site by site in that order, through a schema as the candidates
// of synthesis; the first that passes the suite and passes again as a
// patched file is the patch. Mutants already validated at a site are not
// run again. It returns how many mutants of how many sites it tried.
func (r *repairer) mutate(ctx context.Context, ranked []angelic.Suspicion, from, to int) (n, k int, done bool, err error) {
	if err := ctx.Err(); err != nil {
		return 0, 0, false, err
	}
	type target struct {
		s        angelic.Suspicion
		cands    []candidate
		rejected []string
	}
	var targets, rejectedAll []target
	var conds []angelic.Suspicion
	for _, s := range ranked {
		if r.prog.Sites[s.Site].Kind == collect.Cond {
			conds = append(conds, s)
		}
	}
	// A site where a synthesized condition passed the suite (withheld as
	// speculative) is where a change of the condition repairs the failing
	// tests: a minimal edit of its original is a likelier patch there
	// than at a more suspicious site where nothing passed.
	conds = sitesFirst(reachToo(conds), r.withheldAt)
	for _, s := range conds[min(len(conds), from):min(len(conds), to)] {
		site := r.prog.Sites[s.Site]
		tried := func(src string) bool {
			return slices.ContainsFunc(r.res.Candidates, func(c CandidateReport) bool {
				return c.Site == site.ID && c.Style == "cond" && c.Condition == src
			})
		}
		// The bounds candidates first (bounds.go), then the mutants.
		t := target{s: s, cands: slices.DeleteFunc(r.boundsCandidates(site, style{name: "cond"}, nil), func(c candidate) bool { return tried(c.src) })}
		var more []candidate
		more, t.rejected = fallbackMutants(site, func(src string) bool {
			return tried(src) || slices.ContainsFunc(t.cands, func(c candidate) bool { return c.src == src })
		})
		t.cands = append(t.cands, more...)
		t.cands = weakenedLast(site, oddIndexLast(site.Original, symmetricFirst(site.Original, writtenFirst(site, r.prog.Sites, nilSafeFirst(site, t.cands)))))
		for _, why := range t.rejected {
			r.logf("rejected mutant `%s`", why)
		}
		if len(t.cands) > 0 {
			targets = append(targets, t)
			n += len(t.cands)
		} else if len(t.rejected) > 0 {
			rejectedAll = append(rejectedAll, t)
		}
	}
	// A condition whose every mutant breaks an anti-pattern is reported
	// too: nopol why then says why none was tried there (siblingguard's
	// `err == nil` for `if err != nil { return err }`).
	for _, t := range rejectedAll {
		site := r.prog.Sites[t.s.Site]
		rep := r.siteReport(site, style{name: "cond"}, t.s.Score, "mutation")
		rep.Rejected = t.rejected
		rep.Outcome = fmt.Sprintf("every mutant breaks an anti-pattern (%s)", strings.Join(t.rejected, " | "))
		r.res.Sites = append(r.res.Sites, rep)
	}
	if n == 0 {
		return 0, 0, false, nil
	}
	lead := "no angelic site"
	if slices.ContainsFunc(r.res.Sites, func(s SiteReport) bool { return len(s.Needs) > 0 }) {
		lead = "no synthesized condition passes"
	}
	which := "top"
	if from > 0 {
		which = "next"
	}
	r.logf("mutation: %s; trying %s of the %s %s", lead, plural(n, "mutant"), which, plural(len(targets), "condition"))
	st := style{name: "cond"}
	// One schema for the mutants of every condition: one build instead of
	// one per condition. When it cannot be built (sites whose sources
	// overlap), a schema per condition.
	var parts []collect.SchemaPart
	for _, t := range targets {
		parts = append(parts, collect.SchemaPart{Site: r.prog.Sites[t.s.Site], Style: st.guard, Candidates: sources(t.cands)})
	}
	all, err := r.sharedSchema(ctx, parts, "mutation", "condition")
	if err != nil {
		return n, len(targets), false, err
	}
	if all != nil {
		defer all.Close()
	}
	off := 0
	for i, t := range targets {
		site := r.prog.Sites[t.s.Site]
		rep := r.siteReport(site, st, t.s.Score, "mutation")
		rep.Rejected = t.rejected
		r.logf("mutants %d/%d: %s:%d %s `%s` (score %.2f): %s", i+1, len(targets), rep.File, rep.Line, site.Func,
			oneLine(site.Original), t.s.Score, plural(len(t.cands), "mutant"))
		r.ranked, r.spec = nil, nil // the fallback's mutants are not checked against recorded states
		done, err := r.validateShared(ctx, all, off, site, st, t.cands, "mutant", &rep)
		off += len(t.cands)
		r.logf("mutants %d/%d: %s", i+1, len(targets), rep.Outcome)
		r.res.Sites = append(r.res.Sites, rep)
		if err != nil || done {
			return n, len(targets), done, err
		}
	}
	return n, len(targets), false, nil
}

// reachToo merges two orders of the conditions ranked: by score (the
// best of reach and outcomes, ranked's order) and by reach alone,
// taking from each in turn. A condition whose operator is wrong is run
// by every test, failing or passing, and its reach ranks it; one whose
// outcome only the failing tests see is ranked by that outcome. Neither
// order wins on the training split, and a mutant costs a few runs.
func reachToo(ranked []angelic.Suspicion) []angelic.Suspicion {
	byReach := slices.Clone(ranked)
	slices.SortStableFunc(byReach, func(a, b angelic.Suspicion) int { return cmp.Compare(b.Reach, a.Reach) })
	out := make([]angelic.Suspicion, 0, len(ranked))
	seen := map[int]bool{}
	for i := range ranked {
		for _, s := range []angelic.Suspicion{ranked[i], byReach[i]} {
			if !seen[s.Site] {
				seen[s.Site] = true
				out = append(out, s)
			}
		}
	}
	return out
}

// fallbackMutants are the mutants of site's original condition that the
// fallback validates, but those done says were tried, and those that
// break an anti-pattern, with why (rejected). The rules that read the
// recorded states do not apply: the fallback runs where the states did not
// say what a test needs. A mutant that guard-changed rejected at the site
// with its states may be the fix (mux's `r.regexp.host == nil` for `!=
// nil`, where no state had a nil host): keeping those rejections in the
// fallback cost that correct patch on the training split (tried28).
//
// After them come the original with an operand replaced by a parameter
// the function never reads (collect.Site.Unread), then by an alternate
// the function writes: a boolean local refined from the operand, or
// another method of the same receiver (collect.Site.Alternates).
func fallbackMutants(site collect.Site, done func(src string) bool) (cands []candidate, rejected []string) {
	all := mutantsOf(site.Original)
	for _, src := range slices.Concat(site.Unread, site.Alternates) {
		all = append(all, mutant{src: src})
	}
	for _, m := range all {
		if done(m.src) {
			continue
		}
		c := candidate{src: m.src, method: "mutation", pointToRange: m.pointToRange}
		if why := antiPattern(site, nil, c); why != "" {
			rejected = append(rejected, m.src+": "+why)
			continue
		}
		cands = append(cands, c)
	}
	return cands, rejected
}

// mutants returns the first-order mutants of the Go condition cond: its
// negation (a single comparison flipped, `!` removed, or `!(cond)`),
// every comparison operator replaced by its negation and then the others,
// every && and || swapped, every operand of && and || dropped or, when
// it is a boolean name, field, call or index, negated, every `!`
// removed and every integer literal moved by one (an off-by-one
// constant; an index too, b[0] for b[1], wherever it is). They are rendered as gofmt does (redundant parentheses
// dropped), without the original and without duplicates, the fewest
// changed tokens first (synth.EditDistance, the distance the one ranking
// uses; ties in the order above, so that `n <= 0` becomes `n > 0` before
// `n >= 0`: an operator is one token whatever its characters).
// An equality made an ordering (`i != -1` into `i > -1`, `c == 'T'` into
// `c <= 'T'`) comes after every other mutant: a point test made a range
// test is the least likely of the one-token changes, and when the tests
// cannot tell, the other mutant is the one a maintainer wrote (`i !=
// -1`, the off-by-one constant of mux's strings.Index test). The reverse
// is common in real fixes (go-toml's `n.child < 0` became `n.child ==
// 0`) and keeps its place, except for a bound of a range (lo <= x && x <
// hi): made an equality, the range is gone, and it comes last too.
// Where the original bounds one value twice from one side, the mutants
// that still do come after the others (sameSideBounds).
// Ordered comparisons are not generated against nil, true or false, nor
// over comparisons or logical expressions: there an equality has only
// its negation (`c2 != nil` into `c2 == nil`); other type errors are
// left to the schema's type check. A cond that does not parse has no
// mutants.
func mutants(cond string) []string {
	var srcs []string
	for _, m := range mutantsOf(cond) {
		srcs = append(srcs, m.src)
	}
	return srcs
}

// A mutant is a mutant of a condition (mutantsOf).
type mutant struct {
	src  string
	dist int
	// pointToRange is set for an equality made an ordering, or a
	// bound of a range made an equality: the last tier of the mutants.
	pointToRange bool
	// sameSide is set, when the original bounds one value twice from
	// the same side (sameSideBounds), for a mutant that still does.
	sameSide bool
}

// mutantsOf returns the mutants of cond, in the order of mutants.
func mutantsOf(cond string) []mutant {
	fset, orig, base, ok := parseCond(cond)
	if !ok {
		return nil
	}
	seen := map[string]bool{base: true}
	var out []mutant
	pointToRange := false
	// A bound of a range (lo <= x && x < hi) made an equality is as
	// unlikely: the range is gone (hcl's seeded Type.String, `1 <= t`
	// for 0 <= t, was "repaired" by `1 != t`).
	inRange := bothBounds(cond)
	pairs := sameSideBounds(orig)
	add := func(e ast.Expr) {
		src := render(fset, parenthesize(unparen(e), token.LowestPrec))
		if src == "" || seen[src] {
			return
		}
		seen[src] = true
		out = append(out, mutant{src: src, dist: synth.EditDistance(base, src), pointToRange: pointToRange, sameSide: pairs && sameSideBounds(e)})
	}

	add(negate(clone(orig)))
	n := len(slots(&orig))
	for i := 0; i < n; i++ {
		at := func(edit func(slot *ast.Expr)) {
			root := clone(orig)
			edit(slots(&root)[i])
			add(root)
		}
		switch e := (*slots(&orig)[i]).(type) {
		case *ast.BinaryExpr:
			switch {
			case comparison(e.Op):
				ops := comparisonMutants(e.Op)
				if !ordered(e) {
					// x != nil, b == true: only the other equality.
					if !equality(e.Op) {
						continue
					}
					ops = ops[:1]
				}
				for _, op := range ops {
					pointToRange = equality(e.Op) && !equality(op) || inRange && !equality(e.Op) && equality(op)
					at(func(slot *ast.Expr) { (*slot).(*ast.BinaryExpr).Op = op })
				}
				pointToRange = false
			case e.Op == token.LAND || e.Op == token.LOR:
				at(func(slot *ast.Expr) {
					b := (*slot).(*ast.BinaryExpr)
					b.Op = token.LAND + token.LOR - b.Op
				})
				at(func(slot *ast.Expr) { *slot = (*slot).(*ast.BinaryExpr).Y })
				at(func(slot *ast.Expr) { *slot = (*slot).(*ast.BinaryExpr).X })
				// A `!` added to an operand that is a boolean atom: the
				// inverse of a `!` removed (a comparison is negated by
				// its operator, a `!x` by the removal).
				if boolAtom(e.X) {
					at(func(slot *ast.Expr) { b := (*slot).(*ast.BinaryExpr); b.X = negate(b.X) })
				}
				if boolAtom(e.Y) {
					at(func(slot *ast.Expr) { b := (*slot).(*ast.BinaryExpr); b.Y = negate(b.Y) })
				}
			}
		case *ast.UnaryExpr:
			if e.Op == token.NOT {
				at(func(slot *ast.Expr) { *slot = unparen((*slot).(*ast.UnaryExpr).X) })
			}
		case *ast.BasicLit:
			v, err := strconv.ParseInt(e.Value, 0, 64)
			if e.Kind != token.INT || err != nil {
				continue
			}
			for _, w := range []int64{v + 1, v - 1} {
				if w >= 0 { // -n is a unary minus over a literal: its n moves
					lit := &ast.BasicLit{Kind: token.INT, Value: strconv.FormatInt(w, 10)}
					at(func(slot *ast.Expr) { *slot = lit })
				}
			}
		}
	}
	// An integer index or slice bound moved by one (b[0] for b[1],
	// b[i-1] for b[i-2], p[i+1:] for p[i+0:], an off-by-one index),
	// wherever it is in the condition: its literal rewritten in the
	// source.
	moveIndex := func(index ast.Expr) {
		// k, or i-k and i+k: k moves; i-1 becomes i too.
		lit, ok := index.(*ast.BasicLit)
		var offset *ast.BinaryExpr
		if b, isBin := index.(*ast.BinaryExpr); !ok && isBin && (b.Op == token.SUB || b.Op == token.ADD) {
			offset = b
			lit, ok = b.Y.(*ast.BasicLit)
		}
		if !ok || lit.Kind != token.INT {
			return
		}
		v, err := strconv.ParseInt(lit.Value, 0, 64)
		if err != nil {
			return
		}
		off, end := fset.Position(lit.Pos()).Offset, fset.Position(lit.End()).Offset
		for _, w := range []int64{v + 1, v - 1} {
			if w < 0 {
				continue
			}
			src := cond[:off] + strconv.FormatInt(w, 10) + cond[end:]
			if offset != nil && w == 0 {
				from, to := fset.Position(offset.X.End()).Offset, end
				src = cond[:from] + cond[to:]
			}
			if e, err := parser.ParseExprFrom(fset, "", src, parser.SkipObjectResolution); err == nil {
				add(e)
			}
		}
	}
	ast.Inspect(orig, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IndexExpr:
			moveIndex(n.Index)
		case *ast.SliceExpr:
			for _, b := range []ast.Expr{n.Low, n.High} {
				if b != nil {
					moveIndex(b)
				}
			}
		}
		return true
	})
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].pointToRange != out[j].pointToRange {
			return !out[i].pointToRange
		}
		if out[i].sameSide != out[j].sameSide {
			return !out[i].sameSide
		}
		return out[i].dist < out[j].dist
	})
	return out
}

// sameSideBounds reports whether one chain of && or || of e bounds one
// value twice from the same side by two other values (`nlPos > 0 &&
// nlPos >= w`, `lo <= n && n >= hi`): one of the two says nothing
// wherever the bounds are in their usual order, and a range was most
// often meant. The mutants of a condition that has such a pair put
// those that keep one after the others (before those that make a point
// a range): pflag's seeded wrapN, `nlPos > 0 && nlPos >= w`, got `nlPos
// > 0 || nlPos >= w` from the operator swap, which the suite cannot
// tell from the fix `nlPos < w`. Real code has such pairs too (`cf.num
// >= 16 && cf.num >= 2*maxDense`: a threshold and a ratio), 136 in the
// 494,586 ifs of this machine's module cache: a pair left as it is
// keeps its place among the mutants that keep it. A literal bounded is
// not looked at (`0 < x && 0 < y`).
func sameSideBounds(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		b, ok := n.(*ast.BinaryExpr)
		if found || !ok || b.Op != token.LAND && b.Op != token.LOR {
			return !found
		}
		bs := orderingsOf(operandsOf(b, b.Op))
		for _, side := range []map[string][]string{bs.lower, bs.upper} {
			for x, by := range side {
				if _, err := strconv.ParseFloat(x, 64); err != nil && !strings.HasPrefix(x, "'") && len(by) > 1 {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// parseCond parses the condition cond, and renders it as its mutants
// are (base: redundant parentheses dropped); ok is false when it does not
// parse.
func parseCond(cond string) (fset *token.FileSet, orig ast.Expr, base string, ok bool) {
	fset = token.NewFileSet()
	orig, err := parser.ParseExprFrom(fset, "", cond, parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, "", false
	}
	return fset, orig, render(fset, parenthesize(unparen(clone(orig)), token.LowestPrec)), true
}

// deletionOf returns a report of whether a condition is one of cond's
// deletions, in any layout (normalExpr).
func deletionOf(cond string) func(src string) bool {
	set := map[string]bool{}
	for _, d := range deletions(cond) {
		set[normalExpr(d)] = true
	}
	return func(src string) bool { return set[normalExpr(src)] }
}

// deletions are cond with one operand of one of its && and || deleted,
// in the order of the operators in cond.
func deletions(cond string) []string {
	fset := token.NewFileSet()
	orig, err := parser.ParseExprFrom(fset, "", cond, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	var out []string
	for i := range slots(&orig) {
		b, ok := (*slots(&orig)[i]).(*ast.BinaryExpr)
		if !ok || (b.Op != token.LAND && b.Op != token.LOR) {
			continue
		}
		for _, keepX := range []bool{false, true} {
			root := clone(orig)
			slot := slots(&root)[i]
			if keepX {
				*slot = (*slot).(*ast.BinaryExpr).X
			} else {
				*slot = (*slot).(*ast.BinaryExpr).Y
			}
			root = dropParens(root, token.LowestPrec)
			if src := render(fset, parenthesize(unparen(root), token.LowestPrec)); src != "" && !slices.Contains(out, src) {
				out = append(out, src)
			}
		}
	}
	return out
}

// dropParens removes the parentheses around the operands of && and ||
// that bind tightly enough without them (a deletion leaves
// `a && (p == nil)` where `a && (n > 0 || p == nil)` was); other
// parentheses stay as written.
func dropParens(e ast.Expr, prec int) ast.Expr {
	switch x := e.(type) {
	case *ast.ParenExpr:
		if in, ok := x.X.(*ast.BinaryExpr); ok && in.Op.Precedence() > prec && prec > token.LowestPrec {
			return dropParens(in, prec)
		}
		x.X = dropParens(x.X, token.LowestPrec)
	case *ast.BinaryExpr:
		if x.Op == token.LAND || x.Op == token.LOR {
			x.X, x.Y = dropParens(x.X, x.Op.Precedence()), dropParens(x.Y, x.Op.Precedence())
		}
	case *ast.UnaryExpr:
		x.X = dropParens(x.X, token.LowestPrec)
	}
	return e
}

// comparisons are the comparison operators, in the order mutants tries
// them.
var comparisons = []token.Token{token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ}

// comparisonMutants are the operators a comparison op is replaced by, in
// order: its negation, then for an ordering its bound moved by one (< for
// <=, >= for >), then the rest of comparisons. Of the changes of one
// operator, the bound moved changes the outcome for one value of the
// operands only, the others for a half-line at least: an off-by-one is
// the smallest change of behaviour (hcl's seeded objectKey, `keyCount >=
// 1` whose fix is `> 1`, was repaired by `!= 1`, which also raises the
// error for no key at all).
func comparisonMutants(op token.Token) []token.Token {
	neg, _ := synth.Negated(op)
	out := []token.Token{neg}
	if b, ok := boundMoved[op]; ok {
		out = append(out, b)
	}
	for _, o := range comparisons {
		if !slices.Contains(out, o) && o != op {
			out = append(out, o)
		}
	}
	return out
}

// boundMoved maps an ordering to the one that differs from it at its
// bound only.
var boundMoved = map[token.Token]token.Token{
	token.LSS: token.LEQ, token.LEQ: token.LSS, token.GTR: token.GEQ, token.GEQ: token.GTR,
}

// equality reports whether op is == or !=.
func equality(op token.Token) bool { return op == token.EQL || op == token.NEQ }

func comparison(op token.Token) bool {
	switch op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		return true
	}
	return false
}

// ordered reports whether the operands of the comparison e may be
// ordered, as far as the syntax tells: not nil, true or false, nor a
// comparison or a logical expression.
func ordered(e *ast.BinaryExpr) bool {
	for _, x := range []ast.Expr{unparen(e.X), unparen(e.Y)} {
		switch x := x.(type) {
		case *ast.Ident:
			if x.Name == "nil" || x.Name == "true" || x.Name == "false" {
				return false
			}
		case *ast.BinaryExpr:
			if comparison(x.Op) || x.Op == token.LAND || x.Op == token.LOR {
				return false
			}
		case *ast.UnaryExpr:
			if x.Op == token.NOT {
				return false
			}
		}
	}
	return true
}

// boolAtom reports whether e, an operand of && or ||, is a boolean value
// with no operator of its own: a name (not true or false), a field, a
// call, an index.
func boolAtom(e ast.Expr) bool {
	switch x := unparen(e).(type) {
	case *ast.Ident:
		return x.Name != "true" && x.Name != "false"
	case *ast.SelectorExpr, *ast.CallExpr, *ast.IndexExpr:
		return true
	}
	return false
}

// negate returns the negation of e: a comparison flipped, a `!` removed,
// `!e` otherwise.
func negate(e ast.Expr) ast.Expr {
	switch x := unparen(e).(type) {
	case *ast.BinaryExpr:
		if op, ok := synth.Negated(x.Op); ok {
			x.Op = op
			return x
		}
	case *ast.UnaryExpr:
		if x.Op == token.NOT {
			return unparen(x.X)
		}
	}
	return &ast.UnaryExpr{Op: token.NOT, X: e}
}

// slots returns the places of the expressions of *root that mutants
// edits, in preorder: *root and, through parentheses, the operands of
// binary and unary operators.
func slots(root *ast.Expr) []*ast.Expr {
	var out []*ast.Expr
	var walk func(*ast.Expr)
	walk = func(p *ast.Expr) {
		out = append(out, p)
		switch e := (*p).(type) {
		case *ast.BinaryExpr:
			walk(&e.X)
			walk(&e.Y)
		case *ast.UnaryExpr:
			walk(&e.X)
		case *ast.ParenExpr:
			walk(&e.X)
		}
	}
	walk(root)
	return out
}

// clone copies the operator nodes of e that slots reaches; the leaves are
// shared.
func clone(e ast.Expr) ast.Expr {
	switch e := e.(type) {
	case *ast.BinaryExpr:
		c := *e
		c.X, c.Y = clone(e.X), clone(e.Y)
		return &c
	case *ast.UnaryExpr:
		c := *e
		c.X = clone(e.X)
		return &c
	case *ast.ParenExpr:
		c := *e
		c.X = clone(e.X)
		return &c
	}
	return e
}

func unparen(e ast.Expr) ast.Expr {
	for {
		p, ok := e.(*ast.ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}

// parenthesize adds the parentheses that an edit made necessary: around
// a binary operand of a tighter operator (prec), of the right side of the
// same precedence, and of a unary operator; it removes those around an
// operand, a call, a selector or an index expression.
func parenthesize(e ast.Expr, prec int) ast.Expr {
	switch x := e.(type) {
	case *ast.BinaryExpr:
		// a || (b || c) is (a || b) || c, printed a || b || c: the same
		// operands in the same order of evaluation (uniseg's seeded
		// transitionWordBreakState: the && of `a || b && c` made ||).
		// Parentheses the condition writes stay: they are its author's,
		// and a mutant's distance to it counts from them (toml's seeded
		// lexValue, `(A && B) || (C || D)`, whose fix is `(C && D)`).
		for {
			y, ok := x.Y.(*ast.BinaryExpr)
			if !ok || y.Op != x.Op || x.Op != token.LAND && x.Op != token.LOR {
				break
			}
			x.X = &ast.BinaryExpr{X: x.X, Op: x.Op, Y: y.X}
			x.Y = y.Y
		}
		x.X = parenthesize(x.X, x.Op.Precedence())
		x.Y = parenthesize(x.Y, x.Op.Precedence()+1)
		if x.Op.Precedence() < prec {
			return &ast.ParenExpr{X: x}
		}
	case *ast.UnaryExpr:
		x.X = parenthesize(x.X, token.UnaryPrec)
	case *ast.ParenExpr:
		x.X = parenthesize(x.X, token.LowestPrec)
		switch x.X.(type) {
		case *ast.Ident, *ast.BasicLit, *ast.CallExpr, *ast.SelectorExpr, *ast.IndexExpr, *ast.ParenExpr:
			return x.X
		}
	}
	return e
}

// render prints e as gofmt does; "" when it cannot.
func render(fset *token.FileSet, e ast.Expr) string {
	var b bytes.Buffer
	if err := format.Node(&b, fset, e); err != nil {
		return ""
	}
	if s := b.String(); !strings.ContainsAny(s, "\n\r") {
		return s
	}
	// A condition written over several lines keeps its line breaks in
	// format.Node; a candidate is one line (a mutant of toml's
	// multi-line check in Decoder.Decode did not compile before).
	return types.ExprString(e)
}

// extensions are the condition cond with one clause added at one of its
// boolean operands (the whole condition, or an operand of its &&, || and
// !): `A` becomes `A && X` or `A || X`, X one of clauses or its
// negation; operands in preorder, then clauses in their order, && first.
// An && added under a || is parenthesized, as a maintainer writes it:
// go-cmp's SortMaps, `!function.IsType(vf.Type(), function.Less) ||
// vf.IsNil()`, needed `(!function.IsType(vf.Type(), function.Less) &&
// !function.IsType(vf.Type(), function.Compare)) || vf.IsNil()`, the
// check its sibling SortSlices makes. A fix often widens or narrows one
// clause of a condition rather than the whole; the repair keeps those
// that fit every recorded state (agreeingMutants).
func extensions(cond string, clauses []string) []extension {
	fset, orig, base, ok := parseCond(cond)
	if !ok {
		return nil
	}
	var xs []ast.Expr
	var from []string // the clause of each of xs
	for _, c := range clauses {
		x, err := parser.ParseExpr(c)
		if err != nil {
			continue
		}
		xs = append(xs, x, negate(clone(x)))
		from = append(from, c, c)
	}
	seen := map[string]bool{base: true}
	var out []extension
	n := len(boolSlots(&orig, nil))
	for i := 0; i < n; i++ {
		for k, x := range xs {
			for _, op := range []token.Token{token.LAND, token.LOR} {
				root := clone(orig)
				var parents []ast.Expr
				slot := boolSlots(&root, &parents)[i]
				var e ast.Expr = &ast.BinaryExpr{X: *slot, Op: op, Y: x}
				if p, isBin := parents[i].(*ast.BinaryExpr); isBin && p.Op == op {
					continue // `a || (b || x)` is `(a || b) || x`, added above
				} else if isBin && p.Op == token.LOR && op == token.LAND {
					e = &ast.ParenExpr{X: e}
				}
				*slot = e
				src := render(fset, parenthesize(unparen(root), token.LowestPrec))
				if src != "" && !seen[src] {
					seen[src] = true
					out = append(out, extension{src, from[k]})
				}
			}
		}
	}
	return out
}

// An extension is the original with a clause added (extensions): its
// source, and the clause (an observed boolean, not negated).
type extension struct {
	src, clause string
}

// boolSlots returns the places of the boolean operands of *root that
// extensions adds a clause to, in preorder: *root and, through
// parentheses, the operands of && and || and of !; parents (when not
// nil) gets the operator each is an operand of (nil for *root).
func boolSlots(root *ast.Expr, parents *[]ast.Expr) []*ast.Expr {
	var out []*ast.Expr
	var walk func(p *ast.Expr, parent ast.Expr)
	walk = func(p *ast.Expr, parent ast.Expr) {
		out = append(out, p)
		if parents != nil {
			*parents = append(*parents, parent)
		}
		switch e := (*p).(type) {
		case *ast.BinaryExpr:
			if e.Op == token.LAND || e.Op == token.LOR {
				walk(&e.X, e)
				walk(&e.Y, e)
			}
		case *ast.UnaryExpr:
			if e.Op == token.NOT {
				if px, ok := e.X.(*ast.ParenExpr); ok {
					walk(&px.X, e)
				} else {
					walk(&e.X, e)
				}
			}
		case *ast.ParenExpr:
			if b, ok := e.X.(*ast.BinaryExpr); ok && (b.Op == token.LAND || b.Op == token.LOR) {
				walk(&b.X, b)
				walk(&b.Y, b)
			}
		}
	}
	walk(root, nil)
	return out
}
