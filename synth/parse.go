package synth

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
)

// ParseTerm reads the Go condition src as a Term over spec's inputs and
// constants, so that a condition written by hand or by a mutation can be
// evaluated on the examples (Term.Eval) and ranked with synthesized ones.
// A subexpression is an input or a constant when its source is one (as
// types.ExprString prints it); x != y is read as !(x == y) when only the
// equality is observed. It fails on a subexpression that is neither, nor a
// literal, nor an operator a Term has.
func ParseTerm(spec *Spec, src string) (*Term, error) {
	e, err := parser.ParseExpr(src)
	if err != nil {
		return nil, err
	}
	p := termParser{inputs: map[string]int{}, consts: map[string]int{}}
	for i, in := range spec.Inputs {
		if _, dup := p.inputs[normalize(in.Expr)]; !dup {
			p.inputs[normalize(in.Expr)] = i
		}
	}
	for i, c := range spec.Constants {
		if _, dup := p.consts[normalize(c.Expr)]; !dup {
			p.consts[normalize(c.Expr)] = i
		}
	}
	return p.term(e)
}

type termParser struct {
	inputs, consts map[string]int
}

var binaryOps = map[token.Token]Op{
	token.LAND: OpAnd, token.LOR: OpOr, token.LSS: OpLt, token.LEQ: OpLe, token.EQL: OpEq,
	token.NEQ: OpNe, token.GTR: OpGt, token.GEQ: OpGe, token.ADD: OpAdd, token.SUB: OpSub, token.MUL: OpMul,
}

func (p termParser) term(e ast.Expr) (*Term, error) {
	e = ast.Unparen(e)
	src := types.ExprString(e)
	if i, ok := p.inputs[src]; ok {
		return InputTerm(i), nil
	}
	if i, ok := p.consts[src]; ok {
		return ConstTerm(i), nil
	}
	switch e := e.(type) {
	case *ast.BasicLit:
		return literal(e.Kind, e.Value, false)
	case *ast.Ident:
		if e.Name == "true" || e.Name == "false" {
			return LitTerm(BoolValue(e.Name == "true")), nil
		}
	case *ast.UnaryExpr:
		switch e.Op {
		case token.NOT:
			a, err := p.term(e.X)
			if err != nil {
				return nil, err
			}
			return NotTerm(a), nil
		case token.SUB:
			if lit, ok := ast.Unparen(e.X).(*ast.BasicLit); ok {
				return literal(lit.Kind, lit.Value, true)
			}
		}
	case *ast.BinaryExpr:
		if e.Op == token.NEQ || e.Op == token.EQL {
			// p != nil where p == nil is observed, and the reverse.
			flipped := *e
			flipped.Op = token.EQL + token.NEQ - e.Op
			if i, ok := p.inputs[types.ExprString(&flipped)]; ok {
				return NotTerm(InputTerm(i)), nil
			}
		}
		op, ok := binaryOps[e.Op]
		if !ok {
			break
		}
		a, err := p.term(e.X)
		if err != nil {
			return nil, err
		}
		b, err := p.term(e.Y)
		if err != nil {
			return nil, err
		}
		return BinTerm(op, a, b), nil
	}
	return nil, fmt.Errorf("%s is not observed", src)
}

// literal is the Term of a Go literal, negated when neg.
func literal(kind token.Token, lit string, neg bool) (*Term, error) {
	v := constant.MakeFromLiteral(lit, kind, 0)
	if neg {
		v = constant.UnaryOp(token.SUB, v, 0)
	}
	switch v.Kind() {
	case constant.Int:
		if n, exact := constant.Int64Val(v); exact {
			return LitTerm(IntValue(n)), nil
		}
	case constant.Float:
		f, _ := constant.Float64Val(v)
		return LitTerm(FloatValue(f)), nil
	case constant.String:
		if !neg {
			return LitTerm(StringValue(constant.StringVal(v))), nil
		}
	}
	return nil, fmt.Errorf("literal %s not supported", lit)
}

// EditDistance is the edit distance between the Go token sequences of a and
// b: how far a condition is from another (the original), as Rank's ties
// measure it.
func EditDistance(a, b string) int {
	return tokenDistance(goTokens(a), goTokens(b))
}
