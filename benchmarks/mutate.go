package benchmarks

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
)

// Mutation is one source edit of a condition: the bytes [Start, End) of
// the file are replaced by Text.
type Mutation struct {
	// Op names the operator: rel (relational operator replaced), logic
	// (&& and || swapped), drop-left/drop-right (an operand of && or ||
	// dropped), drop-not (negation removed), negate (whole condition
	// negated), const+1/const-1, remove-guard.
	Op         string
	Start, End int
	Text       string
}

// relSwaps are the relational replacements: off-by-one and negation.
var relSwaps = map[token.Token][]token.Token{
	token.EQL: {token.NEQ},
	token.NEQ: {token.EQL},
	token.LSS: {token.LEQ, token.GTR, token.GEQ},
	token.LEQ: {token.LSS, token.GTR},
	token.GTR: {token.GEQ, token.LSS, token.LEQ},
	token.GEQ: {token.GTR, token.LSS},
}

// condMutations lists the single mutations of cond, a condition of the
// file src parsed with fset. negate adds the negation of the whole
// condition (used by the repair baseline, not by seeding).
func condMutations(fset *token.FileSet, src []byte, cond ast.Expr, negate bool) []Mutation {
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	var ms []Mutation
	ast.Inspect(cond, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BinaryExpr:
			o := off(x.OpPos)
			switch x.Op {
			case token.LAND, token.LOR:
				to := token.LOR
				if x.Op == token.LOR {
					to = token.LAND
				}
				ms = append(ms, Mutation{Op: "logic", Start: o, End: o + 2, Text: to.String()})
				ms = append(ms,
					Mutation{Op: "drop-right", Start: off(x.Pos()), End: off(x.End()), Text: string(src[off(x.X.Pos()):off(x.X.End())])},
					Mutation{Op: "drop-left", Start: off(x.Pos()), End: off(x.End()), Text: string(src[off(x.Y.Pos()):off(x.Y.End())])})
			default:
				if isNilOrBool(x.X) || isNilOrBool(x.Y) {
					// Only == and != apply.
					if x.Op != token.EQL && x.Op != token.NEQ {
						break
					}
				}
				for _, to := range relSwaps[x.Op] {
					ms = append(ms, Mutation{Op: "rel", Start: o, End: o + len(x.Op.String()), Text: to.String()})
				}
			}
		case *ast.UnaryExpr:
			if x.Op == token.NOT {
				o := off(x.OpPos)
				ms = append(ms, Mutation{Op: "drop-not", Start: o, End: o + 1, Text: ""})
			}
		case *ast.BasicLit:
			if x.Kind == token.INT {
				if v, err := strconv.ParseInt(x.Value, 0, 64); err == nil {
					ms = append(ms, Mutation{Op: "const+1", Start: off(x.Pos()), End: off(x.End()), Text: strconv.FormatInt(v+1, 10)})
					if v > 0 {
						ms = append(ms, Mutation{Op: "const-1", Start: off(x.Pos()), End: off(x.End()), Text: strconv.FormatInt(v-1, 10)})
					}
				}
			}
		}
		return true
	})
	if negate {
		s, e := off(cond.Pos()), off(cond.End())
		ms = append(ms, Mutation{Op: "negate", Start: s, End: e, Text: "!(" + string(src[s:e]) + ")"})
	}
	return ms
}

func isNilOrBool(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && (id.Name == "nil" || id.Name == "true" || id.Name == "false")
}

// apply returns src with m applied.
func (m Mutation) apply(src []byte) []byte {
	out := make([]byte, 0, len(src)+len(m.Text))
	out = append(out, src[:m.Start]...)
	out = append(out, m.Text...)
	return append(out, src[m.End:]...)
}

// mutatedCond returns the printed condition after m, for a mutation
// inside cond (whose bytes are [cs, ce) of src).
func mutatedCond(src []byte, cs, ce int, m Mutation) string {
	text := string(src[cs:m.Start]) + m.Text + string(src[m.End:ce])
	return normCond(text)
}

// normCond prints a condition with go/printer (or returns it unchanged
// when it does not parse).
func normCond(text string) string {
	e, err := parser.ParseExpr(text)
	if err != nil {
		return text
	}
	return nodeString(token.NewFileSet(), e)
}
