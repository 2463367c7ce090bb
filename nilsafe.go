package nopol

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"

	"github.com/nopol-go/nopol/collect"
	"github.com/nopol-go/nopol/synth"
)

// Nil safety, a ranking: at an if whose branch leaves and whose
// following statements dereference x whatever its value
// (collect.Branch.DerefsAfter), a candidate with `x == nil` among its
// disjuncts leaves before the dereference; one without lets a nil x
// through to it. Between candidates equally far from the original (the
// same token edit distance), those that leave for more
// such x come first. In color's Equals, `c == nil || c2 != nil { return
// false }` before `range c2.params` had two one-token mutants that
// passed the suite: `c == nil && c2 != nil`, which panics on a nil c2,
// and the fix, `c == nil || c2 == nil`.

// nilSafety returns how many of site's DerefsAfter the candidate src
// tests for nil in a disjunct of its own (`x == nil || ...`).
func nilSafety(site collect.Site, src string) int {
	if site.Then == nil || len(site.Then.DerefsAfter) == 0 {
		return 0
	}
	e, err := parser.ParseExpr(src)
	if err != nil {
		return 0
	}
	n := 0
	for _, x := range site.Then.DerefsAfter {
		if slices.ContainsFunc(operandsOf(e, token.LOR), func(d ast.Expr) bool { return isNilTest(d, x) }) {
			n++
		}
	}
	return n
}

// isNilTest reports whether d is `x == nil` (or `nil == x`).
func isNilTest(d ast.Expr, x string) bool {
	b, ok := ast.Unparen(d).(*ast.BinaryExpr)
	if !ok || b.Op != token.EQL {
		return false
	}
	l, r := types.ExprString(ast.Unparen(b.X)), types.ExprString(ast.Unparen(b.Y))
	return l == x && r == "nil" || l == "nil" && r == x
}

// nilSafeFirst reorders the candidates at each edit distance to site's
// original among the places they hold by nilSafety, most first, stably:
// a candidate only trades places with one as far from the original.
func nilSafeFirst(site collect.Site, cands []candidate) []candidate {
	if site.Then == nil || len(site.Then.DerefsAfter) == 0 || len(cands) < 2 {
		return cands
	}
	byDist := map[int][]int{} // candidates' places by distance
	safety := make([]int, len(cands))
	for i, c := range cands {
		d := synth.EditDistance(c.src, site.Original)
		byDist[d] = append(byDist[d], i)
		safety[i] = nilSafety(site, c.src)
	}
	out := slices.Clone(cands)
	for _, places := range byDist {
		order := slices.Clone(places)
		slices.SortStableFunc(order, func(a, b int) int { return safety[b] - safety[a] })
		for k, p := range places {
			out[p] = cands[order[k]]
		}
	}
	return out
}
