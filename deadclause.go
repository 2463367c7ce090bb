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
	"strconv"

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
//     range decides alone (len(val) >= 0; n < 0 where n := len(pool), a
//     variable the function never makes negative: collect.Site.
//     NonNegative), conjuncts over one operand with no integer between
//     them (len(tpl) <= 0 && len(tpl) > 0), disjuncts that leave none out
//     (n < 5 || n >= 3), or a comparison another implies, a length being
//     never negative (i >= 0 && i >= len(args), n > 5 && n > 3, c == '\n'
//     && c >= 0)
//     (constantRanges). Not when the original condition has the same
//     clause already.
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
func deadClauses(e ast.Expr, known knownValues) []string {
	var whys []string
	chainPairs(e, func(op token.Token, i, j int, p, q ast.Expr) {
		px, pv, pop, ok := constantComparison(p, known)
		if !ok {
			return
		}
		qx, qv, qop, ok := constantComparison(q, known)
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
	for _, why := range constantRanges(e, known) {
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
func deadClause(cand, orig ast.Expr, known knownValues) string {
	whys := deadClauses(cand, known)
	if len(whys) == 0 {
		return "" // most candidates: the original's reasons are not needed
	}
	var old []string
	if orig != nil {
		old = deadClauses(orig, known)
	}
	for _, why := range whys {
		if !slices.Contains(old, why) {
			return why
		}
	}
	return ""
}

// constantComparison splits e, x == k or x != k (either side), into x's
// text, k's value and the operator; k is a literal or a constant of known.
func constantComparison(e ast.Expr, known knownValues) (x string, v constant.Value, op token.Token, ok bool) {
	b, isBin := ast.Unparen(e).(*ast.BinaryExpr)
	if !isBin || b.Op != token.EQL && b.Op != token.NEQ {
		return "", nil, 0, false
	}
	for _, pair := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
		v := constOf(pair[1], known)
		if v == nil || constOf(pair[0], known) != nil || isLiteral(ast.Unparen(pair[0])) {
			continue
		}
		if v.Kind() == constant.String || v.Kind() == constant.Int || v.Kind() == constant.Float {
			return types.ExprString(ast.Unparen(pair[0])), v, b.Op, true
		}
	}
	return "", nil, 0, false
}

// constOf is the value of e when it is a literal or a constant of known,
// nil otherwise.
func constOf(e ast.Expr, known knownValues) constant.Value {
	switch k := ast.Unparen(e).(type) {
	case *ast.BasicLit:
		return constant.MakeFromLiteral(k.Value, k.Kind, 0)
	case *ast.Ident, *ast.SelectorExpr:
		if v, ok := known.consts[types.ExprString(k)]; ok {
			return v
		}
	}
	return nil
}

// knownValues is what the rules of a condition's shape know of the
// values it reads: the values of the site's named constants (sepT is
// 'T'), and the variables that are never negative
// (collect.Site.NonNegative, as lengths are).
type knownValues struct {
	consts      map[string]constant.Value
	nonNegative []string
}

// valuesOf returns what is known of the values site's conditions read.
func valuesOf(site collect.Site) knownValues {
	return knownValues{consts: constantValues(site), nonNegative: site.NonNegative}
}

// constantValues returns the values of site's named constants (not its
// literals).
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
// check of b as much as `len(b) > 1` does. The same for a chain of ||,
// whose length checks are the other way round: `next >= len(line)` for
// goldmark's seeded footnote `next >= len(line) || line[next] == ':'`
// (the fix was != ':').
func boundsAlone(orig, cand ast.Expr) string {
	op := token.LAND
	if b, ok := ast.Unparen(orig).(*ast.BinaryExpr); ok && b.Op == token.LOR {
		op = token.LOR
	}
	kept := operandsOf(cand, op)
	all := operandsOf(orig, op)
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
func orderedAtom(e ast.Expr, known knownValues) (x string, holds, domain span, ok bool) {
	b, isBin := ast.Unparen(e).(*ast.BinaryExpr)
	if !isBin || !comparison(b.Op) || b.Op == token.NEQ {
		return "", span{}, span{}, false
	}
	// intOf is constOf for integers and characters ('0' is 48: `r > '0'
	// && r > '9'` has a clause that decides nothing, `r < 'a' && r >
	// 'z'` never holds), and a negated integer literal (-1).
	intOf := func(e ast.Expr) (int64, bool) {
		var v constant.Value
		switch k := ast.Unparen(e).(type) {
		case *ast.BasicLit:
			if k.Kind == token.INT || k.Kind == token.CHAR {
				v = constOf(k, known)
			}
		case *ast.UnaryExpr:
			if lit, ok := k.X.(*ast.BasicLit); ok && k.Op == token.SUB && lit.Kind == token.INT {
				v = constant.UnaryOp(token.SUB, constOf(lit, known), 0)
			}
		default:
			v = constOf(k, known)
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
	if id, ok := ast.Unparen(lhs).(*ast.Ident); ok && slices.Contains(known.nonNegative, id.Name) {
		domain = span{0, all.hi}
	}
	return types.ExprString(ast.Unparen(lhs)), holds, domain, true
}

// constantRanges returns why e holds a constant integer test: a
// comparison its operand's range decides alone (len(val) >= 0 always
// holds), two conjuncts over one operand with no integer between them
// (len(tpl) <= 0 && len(tpl) > 0), or two disjuncts that leave none out
// (n < 5 || n >= 3). The tests of a point against points are deadClause's.
func constantRanges(e ast.Expr, known knownValues) []string {
	var whys []string
	ast.Inspect(e, func(n ast.Node) bool {
		if b, ok := n.(*ast.BinaryExpr); ok {
			if _, holds, d, ok := orderedAtom(b, known); ok {
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
		px, ps, d, ok := orderedAtom(p, known)
		if !ok || j < i {
			return
		}
		qx, qs, _, ok := orderedAtom(q, known)
		if !ok || px != qx || ps.lo == ps.hi && qs.lo == qs.hi {
			return
		}
		switch {
		case ps.lo == ps.hi || qs.lo == qs.hi:
			// A point against a range that holds it: the range decides
			// nothing beside the point in a chain of && (c == '\n' &&
			// c >= 0 is c == '\n': hcl's seeded scanString, `c < 0`
			// flipped where || was the fix), the point nothing beside
			// the range in a chain of || (x == 3 || x > 1).
			point, pointSpan, rng, rngSpan := p, ps, q, qs
			if qs.lo == qs.hi {
				point, pointSpan, rng, rngSpan = q, qs, p, ps
			}
			if subspan(pointSpan.meet(d), rngSpan) && !pointSpan.meet(d).empty() {
				dead, beside := rng, point
				if op == token.LOR {
					dead, beside = point, rng
				}
				whys = addReason(whys, fmt.Sprintf("%s: %s decides nothing beside %s", ruleDeadClause, types.ExprString(dead), types.ExprString(beside)))
			}
		case !subspan(qs.meet(d), ps) && !subspan(ps.meet(d), qs):
			// Neither implies the other.
		case op == token.LAND && subspan(qs.meet(d), ps), op == token.LOR && subspan(ps.meet(d), qs):
			whys = addReason(whys, fmt.Sprintf("%s: %s decides nothing beside %s", ruleDeadClause, types.ExprString(p), types.ExprString(q)))
		default:
			whys = addReason(whys, fmt.Sprintf("%s: %s decides nothing beside %s", ruleDeadClause, types.ExprString(q), types.ExprString(p)))
		}
		switch {
		case op == token.LAND && ps.meet(qs).meet(d).empty():
			whys = addReason(whys, fmt.Sprintf("%s: %s && %s never holds", ruleDeadClause, types.ExprString(p), types.ExprString(q)))
		case op == token.LOR && covers(ps, qs, d):
			whys = addReason(whys, fmt.Sprintf("%s: %s || %s always holds", ruleDeadClause, types.ExprString(p), types.ExprString(q)))
		}
	})
	// A comparison with a length stands for the integers it may hold at
	// (len(y) >= 0): i >= len(args) implies i >= 0, so i >= 0 &&
	// i >= len(args) has a clause that decides nothing (pflag's seeded
	// FlagSet.Arg, `i >= 0 && i >= len(f.args)` for `i < 0 || i >=
	// len(f.args)`).
	chainPairs(e, func(op token.Token, i, j int, p, q ast.Expr) {
		px, ps, d, ok := orderedAtom(p, known)
		if !ok || ps.lo == ps.hi {
			return
		}
		qx, outer, inner, ok := lengthBound(q, known)
		if !ok || qx != px {
			return
		}
		if op == token.LAND && subspan(outer.meet(d), ps) || op == token.LOR && subspan(ps.meet(d), inner) {
			whys = addReason(whys, fmt.Sprintf("%s: %s decides nothing beside %s", ruleDeadClause, types.ExprString(p), types.ExprString(q)))
		}
	})
	return whys
}

// subspan reports whether every integer of s is in t.
func subspan(s, t span) bool { return s.empty() || s.lo >= t.lo && s.hi <= t.hi }

// lengthBound splits e, an integer comparison of x with len(y) plus or
// minus an integer literal (either side), into x's text and two spans: a
// superset (outer) and a subset (inner) of the integers x holds it for,
// whatever the length (never negative): x >= len(y)+1 holds for x >= 1 at
// most, and for no x whatever the length; x < len(y) for any x at most,
// and for x < 0 whatever the length.
func lengthBound(e ast.Expr, known knownValues) (x string, outer, inner span, ok bool) {
	b, isBin := ast.Unparen(e).(*ast.BinaryExpr)
	if !isBin || !comparison(b.Op) || b.Op == token.NEQ {
		return "", span{}, span{}, false
	}
	op, lhs, rhs := b.Op, b.X, b.Y
	k, isLen := lengthPlus(rhs, known)
	if !isLen {
		if k, isLen = lengthPlus(lhs, known); !isLen {
			return "", span{}, span{}, false
		}
		op, lhs = synth.Mirrored(op), rhs
	}
	if _, lhsLen := lengthPlus(lhs, known); lhsLen || constOf(lhs, known) != nil || isLiteral(ast.Unparen(lhs)) {
		return "", span{}, span{}, false
	}
	all, none := span{math.MinInt64, math.MaxInt64}, span{1, 0}
	if k <= math.MinInt64+1 || k >= math.MaxInt64-1 {
		return "", span{}, span{}, false
	}
	// The length plus k is k at least.
	switch op {
	case token.GEQ, token.EQL:
		outer, inner = span{k, all.hi}, none
	case token.GTR:
		outer, inner = span{k + 1, all.hi}, none
	case token.LEQ:
		outer, inner = all, span{all.lo, k}
	case token.LSS:
		outer, inner = all, span{all.lo, k - 1}
	}
	return types.ExprString(ast.Unparen(lhs)), outer, inner, true
}

// lengthPlus returns k for e, len(y), len(y)+k or len(y)-k with k an
// integer literal or a named constant.
func lengthPlus(e ast.Expr, known knownValues) (int64, bool) {
	isLen := func(e ast.Expr) bool {
		_, ok := builtinArg(e, "len")
		return ok
	}
	e = ast.Unparen(e)
	if isLen(e) {
		return 0, true
	}
	b, ok := e.(*ast.BinaryExpr)
	if !ok || b.Op != token.ADD && b.Op != token.SUB || !isLen(b.X) {
		return 0, false
	}
	v := constOf(b.Y, known)
	if v == nil || v.Kind() != constant.Int {
		return 0, false
	}
	k, exact := constant.Int64Val(v)
	if !exact || k > math.MaxInt32 || k < math.MinInt32 {
		return 0, false
	}
	if b.Op == token.SUB {
		k = -k
	}
	return k, true
}

// ruleOutOfRange: the candidate reads x[i] on a path of its evaluation
// where the operands before the read have put i out of range: i >=
// len(x) (a conjunct before it holds, or a disjunct before it does not:
// `i >= len(b) && !isDigit(b[i])`, `i < len(b) || b[i] == '-'`, `(i >=
// len(b) || !isDigit(b[i])) && isDigit(b[i])`; the same for b[i+1]), or
// i below zero (`i <= 0 && b[i-1] == '/'`, `i == 0 && b[i-1] == '/'`).
// Wherever that path runs, the read panics: the condition holds its
// value only until a test takes that path. go-toml's seeded scanIntOrFloat
// was repaired by `i >= len(b) && !isDigit(b[i])` for `i >= len(b) ||
// !isDigit(b[i])`, a check that can only panic.
const ruleOutOfRange = "index-out-of-range"

// maxPaths bounds the evaluation paths indexPastLength follows.
const maxPaths = 256

// evalPaths follows e's short-circuit evaluation: at each leaf (an
// operand that is not &&, || nor !) it calls at with the facts known on
// the path to it, and stops when at returns false; it goes on from each
// outcome of the leaf with after's facts. after must not change the facts
// it is given. It follows at most maxPaths leaves.
func evalPaths[F any](e ast.Expr, start F, at func(leaf ast.Expr, facts F) bool, after func(leaf ast.Expr, holds bool, facts F) F) {
	stopped := false
	paths := 0
	// walk evaluates e under the facts known on the path to it and
	// returns the paths out of it: the outcome and the facts then known.
	type exit struct {
		holds bool
		facts F
	}
	var walk func(e ast.Expr, facts F) []exit
	walk = func(e ast.Expr, facts F) []exit {
		if stopped || paths > maxPaths {
			return nil
		}
		paths++
		switch x := ast.Unparen(e).(type) {
		case *ast.BinaryExpr:
			if x.Op == token.LAND || x.Op == token.LOR {
				// Y runs only where X is true (&&) or false (||); the
				// other exits of X are the whole's.
				goOn := x.Op == token.LAND
				var out []exit
				for _, ex := range walk(x.X, facts) {
					if ex.holds != goOn {
						out = append(out, ex)
						continue
					}
					out = append(out, walk(x.Y, ex.facts)...)
				}
				return out
			}
		case *ast.UnaryExpr:
			if x.Op == token.NOT {
				out := walk(x.X, facts)
				for i := range out {
					out[i].holds = !out[i].holds
				}
				return out
			}
		}
		if !at(e, facts) {
			stopped = true
			return nil
		}
		return []exit{{true, after(e, true, facts)}, {false, after(e, false, facts)}}
	}
	walk(e, start)
}

// indexPastLength returns why e reads an index that its own operands
// before the read, on some path of its short-circuit evaluation, have put
// out of range, or "".
func indexPastLength(e ast.Expr) string {
	why := ""
	evalPaths(e, nil, func(leaf ast.Expr, facts []outOfBounds) bool {
		for _, f := range facts {
			if read := f.readIn(leaf); read != "" {
				why = fmt.Sprintf("%s: %s is read where %s", ruleOutOfRange, read, f)
				return false
			}
		}
		return true
	}, func(leaf ast.Expr, holds bool, facts []outOfBounds) []outOfBounds {
		return append(slices.Clip(facts), boundsFacts(leaf, holds)...)
	})
	return why
}

// ruleNilDereferenced: the candidate reads a field of x (x.f, *x) on a
// path of its evaluation where the operands before the read have
// established x == nil (`expr == nil && expr.Kind != k`, `expr != nil ||
// expr.Kind != k`): wherever that path runs, the read panics. A method
// call is not such a read (a method of a pointer may be called on nil).
// go-toml's seeded rawValue, `expr == nil || expr.Kind != KeyValue`, got
// `expr == nil || expr == nil && expr.Kind != KeyValue` from the nil
// checks, a clause that can only panic where it decides anything.
const ruleNilDereferenced = "nil-dereferenced"

// nilPastCheck returns why e reads a field of a value that its own
// operands before the read, on some path of its short-circuit
// evaluation, have found nil, or "".
func nilPastCheck(e ast.Expr) string {
	why := ""
	evalPaths(e, nil, func(leaf ast.Expr, nils []string) bool {
		for _, x := range nils {
			if read := fieldRead(leaf, x); read != "" {
				why = fmt.Sprintf("%s: %s is read where %s == nil", ruleNilDereferenced, read, x)
				return false
			}
		}
		return true
	}, func(leaf ast.Expr, holds bool, nils []string) []string {
		if b, ok := ast.Unparen(leaf).(*ast.BinaryExpr); ok && (b.Op == token.EQL) == holds {
			if x, ok := nilCompared(b); ok {
				return append(slices.Clip(nils), x)
			}
		}
		return nils
	})
	return why
}

// fieldRead returns a read of a field of x in e (x.f not called, *x),
// outside function literals, as written, or "".
func fieldRead(e ast.Expr, x string) string {
	called := map[ast.Expr]bool{}
	found := ""
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			called[ast.Unparen(n.Fun)] = true
		case *ast.SelectorExpr:
			if !called[n] && types.ExprString(ast.Unparen(n.X)) == x {
				found = types.ExprString(n)
			}
		case *ast.StarExpr:
			if types.ExprString(ast.Unparen(n.X)) == x {
				found = types.ExprString(n)
			}
		}
		return found == ""
	})
	return found
}

// ruleIndexUnguarded: every path of the original condition's evaluation
// to an index or a slice of x (x[i], x[i:]) tests the length of x first
// (len(x) compared, x compared with ""), and a path of the candidate's
// reaches one with no such test before it: the candidate reads x where
// the original made sure it could. ini's seeded readValue, `A &&
// len(in) <= 0 && in[len(in)-1] == '\n'`, was "repaired" by `A && len(in)
// <= 0 || in[len(in)-1] == '\n'`, which reads the last byte of an empty
// in wherever A is false; the fix was len(in) > 0.
const ruleIndexUnguarded = "index-unguarded"

// indexUnguarded returns why cand reads an index of x on a path where
// no operand before it tested the length of x, when every path of orig
// to an index of x did; "" otherwise.
func indexUnguarded(orig, cand ast.Expr) string {
	guarded, unguarded := lengthGuards(orig)
	_, candUnguarded := lengthGuards(cand)
	for _, x := range candUnguarded {
		if slices.Contains(guarded, x) && !slices.Contains(unguarded, x) {
			return fmt.Sprintf("%s: %s reads %s where nothing before tests len(%s), which %s tests first on every path", ruleIndexUnguarded, types.ExprString(cand), x, x, types.ExprString(orig))
		}
	}
	return ""
}

// lengthGuards returns the values e indexes or slices on a path of its
// evaluation after an operand that tests their length (guarded), and
// those it does on a path with none (unguarded).
func lengthGuards(e ast.Expr) (guarded, unguarded []string) {
	evalPaths(e, nil, func(leaf ast.Expr, tested []string) bool {
		for _, x := range indexedValues(leaf) {
			to := &unguarded
			if slices.Contains(tested, x) {
				to = &guarded
			}
			if !slices.Contains(*to, x) {
				*to = append(*to, x)
			}
		}
		return true
	}, func(leaf ast.Expr, _ bool, tested []string) []string {
		if x := lengthTested(leaf); x != "" {
			return append(slices.Clip(tested), x)
		}
		return tested
	})
	return guarded, unguarded
}

// lengthTested returns x when e compares len(x) (lengthChecked) or
// compares x with "", "" otherwise.
func lengthTested(e ast.Expr) string {
	if x := lengthChecked(e); x != "" {
		return x
	}
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.NOT {
		return lengthTested(u.X)
	}
	b, ok := ast.Unparen(e).(*ast.BinaryExpr)
	if !ok || b.Op != token.EQL && b.Op != token.NEQ {
		return ""
	}
	for _, pair := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
		if lit, ok := ast.Unparen(pair[1]).(*ast.BasicLit); ok && lit.Kind == token.STRING && (lit.Value == `""` || lit.Value == "``") {
			return types.ExprString(ast.Unparen(pair[0]))
		}
	}
	return ""
}

// indexedValues returns the values e indexes or slices (outside function
// literals), each once.
func indexedValues(e ast.Expr) []string {
	var out []string
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IndexExpr:
			out = appendNew(out, n.X)
		case *ast.SliceExpr:
			out = appendNew(out, n.X)
		}
		return true
	})
	return out
}

// An outOfBounds fact: base+k >= len(x), or, x empty, base <= k (k an
// integer).
type outOfBounds struct {
	x, base string
	k       int64
}

func (f outOfBounds) String() string {
	if f.x == "" {
		return fmt.Sprintf("%s <= %d", f.base, f.k)
	}
	return fmt.Sprintf("%s >= len(%s)", offset(f.base, f.k), f.x)
}

// boundsFacts are the facts that hold where the comparison e has the
// value holds (none for another expression): i+k >= len(x) where it
// says i+k >= len(x), > or ==; i <= k where it says i < k+1, <= or ==
// (k an integer literal).
func boundsFacts(e ast.Expr, holds bool) []outOfBounds {
	x, ok := ast.Unparen(e).(*ast.BinaryExpr)
	if !ok || !comparison(x.Op) {
		return nil
	}
	op := x.Op
	if !holds {
		op, _ = synth.Negated(op)
	}
	// i >= len(x), i > len(x), i == len(x); len(x) <= i, len(x) < i.
	if s, ok := builtinArg(x.Y, "len"); ok && (op == token.GEQ || op == token.GTR || op == token.EQL) {
		base, k := splitOffset(x.X)
		return []outOfBounds{{s, base, k}}
	}
	if s, ok := builtinArg(x.X, "len"); ok && (op == token.LEQ || op == token.LSS || op == token.EQL) {
		base, k := splitOffset(x.Y)
		return []outOfBounds{{s, base, k}}
	}
	// i < k, i <= k, i == k; k > i, k >= i.
	side, lit := x.X, x.Y
	if _, ok := intLiteral(x.X); ok {
		side, lit, op = x.Y, x.X, synth.Mirrored(op)
	}
	m, ok := intLiteral(lit)
	if !ok {
		return nil
	}
	switch op {
	case token.LSS:
		m--
	case token.LEQ, token.EQL:
	default:
		return nil
	}
	base, k := splitOffset(side)
	return []outOfBounds{{"", base, m - k}}
}

// readIn returns the read of e (outside function literals) that f puts
// out of range, as written, or "": x[base+c] with c >= k for a length
// fact, any [base+c] with k+c < 0 for a bound below.
func (f outOfBounds) readIn(e ast.Expr) string {
	found := ""
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IndexExpr:
			base, c := splitOffset(n.Index)
			switch {
			case base != f.base:
			case f.x != "" && types.ExprString(ast.Unparen(n.X)) == f.x && c >= f.k,
				f.x == "" && f.k+c < 0:
				found = types.ExprString(n)
			}
		}
		return found == ""
	})
	return found
}

// splitOffset returns e as base+k, k an integer literal added or
// subtracted (i+1 is i and 1, i-1 i and -1, 2+i i and 2; i is i and 0).
func splitOffset(e ast.Expr) (base string, k int64) {
	e = ast.Unparen(e)
	if b, ok := e.(*ast.BinaryExpr); ok && (b.Op == token.ADD || b.Op == token.SUB) {
		if v, ok := intLiteral(b.Y); ok {
			if b.Op == token.SUB {
				v = -v
			}
			return types.ExprString(ast.Unparen(b.X)), v
		}
		if v, ok := intLiteral(b.X); ok && b.Op == token.ADD {
			return types.ExprString(ast.Unparen(b.Y)), v
		}
	}
	return types.ExprString(e), 0
}

// intLiteral returns the value of an integer literal, negated or not.
func intLiteral(e ast.Expr) (int64, bool) {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.SUB {
		v, ok := intLiteral(u.X)
		return -v, ok
	}
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.INT {
		return 0, false
	}
	v, err := strconv.ParseInt(lit.Value, 0, 64) // base 0: 0x1f, 1_000
	return v, err == nil
}

// offset prints base+k.
func offset(base string, k int64) string {
	switch {
	case k > 0:
		return fmt.Sprintf("%s + %d", base, k)
	case k < 0:
		return fmt.Sprintf("%s - %d", base, -k)
	}
	return base
}
