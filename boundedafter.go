package nopol

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/nopol-go/nopol/collect"
	"github.com/nopol-go/nopol/synth"
)

// The upper end of an index after a guard, the rule length-check-dropped:
// the branch leaves, the code after the if indexes x with i in a way that
// needs i < len(x) (collect.Branch.BoundedAfter: x[i], x[i+1:]), the
// original ensures it wherever it is false and evaluates without a panic
// (by a comparison, `i > len(x)-1 || ...`, or by reading x[i] itself on
// every path to false, `i < len(x)-1 || x[i] != '^'`), and the candidate
// does not: an i at or past the end now reaches the index after the if.
// goldmark's seeded footnote parser, `pos < len(line)-1 && line[pos] !=
// '^'` for the developer's `pos > len(line)-1 || line[pos] != '^'`
// before `line[pos+1 : ...]`: a line that ends at the `[` panicked. A
// loop counter is left alone: the loop's condition may bound it.

// upperCheckDropped checks the rule for each pair of site's BoundedAfter.
func upperCheckDropped(site collect.Site, orig, cand ast.Expr) string {
	if site.Then == nil || !site.Then.Exits {
		return ""
	}
	for _, p := range site.Then.BoundedAfter {
		if slices.Contains(site.LoopVars, p.I) {
			continue // the loop's own condition may bound it
		}
		b := bound{x: p.X, i: p.I}
		if !b.whenFalse(orig) || b.whenFalse(cand) {
			continue
		}
		if b.reads(cand) {
			// It panics before the code after, where nothing bounds i:
			// the bound the original tested is gone.
			return fmt.Sprintf("length-check-dropped: the code after the if indexes %s with %s, which needs %s < len(%s); %s bounds it, the candidate reads %s[%s] with nothing bounding %s first",
				p.X, p.I, p.I, p.X, types.ExprString(orig), p.X, p.I, p.I)
		}
		return fmt.Sprintf("length-check-dropped: where the condition is false, the code after the if indexes %s with %s, which needs %s < len(%s); %s ensures it, the candidate lets %s >= len(%s) through",
			p.X, p.I, p.I, p.X, types.ExprString(orig), p.I, p.X)
	}
	return ""
}

// bound decides, syntactically, whether a condition ensures i < len(x)
// on the paths where it takes an outcome and no index panics.
type bound struct{ x, i string }

// whenFalse reports whether e false implies i < len(x).
func (b bound) whenFalse(e ast.Expr) bool { return b.holds(e, false) }

// holds reports whether e evaluating to outcome implies i < len(x).
func (b bound) holds(e ast.Expr, outcome bool) bool {
	e = ast.Unparen(e)
	switch n := e.(type) {
	case *ast.UnaryExpr:
		if n.Op == token.NOT {
			return b.holds(n.X, !outcome)
		}
	case *ast.BinaryExpr:
		if n.Op == token.LAND || n.Op == token.LOR {
			// The outcome the left operand decides alone: false for
			// &&, true for ||; otherwise both ran, the left with the
			// other outcome.
			decides := n.Op == token.LOR
			left := b.holds(n.X, outcome) || b.reads(n.X)
			if outcome == decides {
				// Either the left decided, or it took !decides and the
				// right took outcome.
				return left && (b.holds(n.X, !decides) || b.reads(n.X) || b.holds(n.Y, outcome) || b.reads(n.Y))
			}
			// Both ran: the left with !decides, the right with outcome.
			return b.holds(n.X, outcome) || b.reads(n.X) || b.holds(n.Y, outcome) || b.reads(n.Y)
		}
		return b.compares(n, outcome)
	}
	return false
}

// compares reports whether the comparison c taking outcome implies i <
// len(x): c relates i (plus a constant) and len(x) (plus a constant).
func (b bound) compares(c *ast.BinaryExpr, outcome bool) bool {
	if !comparison(c.Op) {
		return false
	}
	li, lc, lok := b.linear(c.X)
	ri, rc, rok := b.linear(c.Y)
	if !lok || !rok || li == ri {
		return false
	}
	op := c.Op
	if !outcome {
		op, _ = synth.Negated(op)
	}
	// i + a op len(x) + r, as i op len(x) + d.
	d := rc - lc
	if !li { // len(x) + a op i + r: i op' len(x) + (a - r)
		op, d = mirrored(op), lc-rc
	}
	switch op {
	case token.LSS:
		return d <= 0
	case token.LEQ, token.EQL:
		return d <= -1
	}
	return false
}

// linear reads e as i + k (isI) or len(x) + k, k an integer literal
// added or subtracted (splitOffset).
func (b bound) linear(e ast.Expr) (isI bool, k int64, ok bool) {
	switch base, k := splitOffset(e); base {
	case b.i:
		return true, k, true
	case "len(" + b.x + ")":
		return false, k, true
	}
	return false, 0, false
}

// reads reports whether evaluating e always indexes x with i (x[i] or
// x[i+k], k >= 0): where it does not panic, i < len(x). The right
// operands of && and || may not run, nor function literals.
func (b bound) reads(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BinaryExpr:
			if n.Op == token.LAND || n.Op == token.LOR {
				found = found || b.reads(n.X)
				return false
			}
		case *ast.IndexExpr:
			if types.ExprString(ast.Unparen(n.X)) == b.x {
				if isI, k, ok := b.linear(n.Index); ok && isI && k >= 0 {
					found = true
				}
			}
		}
		return !found
	})
	return found
}
