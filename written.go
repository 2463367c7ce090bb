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

// A nodeKind is a kind of binary expression a file may write (its
// comparisons, its && and ||) and the keys it is known by.
type nodeKind struct {
	is   func(op token.Token) bool
	keys func(c *ast.BinaryExpr) []string
}

var (
	comparisonNodes = nodeKind{comparison, comparisonKeys}
	logicNodes      = nodeKind{func(op token.Token) bool { return op == token.LAND || op == token.LOR }, logicKeys}
)

// of lists the expressions of kind k in the condition src; nil when it
// does not parse.
func (k nodeKind) of(src string) []*ast.BinaryExpr {
	e, err := parser.ParseExprFrom(token.NewFileSet(), "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	var out []*ast.BinaryExpr
	ast.Inspect(e, func(n ast.Node) bool {
		if b, ok := n.(*ast.BinaryExpr); ok && k.is(b.Op) {
			out = append(out, b)
		}
		return true
	})
	return out
}

// writtenIn are the keys of the expressions of kind k in the conditions
// of file's Cond sites other than the site except.
func (k nodeKind) writtenIn(sites []collect.Site, file string, except int) map[string]bool {
	out := map[string]bool{}
	for _, s := range sites {
		if s.Kind != collect.Cond || s.File != file || s.ID == except {
			continue
		}
		for _, c := range k.of(s.Original) {
			for _, key := range k.keys(c) {
				out[key] = true
			}
		}
	}
	return out
}

// printed are the expressions of kind k of the condition src, printed.
func (k nodeKind) printed(src string) []string {
	var out []string
	for _, c := range k.of(src) {
		out = append(out, types.ExprString(c))
	}
	return out
}

// writes reports whether mutant has an expression of kind k that is not
// among had (the printed ones of the condition it mutates) and whose
// keys meet written.
func (k nodeKind) writes(had []string, mutant string, written map[string]bool) bool {
	for _, c := range k.of(mutant) {
		if slices.Contains(had, types.ExprString(c)) {
			continue
		}
		if slices.ContainsFunc(k.keys(c), func(key string) bool { return written[key] }) {
			return true
		}
	}
	return false
}

// comparisonsOf lists the comparisons (==, !=, <, <=, >, >=) of the
// condition src; nil when it does not parse.
func comparisonsOf(src string) []*ast.BinaryExpr { return comparisonNodes.of(src) }

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
// (nodeKind.writes) before the other mutants of their tier, in their order;
// the tiers are those of mutants: an equality made an ordering
// (candidate.pointToRange) stays after every other mutant, even when the
// file writes it (toml's `rv.NumMethod() == 0` became `rv.NumMethod() >
// 0`, which the file has, before the swapped && that fixes it). The other
// candidates keep their places.
func writtenFirst(site collect.Site, sites []collect.Site, cands []candidate) []candidate {
	written := comparisonNodes.writtenIn(sites, site.File, site.ID)
	logic := logicNodes.writtenIn(sites, site.File, site.ID)
	if len(written) == 0 && len(logic) == 0 {
		return cands
	}
	first := slices.IndexFunc(cands, func(c candidate) bool { return c.method == "mutation" })
	if first < 0 {
		return cands
	}
	had, hadLogic := comparisonNodes.printed(site.Original), logicNodes.printed(site.Original)
	// whole, yes and no per tier: 0 the mutants, 1 the equalities made
	// orderings.
	var whole, yes, no [2][]candidate
	for _, c := range cands[first:] {
		tier := 0
		if c.method == "mutation" && c.pointToRange {
			tier = 1
		}
		switch {
		case c.method == "mutation" && logicNodes.writes(hadLogic, c.src, logic):
			c.written = true
			whole[tier] = append(whole[tier], c)
		case c.method == "mutation" && comparisonNodes.writes(had, c.src, written):
			c.written = true
			yes[tier] = append(yes[tier], c)
		default:
			no[tier] = append(no[tier], c)
		}
	}
	return slices.Concat(cands[:first], whole[0], yes[0], no[0], whole[1], yes[1], no[1])
}
