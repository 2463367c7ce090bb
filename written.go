package nopol

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"

	"github.com/nopol-go/nopol/collect"
)

// Mutants the file already writes: when several mutants of a condition
// pass the suite, the one whose changed comparison the file writes in
// another condition, as it is or with one name in place of another, is
// the maintainer's (goldmark's PeekLine: `r.pos.Start < r.sourceLength`
// as Peek writes it, not `r.pos.Start != r.sourceLength`; go-toml's
// Child: `n.child == 0` as Next writes `n.next == 0`, not `n.child <=
// 0`). The fallback validates them first among the mutants of a site.
// Before them come the mutants with an && or || the file writes as it is
// (or with one name in place of another) where the original has none:
// go-toml's seeded parseMultilineBasicString, `i+1 < len(b) || b[i+1] ==
// '\n'`, became `i+1 >= len(b) || ...`, whose comparison the file writes,
// where the file writes `i+1 < len(b) && b[i+1] == '\n'` three times.

// writtenComparisons are the keys (comparisonKeys) of the comparisons in
// the conditions of file's Cond sites other than the site except.
func writtenComparisons(sites []collect.Site, file string, except int) map[string]bool {
	out := map[string]bool{}
	for _, s := range sites {
		if s.Kind != collect.Cond || s.File != file || s.ID == except {
			continue
		}
		for _, c := range comparisonsOf(s.Original) {
			for _, k := range comparisonKeys(c) {
				out[k] = true
			}
		}
	}
	return out
}

// writtenLogic are the keys (comparisonKeys) of the && and || expressions
// in the conditions of file's Cond sites other than the site except.
func writtenLogic(sites []collect.Site, file string, except int) map[string]bool {
	out := map[string]bool{}
	for _, s := range sites {
		if s.Kind != collect.Cond || s.File != file || s.ID == except {
			continue
		}
		for _, c := range logicOf(s.Original) {
			for _, k := range logicKeys(c) {
				out[k] = true
			}
		}
	}
	return out
}

// logicOf lists the && and || expressions of the condition src; nil when
// it does not parse.
func logicOf(src string) []*ast.BinaryExpr {
	e, err := parser.ParseExprFrom(token.NewFileSet(), "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	var out []*ast.BinaryExpr
	ast.Inspect(e, func(n ast.Node) bool {
		if b, ok := n.(*ast.BinaryExpr); ok && (b.Op == token.LAND || b.Op == token.LOR) {
			out = append(out, b)
		}
		return true
	})
	return out
}

// writtenLogicMutant reports whether mutant has an && or || expression
// that is not among had (the printed ones of the condition it mutates)
// and whose keys meet written.
func writtenLogicMutant(had []string, mutant string, written map[string]bool) bool {
	for _, c := range logicOf(mutant) {
		if slices.Contains(had, types.ExprString(c)) {
			continue
		}
		if slices.ContainsFunc(logicKeys(c), func(k string) bool { return written[k] }) {
			return true
		}
	}
	return false
}

// comparisonsOf lists the comparisons (==, !=, <, <=, >, >=) of the
// condition src; nil when it does not parse.
func comparisonsOf(src string) []*ast.BinaryExpr {
	e, err := parser.ParseExprFrom(token.NewFileSet(), "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	var out []*ast.BinaryExpr
	ast.Inspect(e, func(n ast.Node) bool {
		if b, ok := n.(*ast.BinaryExpr); ok && comparison(b.Op) {
			out = append(out, b)
		}
		return true
	})
	return out
}

// comparisonKeys are c as printed, and c with each of its names in turn
// printed as _ (n.next == 0 gives "n.next == 0", "_.next == 0" and "n._
// == 0").
func comparisonKeys(c *ast.BinaryExpr) []string {
	out := []string{types.ExprString(c)}
	var ids []*ast.Ident
	ast.Inspect(c, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			ids = append(ids, id)
		}
		return true
	})
	for _, id := range ids {
		name := id.Name
		id.Name = "_"
		out = append(out, types.ExprString(c))
		id.Name = name
	}
	return out
}

// writtenMutant reports whether mutant has a comparison that is not
// among had (the printed comparisons of the condition it mutates) and
// whose keys meet written.
func writtenMutant(had []string, mutant string, written map[string]bool) bool {
	for _, c := range comparisonsOf(mutant) {
		if slices.Contains(had, types.ExprString(c)) {
			continue
		}
		if slices.ContainsFunc(comparisonKeys(c), func(k string) bool { return written[k] }) {
			return true
		}
	}
	return false
}

// logicKeys are c as printed, and c with each of its names in turn
// printed as _ wherever it occurs (`j+1 < len(b) && b[j+1] == '\n'` gives
// "_+1 < len(b) && b[_+1] == '\n'", as `i+1 < len(b) && b[i+1] == '\n'`
// does).
func logicKeys(c *ast.BinaryExpr) []string {
	out := []string{types.ExprString(c)}
	var names []string
	ast.Inspect(c, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && !slices.Contains(names, id.Name) {
			names = append(names, id.Name)
		}
		return true
	})
	for _, name := range names {
		var ids []*ast.Ident
		ast.Inspect(c, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && id.Name == name {
				ids = append(ids, id)
			}
			return true
		})
		for _, id := range ids {
			id.Name = "_"
		}
		out = append(out, types.ExprString(c))
		for _, id := range ids {
			id.Name = name
		}
	}
	return out
}

// writtenFirst moves the mutants of cands that the file writes
// (writtenMutant) before the other mutants of their tier, in their order;
// the tiers are those of mutants: an equality made an ordering
// (candidate.pointToRange) stays after every other mutant, even when the
// file writes it (toml's `rv.NumMethod() == 0` became `rv.NumMethod() >
// 0`, which the file has, before the swapped && that fixes it). The other
// candidates keep their places.
func writtenFirst(site collect.Site, sites []collect.Site, cands []candidate) []candidate {
	written := writtenComparisons(sites, site.File, site.ID)
	logic := writtenLogic(sites, site.File, site.ID)
	if len(written) == 0 && len(logic) == 0 {
		return cands
	}
	first := slices.IndexFunc(cands, func(c candidate) bool { return c.method == "mutation" })
	if first < 0 {
		return cands
	}
	var had, hadLogic []string
	for _, c := range comparisonsOf(site.Original) {
		had = append(had, types.ExprString(c))
	}
	for _, c := range logicOf(site.Original) {
		hadLogic = append(hadLogic, types.ExprString(c))
	}
	// whole, yes and no per tier: 0 the mutants, 1 the equalities made
	// orderings.
	var whole, yes, no [2][]candidate
	for _, c := range cands[first:] {
		tier := 0
		if c.method == "mutation" && c.pointToRange {
			tier = 1
		}
		switch {
		case c.method == "mutation" && writtenLogicMutant(hadLogic, c.src, logic):
			c.written = true
			whole[tier] = append(whole[tier], c)
		case c.method == "mutation" && writtenMutant(had, c.src, written):
			c.written = true
			yes[tier] = append(yes[tier], c)
		default:
			no[tier] = append(no[tier], c)
		}
	}
	return slices.Concat(cands[:first], whole[0], yes[0], no[0], whole[1], yes[1], no[1])
}
