package nopol

import (
	"context"
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"math"
	"slices"
	"strconv"

	"github.com/nopol-go/nopol/angelic"
	"github.com/nopol-go/nopol/collect"
	"github.com/nopol-go/nopol/internal/astname"
	"github.com/nopol-go/nopol/internal/tokens"
)

// Smells: a condition that cannot say what its author meant, whatever the
// tests say, is repaired before any site is searched (tier "smells",
// method "smell"), with its mutants that no longer have the smell,
// validated on the suite as any candidate:
//
//   - the same operand twice in one chain of && or || (`len(b) < 2 ||
//     b[0] != ']' || b[0] != ']'`, where the second was b[1]: the copy
//     says nothing, and go vet and staticcheck report it too);
//   - one operand tested against two different literals in one chain, so
//     that the chain never depends on it (`path[i-2] != 'v' ||
//     path[i-2] != '/'` always holds; the first was path[i-1]);
//   - an index that a conjunct before it puts out of range (`len(x) == 1
//     && len(x[1].Token) == 0`: x[1] panics wherever the first conjunct
//     holds; the fix was x[0]), or that the operands before it put past
//     the length on some path of the evaluation (index-out-of-range:
//     go-toml's seeded `i+1 < len(b) || b[i+1] == '\n'`, where the fix
//     was the &&);
//   - an else if that never holds where the ifs before it in the chain
//     do not (collect.Site.ElseAfter): it implies one of them, conjunct
//     by conjunct, over the integer ranges dead-clause reads (semver's
//     `len(v.Pre) == 0 && len(o.Pre) <= 0` after `len(v.Pre) == 0 &&
//     len(o.Pre) == 0`: a length is never negative; the fix was
//     `len(o.Pre) > 0`). Its mutants keep their order (the negation of
//     an operator first); the others' put a moved literal first.
//
// Only the most suspicious sites the failing tests reach are looked at
// (2 × Options.MaxSites of them), and at most maxSmellSites with a smell.
// The mutants that delete an operand are left out (deleting a copy
// changes nothing), those whose length test leaves an index after it
// out of range (weakIndex), and those with a dead clause, even one the
// original has (semver's seeded `len(v.Pre) < 0 && len(o.Pre) == 0`
// made `len(v.Pre) < 0 || len(o.Pre) == 0` no longer implies the else
// if before it, but keeps a test that never holds; the fix was
// `len(v.Pre) > 0`).

// Bounds of the smells tier.
const (
	maxSmellSites      = 3
	maxSmellCandidates = 8
)

// smell says what is wrong on its face with the Go condition cond, or
// "" when nothing is.
func smell(cond string) string {
	e, err := parser.ParseExpr(cond)
	if err != nil {
		return ""
	}
	found := ""
	ast.Inspect(e, func(n ast.Node) bool {
		b, ok := n.(*ast.BinaryExpr)
		if found != "" || !ok || b.Op != token.LAND && b.Op != token.LOR {
			return found == ""
		}
		ops := operandsOf(b, b.Op)
		seen := map[string]bool{}
		for _, o := range ops {
			s := types.ExprString(ast.Unparen(o))
			if astname.HasCall(o) {
				continue // a call may give another value the second time
			}
			if seen[s] {
				found = fmt.Sprintf("`%s` twice in one chain of %s", s, b.Op)
				return false
			}
			seen[s] = true
		}
		if why := contradictory(ops, b.Op); why != "" {
			found = why
			return false
		}
		if b.Op != token.LAND {
			return true
		}
		most := map[string]int64{} // the largest length a conjunct allows x
		for _, o := range ops {
			if why := indexBeyond(o, most); why != "" {
				found = why
				return false
			}
			if x, lengths, ok := lengthSpan(o); ok && lengths.hi != math.MaxInt64 {
				most[x] = lengths.hi
			}
		}
		return true
	})
	if found == "" {
		found = indexPastLength(e)
	}
	return found
}

// contradictory says where ops, the operands of one chain of op, test
// one operand against two different literals so that the chain never
// depends on it: `x != 'v' || x != '/'` always holds (x is never both),
// `x == 1 && x == 2` never does; "" when they do not. Operands with
// calls are not looked at.
func contradictory(ops []ast.Expr, op token.Token) string {
	want := map[token.Token]token.Token{token.LOR: token.NEQ, token.LAND: token.EQL}[op]
	lits := map[string]string{} // by operand, the literal it is tested against
	for _, o := range ops {
		b, ok := ast.Unparen(o).(*ast.BinaryExpr)
		if !ok || b.Op != want {
			continue
		}
		x, lit := b.X, b.Y
		if _, ok := x.(*ast.BasicLit); ok {
			x, lit = lit, x
		}
		l, ok := lit.(*ast.BasicLit)
		if !ok || astname.HasCall(x) {
			continue
		}
		xs := types.ExprString(ast.Unparen(x))
		v := constant.MakeFromLiteral(l.Value, l.Kind, 0)
		if prev, had := lits[xs]; had && prev != v.ExactString() && v.Kind() != constant.Unknown {
			what := map[token.Token]string{token.LOR: "always holds", token.LAND: "never holds"}[op]
			return fmt.Sprintf("`%s` is tested %s two literals in one chain of %s: the chain %s", xs, map[token.Token]string{token.NEQ: "unequal to", token.EQL: "equal to"}[want], op, what)
		}
		lits[xs] = v.ExactString()
	}
	return ""
}

// smellAt is smell, and for the condition of an else if whose chain has
// the conditions earlier before it, elseSmell.
func smellAt(cond string, earlier []string, known knownValues) string {
	if why := smell(cond); why != "" {
		return why
	}
	return elseSmell(cond, earlier, known)
}

// elseSmell says why cond, the condition of an else if whose chain has
// the conditions earlier before it, never holds there, or "".
func elseSmell(cond string, earlier []string, known knownValues) string {
	e, err := parser.ParseExpr(cond)
	if err != nil {
		return ""
	}
	for _, src := range earlier {
		if prev, err := parser.ParseExpr(src); err == nil && implies(e, prev, known) {
			return fmt.Sprintf("it holds only where `%s`, before it in the chain, holds too: that branch runs instead, and this one never does", src)
		}
	}
	return ""
}

// implies reports whether every conjunct of b is implied by a conjunct
// of a: the same expression, or a comparison of the same operand with
// an integer constant whose range of values (within its domain: a
// length is never negative) lies within the other's (orderedAtom).
func implies(a, b ast.Expr, known knownValues) bool {
	as := operandsOf(a, token.LAND)
	for _, q := range operandsOf(b, token.LAND) {
		qs := types.ExprString(ast.Unparen(q))
		qx, qholds, _, qok := orderedAtom(q, known)
		// x != k holds wherever a range of x without k does.
		nx, nv, nop, nok := constantComparison(q, known)
		nok = nok && nop == token.NEQ && nv.Kind() == constant.Int
		if !slices.ContainsFunc(as, func(p ast.Expr) bool {
			if types.ExprString(ast.Unparen(p)) == qs {
				return true
			}
			px, pholds, pdomain, pok := orderedAtom(p, known)
			if !pok {
				return false
			}
			in := pholds.meet(pdomain)
			if nok && px == nx {
				k, exact := constant.Int64Val(nv)
				return exact && (in.empty() || k < in.lo || k > in.hi)
			}
			if !qok || px != qx {
				return false
			}
			return in.empty() || in.lo >= qholds.lo && in.hi <= qholds.hi
		}) {
			return false
		}
	}
	return true
}

// hasDeadClause reports whether the Go condition cond has a dead clause
// or a constant chain (deadClauses).
func hasDeadClause(cond string, known knownValues) bool {
	e, err := parser.ParseExpr(cond)
	return err == nil && len(deadClauses(e, known)) > 0
}

// weakIndex reports whether a conjunct of the Go condition cond indexes
// x with an integer literal k where the conjuncts before it test len(x)
// but do not make it more than k (`len(line) >= 1 && line[1] == 's'`,
// `len(line) != 1 && line[1] == 's'`): the index may be out of range
// where the condition is evaluated. A conjunct that tests len(x) itself
// is not looked into (`len(line) < 3 || isSpace(line[2])`). The smells'
// mutants are left out when it holds: the mutant of goldmark's seeded
// `len(line) < 1 && (line[1] == 's' || ...)` that passed the suite first
// was `len(line) >= 1`, which panics on a line of one byte; the fix was
// `len(line) > 1`.
func weakIndex(cond string) bool {
	e, err := parser.ParseExpr(cond)
	if err != nil {
		return false
	}
	_, weak := guardedIndexes(e)
	return weak
}

// guardedIndexes walks the chain of && of e: protected are the indexes
// x[k] (k an integer literal, as written) that a conjunct before theirs
// makes in range (len(x) more than k); weak reports one whose conjuncts
// before test len(x) without making it more than k (weakIndex).
func guardedIndexes(e ast.Expr) (protected []string, weak bool) {
	least := map[string]int64{} // by x tested, the least length the conjuncts before allow
	for _, c := range operandsOf(e, token.LAND) {
		tested := lengthsTested(c)
		for _, ix := range literalIndexes(c) {
			l, ok := least[ix.x]
			switch {
			case ok && ix.k < l:
				protected = append(protected, types.ExprString(ix.expr))
			case ok && !tested[ix.x]:
				weak = true
			}
		}
		for x := range tested {
			if _, ok := least[x]; !ok {
				least[x] = 0
			}
		}
		if x, lengths, ok := lengthSpan(c); ok && lengths.lo != math.MinInt64 {
			least[x] = max(least[x], lengths.lo)
		}
	}
	return protected, weak
}

// lengthsTested are the x whose len(x) e compares.
func lengthsTested(e ast.Expr) map[string]bool {
	out := map[string]bool{}
	ast.Inspect(e, func(n ast.Node) bool {
		if b, ok := n.(*ast.BinaryExpr); ok {
			if x, _, _, ok := lengthComparison(b); ok {
				out[x] = true
			}
		}
		return true
	})
	return out
}

// literalIndex is expr, x[k] with k an integer literal.
type literalIndex struct {
	expr *ast.IndexExpr
	x    string
	k    int64
}

// literalIndexes are e's indexes with an integer literal, in the order
// of the source.
func literalIndexes(e ast.Expr) []literalIndex {
	var out []literalIndex
	ast.Inspect(e, func(n ast.Node) bool {
		if ix, ok := n.(*ast.IndexExpr); ok {
			if lit, ok := ix.Index.(*ast.BasicLit); ok && lit.Kind == token.INT {
				if k, err := strconv.ParseInt(lit.Value, 0, 64); err == nil {
					out = append(out, literalIndex{ix, types.ExprString(ast.Unparen(ix.X)), k})
				}
			}
		}
		return true
	})
	return out
}

// lengthComparison reads `len(x) op n`, n an integer literal.
func lengthComparison(e ast.Expr) (x string, n int64, op token.Token, ok bool) {
	b, isBin := ast.Unparen(e).(*ast.BinaryExpr)
	if !isBin || !comparison(b.Op) {
		return "", 0, 0, false
	}
	x, isLen := builtinArg(b.X, "len")
	lit, isLit := ast.Unparen(b.Y).(*ast.BasicLit)
	if !isLen || !isLit || lit.Kind != token.INT {
		return "", 0, 0, false
	}
	v, err := strconv.ParseInt(lit.Value, 0, 64)
	if err != nil {
		return "", 0, 0, false
	}
	return x, v, b.Op, true
}

// lengthSpan reads `len(x) op n` (n an integer literal, op a
// comparison other than !=): the lengths of x where e holds.
func lengthSpan(e ast.Expr) (x string, lengths span, ok bool) {
	x, n, op, ok := lengthComparison(e)
	if !ok || op == token.NEQ {
		return "", span{}, false
	}
	return x, comparedSpan(op, n), true
}

// indexBeyond says where e indexes x with an integer literal that most
// (the largest length allowed, by x) puts out of range, or "".
func indexBeyond(e ast.Expr, most map[string]int64) string {
	for _, ix := range literalIndexes(e) {
		if m, bounded := most[ix.x]; bounded && ix.k >= m {
			return fmt.Sprintf("`%s` is out of range wherever the conjunct before it holds (len(%s) at most %d)", types.ExprString(ix.expr), ix.x, m)
		}
	}
	return ""
}

// indexesBehindOr counts the indexes x[...] (as written) in the
// right operand of an || whose left operand compares len(x): indexes
// guarded by a disjunction (`len(x) <= 0 || x[0] == '-'`) rather than by a
// conjunction (`len(x) > 0 && x[0] == '-'`). Among the mutants of a
// smell, those with fewer are tried first, the idiom of Go code:
// pflag's seeded `len(first) <= 0 && first[0] == '-'` got the
// disjunction from the operator swap first (the suite tells them apart
// nowhere), where the fix was `len(first) > 0`; go-toml's seeded `i+1 <
// len(b) || b[i+1] == '\n'` was fixed by the &&. A disjunction the
// mutants share (goldmark's `len(line) < 3 || util.IsPunct(line[2])`)
// counts for all of them.
func indexesBehindOr(cond string) int {
	e, err := parser.ParseExpr(cond)
	if err != nil {
		return 0
	}
	reads := map[string]bool{}
	ast.Inspect(e, func(n ast.Node) bool {
		or, ok := n.(*ast.BinaryExpr)
		if !ok || or.Op != token.LOR {
			return true
		}
		tested := map[string]bool{} // the x whose len(x) the left operand compares
		ast.Inspect(or.X, func(n ast.Node) bool {
			if b, ok := n.(*ast.BinaryExpr); ok && comparison(b.Op) {
				for _, side := range []ast.Expr{b.X, b.Y} {
					if x, ok := builtinArg(side, "len"); ok {
						tested[x] = true
					}
				}
			}
			return true
		})
		ast.Inspect(or.Y, func(n ast.Node) bool {
			if ix, ok := n.(*ast.IndexExpr); ok && tested[types.ExprString(ast.Unparen(ix.X))] {
				reads[types.ExprString(ix)] = true
			}
			return true
		})
		return true
	})
	return len(reads)
}

// literalOnly reports whether the Go conditions a and b differ only in
// integer literals.
func literalOnly(a, b string) bool {
	ta, okA := tokens.Scan(a)
	tb, okB := tokens.Scan(b)
	return okA && okB && slices.EqualFunc(ta, tb, func(x, y tokens.Token) bool {
		return x.Tok == y.Tok && (x.Tok == token.INT || x.Text == y.Text)
	})
}

// firstDifference is the index of the first token where the Go
// conditions a and b differ (the shorter's length when one is a prefix
// of the other).
func firstDifference(a, b string) int {
	ta, _ := tokens.Scan(a)
	tb, _ := tokens.Scan(b)
	i := 0
	for i < len(ta) && i < len(tb) && ta[i].Tok == tb[i].Tok && ta[i].Text == tb[i].Text {
		i++
	}
	return i
}

// condTarget is a condition site and the candidates a tier before the
// first validates there, with why (smells: what is wrong on its face;
// siblings: the condition the copies write).
type condTarget struct {
	s     angelic.Suspicion
	why   string
	cands []candidate
}

// condTargets walks the top 2 × Options.MaxSites Cond sites of ranked
// that the search wants, and keeps those find gives candidates, at most
// most of them.
func (r *repairer) condTargets(ranked []angelic.Suspicion, most int, find func(site collect.Site) (why string, cands []candidate)) []condTarget {
	var targets []condTarget
	for _, s := range ranked[:min(len(ranked), 2*r.opts.MaxSites)] {
		if len(targets) == most {
			break
		}
		site := r.prog.Sites[s.Site]
		if site.Kind != collect.Cond || !r.wanted(site) {
			continue
		}
		if why, cands := find(site); len(cands) > 0 {
			targets = append(targets, condTarget{s: s, why: why, cands: cands})
		}
	}
	return targets
}

// validateTargets validates each target's candidates at its site, in
// order, as method's (what names one in the log), after logging intro
// of it; done when one is the patch.
func (r *repairer) validateTargets(ctx context.Context, targets []condTarget, method, what string, intro func(t condTarget) string) (done bool, err error) {
	st := style{name: "cond"}
	for i, t := range targets {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		site := r.prog.Sites[t.s.Site]
		rep := r.siteReport(site, st, t.s.Score, method)
		r.logf("%s %d/%d: %s:%d %s `%s`: %s", r.tier, i+1, len(targets), rep.File, rep.Line, site.Func, oneLine(site.Original), intro(t))
		r.ranked, r.spec = nil, nil
		done, err := r.validateShared(ctx, nil, 0, site, st, t.cands, what, &rep)
		r.res.Sites = append(r.res.Sites, rep)
		if err != nil || done {
			return done, err
		}
	}
	return false, nil
}

// smells validates the mutants of the conditions with a smell among the
// most suspicious sites (see above); done when one is the patch.
func (r *repairer) smells(ctx context.Context, ranked []angelic.Suspicion) (done bool, err error) {
	st := style{name: "cond"}
	targets := r.condTargets(ranked, maxSmellSites, func(site collect.Site) (string, []candidate) {
		known := valuesOf(site)
		onFace := smell(site.Original)
		why := onFace
		if why == "" {
			why = elseSmell(site.Original, site.ElseAfter, known)
		}
		if why == "" {
			return "", nil
		}
		deletion := deletionOf(site.Original)
		var cands []candidate
		for _, m := range mutants(site.Original) {
			if len(cands) == maxSmellCandidates {
				break
			}
			c := candidate{src: m, method: "smell"}
			if smellAt(m, site.ElseAfter, known) != "" || deletion(m) || weakIndex(m) || hasDeadClause(m, known) {
				continue
			}
			if why := r.antiPatternOf(site, st, nil, c); why != "" {
				r.vlogf("smells: rejected `%s`: %s", m, why)
				continue
			}
			cands = append(cands, c)
		}
		if len(cands) > 0 && onFace != "" {
			// A literal moved first (a copy made and not edited, an
			// index off by one), the last in the condition first: the
			// second of two copies is the one pasted.
			slices.SortStableFunc(cands, func(a, b candidate) int {
				if d := b2i(!literalOnly(site.Original, a.src)) - b2i(!literalOnly(site.Original, b.src)); d != 0 {
					return d
				}
				if d := indexesBehindOr(a.src) - indexesBehindOr(b.src); d != 0 {
					return d
				}
				return firstDifference(site.Original, b.src) - firstDifference(site.Original, a.src)
			})
		}
		return why, cands
	})
	return r.validateTargets(ctx, targets, "smell", "mutant", func(t condTarget) string {
		return fmt.Sprintf("%s; trying %s without it", t.why, plural(len(t.cands), "mutant"))
	})
}
