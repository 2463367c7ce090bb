package nopol

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/nopol-go/nopol/synth"
)

// Parallel clauses. A condition whose clauses test two values alike
// (`c == nil || c2 == nil`, `!vx.IsValid() || !vx.CanInterface() ||
// !vy.IsValid() || !vy.CanInterface()`) reads the same with the two names
// swapped. When the original does not, and a mutant does, the mutant
// restores a parallel the code was written with, and the original's odd
// clause is likelier the bug than a clause of the parallel: such a mutant
// is validated before the other mutants of its site (go-cmp's seeded
// valuesFilter, `vx.CanInterface()` with its `!` dropped, was "repaired"
// by deleting it, `!vx.IsValid() || !vy.IsValid() || !vy.CanInterface()`,
// before the negation that restores the parallel; color's seeded Equals,
// `c == nil || c2 != nil`, by `c == nil && c2 != nil`, where `c == nil ||
// c2 == nil` was the fix).

// maxSymmetryNames bounds the names whose pairs symmetric tries.
const maxSymmetryNames = 8

// symmetricFirst moves the mutants of cands (method "mutation") that are
// symmetric before the other mutants, in their order, when orig is not;
// the other candidates keep their places.
func symmetricFirst(orig string, cands []candidate) []candidate {
	if symmetric(orig) || bothBounds(orig) {
		return cands
	}
	return mutantsFirst(cands, func(c candidate) bool { return symmetric(c.src) })
}

// mutantsFirst moves the mutants of cands (method "mutation") for which
// first holds before the other mutants, each in their order, in the
// mutants' places; the other candidates keep theirs.
func mutantsFirst(cands []candidate, first func(candidate) bool) []candidate {
	var slots []int
	var front, rest []candidate
	for i, c := range cands {
		if c.method != "mutation" {
			continue
		}
		slots = append(slots, i)
		if first(c) {
			front = append(front, c)
		} else {
			rest = append(rest, c)
		}
	}
	if len(front) == 0 || len(rest) == 0 {
		return cands
	}
	out := slices.Clone(cands)
	for k, c := range slices.Concat(front, rest) {
		out[slots[k]] = c
	}
	return out
}

// bothBounds reports whether src orders one value against a bound from
// below and another from above (x >= n.lo && x <= n.hi): a range, whose
// mutants that read the same with the bounds swapped (x <= n.lo && x <=
// n.hi) are no parallel restored, the range is gone.
func bothBounds(src string) bool {
	var ops []ast.Expr
	for _, c := range comparisonsOf(src) {
		ops = append(ops, c)
	}
	bs := orderingsOf(ops)
	for x := range bs.upper {
		if len(bs.lower[x]) > 0 {
			return true
		}
	}
	return false
}

// symmetric reports whether src, a chain of && or || of two operands or
// more, reads the same with two of its names swapped, and the swap
// changes one operand at least (its operands test the two alike), up to
// the order of the operands of && and ||, of == and !=, and of the sides
// of an ordering (a > b is b < a).
func symmetric(src string) bool {
	e, err := parser.ParseExpr(src)
	if err != nil {
		return false
	}
	b, ok := ast.Unparen(e).(*ast.BinaryExpr)
	if !ok || b.Op != token.LAND && b.Op != token.LOR {
		return false
	}
	// The names swapped are values (vx and vy, c and c2), not the
	// fields or methods read from them: flag.Shorthand != "" ||
	// flag.ShorthandDeprecated != "" tests two properties of one flag,
	// no parallel of two values.
	sels := map[*ast.Ident]bool{}
	ast.Inspect(e, func(n ast.Node) bool {
		if s, ok := n.(*ast.SelectorExpr); ok {
			sels[s.Sel] = true
		}
		return true
	})
	var names []string
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && !sels[id] && !predeclared(id.Name) && !slices.Contains(names, id.Name) && len(names) < maxSymmetryNames {
			names = append(names, id.Name)
		}
		return true
	})
	want := canonical(e)
	for i, x := range names {
		for _, y := range names[i+1:] {
			swapped, err := parser.ParseExpr(src)
			if err != nil {
				return false
			}
			ast.Inspect(swapped, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok {
					switch id.Name {
					case x:
						id.Name = y
					case y:
						id.Name = x
					}
				}
				return true
			})
			if canonical(swapped) == want && canonicalOperands(swapped, b.Op) != canonicalOperands(e, b.Op) {
				return true
			}
		}
	}
	return false
}

// canonical prints e with the operands of && and || chains, and of ==
// and !=, sorted, and orderings written with < or <=.
func canonical(e ast.Expr) string {
	switch x := ast.Unparen(e).(type) {
	case *ast.BinaryExpr:
		switch x.Op {
		case token.LAND, token.LOR:
			ops := canonicalOperandsList(x, x.Op)
			slices.Sort(ops)
			return "(" + strings.Join(ops, " "+x.Op.String()+" ") + ")"
		case token.EQL, token.NEQ:
			sides := []string{canonical(x.X), canonical(x.Y)}
			slices.Sort(sides)
			return "(" + sides[0] + " " + x.Op.String() + " " + sides[1] + ")"
		case token.GTR, token.GEQ:
			return "(" + canonical(x.Y) + " " + synth.Mirrored(x.Op).String() + " " + canonical(x.X) + ")"
		default:
			return "(" + canonical(x.X) + " " + x.Op.String() + " " + canonical(x.Y) + ")"
		}
	case *ast.UnaryExpr:
		return x.Op.String() + canonical(x.X)
	}
	return types.ExprString(ast.Unparen(e))
}

// canonicalOperandsList are the canonical operands of the chain of op e
// heads, in order.
func canonicalOperandsList(e ast.Expr, op token.Token) []string {
	var out []string
	for _, o := range operandsOf(e, op) {
		out = append(out, canonical(o))
	}
	return out
}

// canonicalOperands prints the operands of the chain of op e heads one
// by one, in order: a swap that changes none of them (each operand
// symmetric alone) does not make the chain parallel.
func canonicalOperands(e ast.Expr, op token.Token) string {
	return strings.Join(canonicalOperandsList(e, op), "\x00")
}
