package nopol

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"math"
	"slices"

	"github.com/nopol-go/nopol/collect"
	"github.com/nopol-go/nopol/synth"
)

// Two anti-patterns of a condition's own shape, which a mutant of the
// original most often breaks (a comparison flipped, a clause dropped):
//
//   - dead-clause: in a chain of || (or &&), one comparison of x with a
//     constant decides nothing, because another comparison of x with a
//     different constant implies it (c == 'T' || c != 't' is c != 't': the
//     first clause is dead), or the chain is constant (x != a || x != b
//     always holds, x == a && x == b never). No maintainer writes a clause
//     that never matters; the condition says something other than it
//     reads. The same for integer ranges: a comparison its operand's
//     range decides alone (len(val) >= 0), conjuncts over one operand
//     with no integer between them (len(tpl) <= 0 && len(tpl) > 0), or
//     disjuncts that leave none out (n < 5 || n >= 3) (constantRanges).
//     Not when the original condition has the same clause already.
//   - bounds-check-alone: the candidate drops clauses of the original and
//     keeps only the length checks (len(b) > 1) that guard an index or a
//     slice of the same value in a dropped clause (b[1] == '\n'): the check
//     without the access it protects.
const (
	ruleDeadClause  = "dead-clause"
	ruleBoundsAlone = "bounds-check-alone"
)

// deadClauses returns why e has dead clauses or constant chains, one
// reason for each (see deadClause).
func deadClauses(e ast.Expr, named map[string]constant.Value) []string {
	var whys []string
	chainPairs(e, func(op token.Token, i, j int, p, q ast.Expr) {
		px, pv, pop, ok := constantComparison(p, named)
		if !ok {
			return
		}
		qx, qv, qop, ok := constantComparison(q, named)
		if !ok || px != qx || (pv.Kind() == constant.String) != (qv.Kind() == constant.String) || constant.Compare(pv, token.EQL, qv) {
			return
		}
		// p and q compare x with different constants a and b.
		switch {
		case op == token.LOR && pop == token.EQL && qop == token.NEQ,
			op == token.LAND && pop == token.NEQ && qop == token.EQL:
			whys = addReason(whys, fmt.Sprintf("%s: %s decides nothing beside %s", ruleDeadClause, types.ExprString(p), types.ExprString(q)))
		case i < j && op == token.LOR && pop == token.NEQ && qop == token.NEQ:
			whys = addReason(whys, fmt.Sprintf("%s: %s || %s always holds", ruleDeadClause, types.ExprString(p), types.ExprString(q)))
		case i < j && op == token.LAND && pop == token.EQL && qop == token.EQL:
			whys = addReason(whys, fmt.Sprintf("%s: %s && %s never holds", ruleDeadClause, types.ExprString(p), types.ExprString(q)))
		}
	})
	for _, why := range constantRanges(e, named) {
		whys = addReason(whys, why)
	}
	return whys
}

// addReason appends why to whys unless it is there already.
func addReason(whys []string, why string) []string {
	if slices.Contains(whys, why) {
		return whys
	}
	return append(whys, why)
}

// chainPairs calls visit with every ordered pair of distinct operands p
// (the i-th) and q (the j-th) of every chain of && or of || in e (op).
func chainPairs(e ast.Expr, visit func(op token.Token, i, j int, p, q ast.Expr)) {
	ast.Inspect(e, func(n ast.Node) bool {
		b, ok := n.(*ast.BinaryExpr)
		if !ok || b.Op != token.LOR && b.Op != token.LAND {
			return true
		}
		chain := operandsOf(b, b.Op)
		for i, p := range chain {
			for j, q := range chain {
				if i != j {
					visit(b.Op, i, j, p, q)
				}
			}
		}
		return true
	})
}

// deadClause returns why cand has a dead clause or a constant chain
// that orig (nil: none) does not have, or "". An original with one of
// its own does not excuse a new one: toml's `r == '_' && r == '-'`
// (never holds) made `r == '_' && r != '-'` by a comparison flipped
// keeps a clause that decides nothing, where `r == '_' || r == '-'` was
// the fix; a mutant elsewhere that keeps the original's clause as it is
// is not rejected for it.
func deadClause(cand, orig ast.Expr, named map[string]constant.Value) string {
	whys := deadClauses(cand, named)
	if len(whys) == 0 {
		return "" // most candidates: the original's reasons are not needed
	}
	var old []string
	if orig != nil {
		old = deadClauses(orig, named)
	}
	for _, why := range whys {
		if !slices.Contains(old, why) {
			return why
		}
	}
	return ""
}

// constantComparison splits e, x == k or x != k (either side), into x's
// text, k's value and the operator; k is a literal or a constant of named.
func constantComparison(e ast.Expr, named map[string]constant.Value) (x string, v constant.Value, op token.Token, ok bool) {
	b, isBin := ast.Unparen(e).(*ast.BinaryExpr)
	if !isBin || b.Op != token.EQL && b.Op != token.NEQ {
		return "", nil, 0, false
	}
	for _, pair := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
		v := constOf(pair[1], named)
		if v == nil || constOf(pair[0], named) != nil || isLiteral(ast.Unparen(pair[0])) {
			continue
		}
		if v.Kind() == constant.String || v.Kind() == constant.Int || v.Kind() == constant.Float {
			return types.ExprString(ast.Unparen(pair[0])), v, b.Op, true
		}
	}
	return "", nil, 0, false
}

// constOf is the value of e when it is a literal or a constant of named,
// nil otherwise.
func constOf(e ast.Expr, named map[string]constant.Value) constant.Value {
	switch k := ast.Unparen(e).(type) {
	case *ast.BasicLit:
		return constant.MakeFromLiteral(k.Value, k.Kind, 0)
	case *ast.Ident, *ast.SelectorExpr:
		if v, ok := named[types.ExprString(k)]; ok {
			return v
		}
	}
	return nil
}

// constantValues returns the values of site's named constants (not its
// literals), for deadClause.
func constantValues(site collect.Site) map[string]constant.Value {
	out := map[string]constant.Value{}
	for _, c := range site.Constants {
		if e, err := parser.ParseExpr(c.Expr); err != nil || isLiteral(e) {
			continue
		}
		switch c.Value.Kind {
		case collect.KindInt:
			out[c.Expr] = constant.MakeInt64(c.Value.Int)
		case collect.KindFloat:
			out[c.Expr] = constant.MakeFloat64(c.Value.Float)
		case collect.KindString:
			out[c.Expr] = constant.MakeString(c.Value.Str)
		}
	}
	return out
}

// boundsAlone returns why cand, a deletion of clauses of orig, keeps only
// the length checks of the values the deleted clauses index, or "". A
// kept length check may be written otherwise than orig's, negated
// included: `!(len(b) < 2)` for `len(b) > 1 && b[1] == '\n'` keeps the
// check of b as much as `len(b) > 1` does.
func boundsAlone(orig, cand ast.Expr) string {
	kept := operandsOf(cand, token.LAND)
	all := operandsOf(orig, token.LAND)
	text := func(es []ast.Expr) []string {
		out := make([]string, len(es))
		for i, e := range es {
			out[i] = types.ExprString(ast.Unparen(e))
		}
		return out
	}
	keptText, allText := text(kept), text(all)
	if len(kept) >= len(all) {
		return ""
	}
	var checked []string
	for _, k := range kept {
		x := lengthChecked(k)
		if x == "" || !slices.ContainsFunc(all, func(o ast.Expr) bool { return lengthChecked(o) == x }) {
			return "" // not only length checks orig makes
		}
		checked = append(checked, x)
	}
	for i, d := range all {
		if slices.Contains(keptText, allText[i]) {
			continue
		}
		for _, x := range checked {
			if indexes(d, x) {
				return fmt.Sprintf("%s: %s is kept without %s, the access of %s it guards", ruleBoundsAlone, types.ExprString(cand), allText[i], x)
			}
		}
	}
	return ""
}

// lengthChecked returns x for a comparison of len(x) (either side) with
// an ordering or an equality, "" otherwise.
func lengthChecked(e ast.Expr) string {
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.NOT {
		return lengthChecked(u.X)
	}
	b, ok := ast.Unparen(e).(*ast.BinaryExpr)
	if !ok || !comparison(b.Op) {
		return ""
	}
	for _, side := range []ast.Expr{b.X, b.Y} {
		if x, ok := builtinArg(side, "len"); ok {
			return x
		}
	}
	return ""
}

// indexes reports whether e indexes or slices x.
func indexes(e ast.Expr, x string) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IndexExpr:
			found = found || types.ExprString(ast.Unparen(n.X)) == x
		case *ast.SliceExpr:
			found = found || types.ExprString(ast.Unparen(n.X)) == x
		}
		return !found
	})
	return found
}

// span is a range of integers [lo, hi]; math.MinInt64 and math.MaxInt64
// stand for no bound.
type span struct{ lo, hi int64 }

func (s span) empty() bool { return s.lo > s.hi }

func (s span) meet(t span) span { return span{max(s.lo, t.lo), min(s.hi, t.hi)} }

// covers reports whether s and t together hold every integer of d.
func covers(s, t, d span) bool {
	s, t = s.meet(d), t.meet(d)
	if s.empty() || t.empty() {
		return !s.empty() && s == d || !t.empty() && t == d
	}
	if t.lo < s.lo {
		s, t = t, s
	}
	return s.lo <= d.lo && (s.hi == math.MaxInt64 || s.hi+1 >= t.lo) && max(s.hi, t.hi) >= d.hi
}

// comparedSpan is the span of the integers v where `v op k` holds, op a
// comparison other than != (== otherwise).
func comparedSpan(op token.Token, k int64) span {
	switch op {
	case token.LSS:
		return span{math.MinInt64, k - 1}
	case token.LEQ:
		return span{math.MinInt64, k}
	case token.GTR:
		return span{k + 1, math.MaxInt64}
	case token.GEQ:
		return span{k, math.MaxInt64}
	}
	return span{k, k}
}

// orderedAtom splits e, an integer comparison of x with a constant k
// (<, <=, >, >= or ==, either side), into x's text, the integers it
// holds for, and the integers x can be at all (len and cap are never
// negative).
func orderedAtom(e ast.Expr, named map[string]constant.Value) (x string, holds, domain span, ok bool) {
	b, isBin := ast.Unparen(e).(*ast.BinaryExpr)
	if !isBin || !comparison(b.Op) || b.Op == token.NEQ {
		return "", span{}, span{}, false
	}
	// intOf is constOf for integers written as such (not '0'), and a
	// negated integer literal (-1).
	intOf := func(e ast.Expr) (int64, bool) {
		var v constant.Value
		switch k := ast.Unparen(e).(type) {
		case *ast.BasicLit:
			if k.Kind == token.INT {
				v = constOf(k, named)
			}
		case *ast.UnaryExpr:
			if lit, ok := k.X.(*ast.BasicLit); ok && k.Op == token.SUB && lit.Kind == token.INT {
				v = constant.UnaryOp(token.SUB, constOf(lit, named), 0)
			}
		default:
			v = constOf(k, named)
		}
		if v == nil || v.Kind() != constant.Int {
			return 0, false
		}
		return constant.Int64Val(v)
	}
	op, lhs, rhs := b.Op, b.X, b.Y
	k, isK := intOf(rhs)
	if _, lconst := intOf(lhs); lconst || !isK {
		if k, isK = intOf(lhs); !isK {
			return "", span{}, span{}, false
		}
		op, lhs = synth.Mirrored(op), rhs
	}
	if _, lconst := intOf(lhs); lconst || isLiteral(ast.Unparen(lhs)) {
		return "", span{}, span{}, false
	}
	all := span{math.MinInt64, math.MaxInt64}
	if k == math.MinInt64 || k == math.MaxInt64 {
		return "", span{}, span{}, false
	}
	holds, domain = comparedSpan(op, k), all
	if c, ok := ast.Unparen(lhs).(*ast.CallExpr); ok {
		if f, ok := c.Fun.(*ast.Ident); ok && (f.Name == "len" || f.Name == "cap") && len(c.Args) == 1 {
			domain = span{0, all.hi}
		}
	}
	return types.ExprString(ast.Unparen(lhs)), holds, domain, true
}

// constantRanges returns why e holds a constant integer test: a
// comparison its operand's range decides alone (len(val) >= 0 always
// holds), two conjuncts over one operand with no integer between them
// (len(tpl) <= 0 && len(tpl) > 0), or two disjuncts that leave none out
// (n < 5 || n >= 3). The tests of a point against points are deadClause's.
func constantRanges(e ast.Expr, named map[string]constant.Value) []string {
	var whys []string
	ast.Inspect(e, func(n ast.Node) bool {
		if b, ok := n.(*ast.BinaryExpr); ok {
			if _, holds, d, ok := orderedAtom(b, named); ok {
				switch {
				case holds.meet(d).empty():
					whys = addReason(whys, fmt.Sprintf("%s: %s never holds", ruleDeadClause, types.ExprString(b)))
				case holds.meet(d) == d:
					whys = addReason(whys, fmt.Sprintf("%s: %s always holds", ruleDeadClause, types.ExprString(b)))
				}
			}
		}
		return true
	})
	chainPairs(e, func(op token.Token, i, j int, p, q ast.Expr) {
		px, ps, d, ok := orderedAtom(p, named)
		if !ok || j < i {
			return
		}
		qx, qs, _, ok := orderedAtom(q, named)
		if !ok || px != qx || ps.lo == ps.hi && qs.lo == qs.hi {
			return
		}
		switch {
		case op == token.LAND && ps.meet(qs).meet(d).empty():
			whys = addReason(whys, fmt.Sprintf("%s: %s && %s never holds", ruleDeadClause, types.ExprString(p), types.ExprString(q)))
		case op == token.LOR && covers(ps, qs, d):
			whys = addReason(whys, fmt.Sprintf("%s: %s || %s always holds", ruleDeadClause, types.ExprString(p), types.ExprString(q)))
		}
	})
	return whys
}
