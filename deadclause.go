package nopol

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"slices"

	"github.com/nopol-go/nopol/collect"
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
//     reads. Not when the original condition has the same clause already.
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
	ast.Inspect(e, func(n ast.Node) bool {
		b, ok := n.(*ast.BinaryExpr)
		if !ok || b.Op != token.LOR && b.Op != token.LAND {
			return true
		}
		chain := operandsOf(b, b.Op)
		for i, p := range chain {
			px, pv, pop, ok := constantComparison(p, named)
			if !ok {
				continue
			}
			for j, q := range chain {
				qx, qv, qop, ok := constantComparison(q, named)
				if i == j || !ok || px != qx || (pv.Kind() == constant.String) != (qv.Kind() == constant.String) || constant.Compare(pv, token.EQL, qv) {
					continue
				}
				// p and q compare x with different constants a and b.
				why := ""
				switch {
				case b.Op == token.LOR && pop == token.EQL && qop == token.NEQ,
					b.Op == token.LAND && pop == token.NEQ && qop == token.EQL:
					why = fmt.Sprintf("%s: %s decides nothing beside %s", ruleDeadClause, types.ExprString(p), types.ExprString(q))
				case i < j && b.Op == token.LOR && pop == token.NEQ && qop == token.NEQ:
					why = fmt.Sprintf("%s: %s || %s always holds", ruleDeadClause, types.ExprString(p), types.ExprString(q))
				case i < j && b.Op == token.LAND && pop == token.EQL && qop == token.EQL:
					why = fmt.Sprintf("%s: %s && %s never holds", ruleDeadClause, types.ExprString(p), types.ExprString(q))
				}
				if why != "" && !slices.Contains(whys, why) {
					whys = append(whys, why)
				}
			}
		}
		return true
	})
	return whys
}

// deadClause returns why cand has a dead clause or a constant chain
// that orig (nil: none) does not have, or "". An original with one of
// its own does not excuse a new one: toml's `r == '_' && r == '-'`
// (never holds) made `r == '_' && r != '-'` by a comparison flipped
// keeps a clause that decides nothing, where `r == '_' || r == '-'` was
// the fix; a mutant elsewhere that keeps the original's clause as it is
// is not rejected for it.
func deadClause(cand, orig ast.Expr, named map[string]constant.Value) string {
	var old []string
	if orig != nil {
		old = deadClauses(orig, named)
	}
	for _, why := range deadClauses(cand, named) {
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
	value := func(e ast.Expr) constant.Value {
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
	for _, pair := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
		v := value(pair[1])
		if v == nil || value(pair[0]) != nil || isLiteral(ast.Unparen(pair[0])) {
			continue
		}
		if v.Kind() == constant.String || v.Kind() == constant.Int || v.Kind() == constant.Float {
			return types.ExprString(ast.Unparen(pair[0])), v, b.Op, true
		}
	}
	return "", nil, 0, false
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
