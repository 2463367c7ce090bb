package nopol

import (
	"go/ast"
	"go/token"

	"github.com/nopol-go/nopol/collect"
)

// readableCondition returns cand as it is printed in a patch: a `!` over
// the whole of cand, where the original condition orig has none, is
// pushed into the negated expression when its negation needs no `!` of
// its own (De Morgan's laws, == and != swapped, a `!` removed). The
// negation mutant of `!(unicode.IsPrint(r) || unicode.IsSpace(r)) || r ==
// utf8.RuneError` is printed `(unicode.IsPrint(r) || unicode.IsSpace(r))
// && r != utf8.RuneError`, as go-cmp's developers wrote the fix, not
// `!(!(unicode.IsPrint(r) || unicode.IsSpace(r)) || r == utf8.RuneError)`.
//
// The rewrite is exact in Go: && and || evaluate their operands in the
// same order and stop at the same one; x == y and x != y panic alike
// and are each other's negation for every comparable type, NaN too.
// Orderings are left alone (!(x < y) is not x >= y for a NaN), and so is
// every `!` inside cand: the developer's own (toml's `!(s[1] == 'b' ||
// s[1] == 'o' || s[1] == 'x')`, a literal of which a mutant changed)
// stays as written. cand is returned unchanged when nothing is
// rewritten. orig is "" for a new guard.
func readableCondition(orig, cand string) string {
	fset, e, _, ok := parseCond(cand)
	if !ok {
		return cand
	}
	not, ok := unparen(e).(*ast.UnaryExpr)
	if !ok || not.Op != token.NOT {
		return cand
	}
	if _, o, _, ok := parseCond(orig); ok {
		if u, ok := unparen(o).(*ast.UnaryExpr); ok && u.Op == token.NOT {
			return cand
		}
	}
	n, ok := plainNegation(not.X)
	if !ok {
		return cand
	}
	if src := render(fset, parenthesize(n, token.LowestPrec)); src != "" {
		return src
	}
	return cand
}

// plainNegation returns the negation of e written without a `!` of its
// own: a `!x` made x, == and != swapped, and a chain of && or || whose
// operands all have one, by De Morgan's laws. ok is false when e has
// none.
func plainNegation(e ast.Expr) (ast.Expr, bool) {
	switch x := unparen(e).(type) {
	case *ast.UnaryExpr:
		if x.Op == token.NOT {
			return unparen(x.X), true // parenthesize puts back what is needed
		}
	case *ast.BinaryExpr:
		switch x.Op {
		case token.EQL, token.NEQ:
			return &ast.BinaryExpr{X: x.X, Op: token.EQL + token.NEQ - x.Op, Y: x.Y}, true
		case token.LAND, token.LOR:
			var out ast.Expr
			for _, o := range operandsOf(x, x.Op) {
				n, ok := plainNegation(o)
				if !ok {
					return nil, false
				}
				if out == nil {
					out = n
				} else {
					out = &ast.BinaryExpr{X: out, Op: token.LAND + token.LOR - x.Op, Y: n}
				}
			}
			return out, true
		}
	}
	return nil, false
}

// printedCondition is c's condition at site as the patch writes it
// (readableCondition).
func printedCondition(site collect.Site, c candidate) string {
	orig := ""
	if site.Kind == collect.Cond {
		orig = site.Original
	}
	return readableCondition(orig, c.src)
}
