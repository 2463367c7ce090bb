package synth

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"strconv"
	"strings"
	"sync"
	"unicode"
)

// Op is the operator at the root of a Term.
type Op uint8

// The operators a candidate is built from.
const (
	OpInput Op = iota + 1 // Spec.Inputs[Term.Index]
	OpConst               // Spec.Constants[Term.Index]
	OpLit                 // an invented constant, Term.Lit
	OpNot                 // !a
	OpAnd                 // a && b
	OpOr                  // a || b
	OpLt                  // a < b
	OpLe                  // a <= b
	OpEq                  // a == b (ints, floats, strings, bools)
	OpNe                  // a != b
	OpGt                  // a > b
	OpGe                  // a >= b
	OpAdd                 // a + b
	OpSub                 // a - b
	OpMul                 // a * b, where b is a constant (OpConst or OpLit)
)

var opToken = map[Op]string{
	OpNot: "!", OpAnd: "&&", OpOr: "||", OpLt: "<", OpLe: "<=", OpEq: "==",
	OpNe: "!=", OpGt: ">", OpGe: ">=", OpAdd: "+", OpSub: "-", OpMul: "*",
}

// Go precedence of binary operators (go/token).
var opPrec = map[Op]int{
	OpOr: 1, OpAnd: 2,
	OpLt: 3, OpLe: 3, OpEq: 3, OpNe: 3, OpGt: 3, OpGe: 3,
	OpAdd: 4, OpSub: 4, OpMul: 5,
}

// Term is a candidate expression over a Spec's inputs and constants.
type Term struct {
	Op    Op
	Args  []*Term // operands of unary and binary operators
	Index int     // for OpInput and OpConst
	Lit   Value   // for OpLit
}

// InputTerm builds a Term, as ConstTerm, LitTerm, NotTerm and BinTerm do.
func InputTerm(i int) *Term           { return &Term{Op: OpInput, Index: i} }
func ConstTerm(i int) *Term           { return &Term{Op: OpConst, Index: i} }
func LitTerm(v Value) *Term           { return &Term{Op: OpLit, Lit: v} }
func NotTerm(a *Term) *Term           { return &Term{Op: OpNot, Args: []*Term{a}} }
func BinTerm(op Op, a, b *Term) *Term { return &Term{Op: op, Args: []*Term{a, b}} }

// Size is the number of components (operators, inputs and constants) in t.
func (t *Term) Size() int {
	n := 1
	for _, a := range t.Args {
		n += a.Size()
	}
	return n
}

// Kind is the kind of t's value in spec.
func (t *Term) Kind(spec *Spec) Kind {
	switch t.Op {
	case OpInput:
		return spec.Inputs[t.Index].Kind
	case OpConst:
		return spec.Constants[t.Index].Value.Kind
	case OpLit:
		return t.Lit.Kind
	case OpAdd, OpSub, OpMul:
		// An untyped integer literal takes the float kind of the other
		// operand, as in x * 2 for a float x.
		k := t.Args[0].Kind(spec)
		if k == Int && t.Args[1].Kind(spec) == Float {
			return Float
		}
		return k
	}
	return Bool
}

// IsIntLiteral reports whether t is an untyped integer constant: an
// invented one, or a code constant written as an integer literal (not a
// named constant, which may be typed). Go converts such a constant to
// float64 next to a float operand, and so does Eval.
func (t *Term) IsIntLiteral(spec *Spec) bool {
	switch t.Op {
	case OpLit:
		return t.Lit.Kind == Int
	case OpConst:
		c := spec.Constants[t.Index]
		if c.Value.Kind != Int {
			return false
		}
		e, err := parser.ParseExpr(c.Expr)
		if err != nil {
			return false
		}
		if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.SUB {
			e = u.X
		}
		lit, ok := e.(*ast.BasicLit)
		return ok && lit.Kind == token.INT
	}
	return false
}

// errMissing is returned by Eval when t reads a missing value.
var errMissing = errors.New("reads a value that was not observable")

// errForeign is returned by Eval when t reads an input the example does
// not have: t was parsed over another spec's inputs.
var errForeign = errors.New("reads an input of another specification")

// Eval computes t on one example with Go semantics, short-circuits included.
// It fails when t reads a missing value or mixes kinds.
func (t *Term) Eval(spec *Spec, ex *Example) (Value, error) {
	switch t.Op {
	case OpInput:
		if t.Index >= len(ex.Values) {
			return Value{}, errForeign
		}
		v := ex.Values[t.Index]
		if v.Missing {
			return v, errMissing
		}
		return v, nil
	case OpConst:
		return spec.Constants[t.Index].Value, nil
	case OpLit:
		return t.Lit, nil
	case OpNot:
		a, err := t.Args[0].Eval(spec, ex)
		if err != nil {
			return a, err
		}
		return BoolValue(!a.Bool), nil
	case OpAnd, OpOr:
		a, err := t.Args[0].Eval(spec, ex)
		if err != nil {
			return a, err
		}
		if a.Bool == (t.Op == OpOr) {
			return a, nil
		}
		return t.Args[1].Eval(spec, ex)
	}
	a, err := t.Args[0].Eval(spec, ex)
	if err != nil {
		return a, err
	}
	b, err := t.Args[1].Eval(spec, ex)
	if err != nil {
		return b, err
	}
	if a.Kind == Float && b.Kind == Int && t.Args[1].IsIntLiteral(spec) {
		b = FloatValue(float64(b.Int))
	} else if a.Kind == Int && b.Kind == Float && t.Args[0].IsIntLiteral(spec) {
		a = FloatValue(float64(a.Int))
	}
	if a.Kind != b.Kind {
		return a, fmt.Errorf("%s %s %s: mixed kinds", a.Kind, opToken[t.Op], b.Kind)
	}
	switch t.Op {
	case OpAdd, OpSub, OpMul:
		switch a.Kind {
		case Int:
			switch t.Op {
			case OpAdd:
				return IntValue(a.Int + b.Int), nil
			case OpSub:
				return IntValue(a.Int - b.Int), nil
			}
			return IntValue(a.Int * b.Int), nil
		case Float:
			switch t.Op {
			case OpAdd:
				return FloatValue(a.Float + b.Float), nil
			case OpSub:
				return FloatValue(a.Float - b.Float), nil
			}
			return FloatValue(a.Float * b.Float), nil
		}
		return a, fmt.Errorf("arithmetic on %s", a.Kind)
	}
	if (a.Kind == String || a.Kind == Bool) && t.Op != OpEq && t.Op != OpNe {
		return a, fmt.Errorf("%s %s %s: not supported", a.Kind, opToken[t.Op], b.Kind)
	}
	if a.Kind == Float && (math.IsNaN(a.Float) || math.IsNaN(b.Float)) {
		return BoolValue(t.Op == OpNe), nil // NaN is unordered: only != holds
	}
	c, err := compare(a, b)
	if err != nil {
		return a, err
	}
	var r bool
	switch t.Op {
	case OpLt:
		r = c < 0
	case OpLe:
		r = c <= 0
	case OpEq:
		r = c == 0
	case OpNe:
		r = c != 0
	case OpGt:
		r = c > 0
	case OpGe:
		r = c >= 0
	default:
		return a, fmt.Errorf("unknown operator %d", t.Op)
	}
	return BoolValue(r), nil
}

// compare orders a and b; strings and bools only for equality (0 or 1).
func compare(a, b Value) (int, error) {
	switch a.Kind {
	case Int:
		return cmp3(a.Int < b.Int, a.Int > b.Int), nil
	case Float:
		return cmp3(a.Float < b.Float, a.Float > b.Float), nil
	case String:
		if a.Str == b.Str {
			return 0, nil
		}
		return 1, nil
	case Bool:
		if a.Bool == b.Bool {
			return 0, nil
		}
		return 1, nil
	}
	return 0, fmt.Errorf("compare %s", a.Kind)
}

func cmp3(less, greater bool) int {
	switch {
	case less:
		return -1
	case greater:
		return 1
	}
	return 0
}

// Source renders t as Go source over spec's expressions, with the fewest
// parentheses Go needs.
func (t *Term) Source(spec *Spec) string {
	var b strings.Builder
	t.write(termWriter{b: &b}, spec, 0)
	return b.String()
}

// tokens returns the Go tokens of t's source.
func (t *Term) tokens(spec *Spec) []string {
	var toks []string
	t.write(termWriter{toks: &toks}, spec, 0)
	return toks
}

// termWriter collects a term's source text, its Go tokens, or both.
type termWriter struct {
	b    *strings.Builder
	toks *[]string
}

// punct writes a token such as "(" or "!".
func (w termWriter) punct(s string) {
	if w.b != nil {
		w.b.WriteString(s)
	}
	if w.toks != nil {
		*w.toks = append(*w.toks, s)
	}
}

// binary writes a binary operator between spaces.
func (w termWriter) binary(op Op) {
	if w.b != nil {
		w.b.WriteString(" " + opToken[op] + " ")
	}
	if w.toks != nil {
		*w.toks = append(*w.toks, opToken[op])
	}
}

// operand writes the source of an observed expression or constant.
func (w termWriter) operand(src string) {
	if w.b != nil {
		w.b.WriteString(src)
	}
	if w.toks != nil {
		*w.toks = append(*w.toks, cachedTokens(src)...)
	}
}

// tokenCache caches goTokens for operand texts.
var tokenCache sync.Map // string → []string

func cachedTokens(src string) []string {
	if t, ok := tokenCache.Load(src); ok {
		return t.([]string)
	}
	t := goTokens(src)
	tokenCache.Store(src, t)
	return t
}

func (t *Term) write(w termWriter, spec *Spec, outer int) {
	switch t.Op {
	case OpInput:
		writeOperand(w, spec.Inputs[t.Index].Expr, outer)
		return
	case OpConst:
		writeOperand(w, spec.Constants[t.Index].Expr, outer)
		return
	case OpLit:
		// Unary minus binds tighter than every binary operator: "n < -1"
		// and "a - -1" need no parentheses.
		w.operand(t.Lit.GoString())
		return
	case OpNot:
		a := t.Args[0]
		if a.Op == OpInput {
			// !(p == nil) reads better as p != nil.
			if neg, ok := negateEquality(spec.Inputs[a.Index].Expr); ok {
				writeOperand(w, neg, outer)
				return
			}
		}
		w.punct("!")
		a.write(w, spec, 6)
		return
	}
	p := opPrec[t.Op]
	paren := p < outer
	if paren {
		w.punct("(")
	}
	left, right := t.Args[0], t.Args[1]
	if t.Op == OpMul && isConstLeaf(right) && !isConstLeaf(left) {
		// The constant factor goes first, as in 2 * n.
		left, right = right, left
	}
	leftOuter := p
	if p == opPrec[OpEq] {
		// A comparison operand that is itself a comparison is
		// parenthesised on both sides: (p == nil) == q.
		leftOuter = p + 1
	}
	comparison := p == opPrec[OpEq]
	left.writeOperandOf(w, spec, leftOuter, right, comparison)
	w.binary(t.Op)
	// Right operands of the same precedence need parentheses for
	// non-associative operators (a - (b - c)) and comparisons.
	right.writeOperandOf(w, spec, p+1, left, comparison)
	if paren {
		w.punct(")")
	}
}

func isConstLeaf(t *Term) bool { return t.Op == OpConst || t.Op == OpLit }

// writeOperandOf writes t, an operand of a binary term whose other
// operand is other: in a comparison with a byte or rune input, an integer
// literal as a character literal (charLiteral).
func (t *Term) writeOperandOf(w termWriter, spec *Spec, outer int, other *Term, comparison bool) {
	if comparison && charLiteral(spec, t, other) {
		w.operand(strconv.QuoteRune(rune(t.Lit.Int)))
		return
	}
	t.write(w, spec, outer)
}

// charLiteral reports whether lit is an integer literal compared with
// other, a byte or rune input, that reads as a printable character: a
// maintainer writes r != '_', not r != 95.
func charLiteral(spec *Spec, lit, other *Term) bool {
	if lit.Op != OpLit || lit.Lit.Kind != Int || other.Op != OpInput || !spec.Inputs[other.Index].Char {
		return false
	}
	v := lit.Lit.Int
	return v >= 0x20 && v <= unicode.MaxRune && unicode.IsPrint(rune(v))
}

// negateEquality turns "x == y" into "x != y" and back; ok is false when src
// is not an equality.
func negateEquality(src string) (string, bool) {
	neg, _, ok := negateEqualityOp(src)
	return neg, ok
}

type negation struct {
	src string
	op  token.Token
	ok  bool
}

// negations caches negateEqualityOp.
var negations sync.Map // string → negation

// negateEqualityOp is negateEquality that also returns the new operator.
func negateEqualityOp(src string) (string, token.Token, bool) {
	if n, ok := negations.Load(src); ok {
		n := n.(negation)
		return n.src, n.op, n.ok
	}
	neg, op, ok := parseNegation(src)
	negations.Store(src, negation{neg, op, ok})
	return neg, op, ok
}

func parseNegation(src string) (string, token.Token, bool) {
	e, err := parser.ParseExpr(src)
	if err != nil {
		return "", 0, false
	}
	be, ok := e.(*ast.BinaryExpr)
	if !ok || (be.Op != token.EQL && be.Op != token.NEQ) {
		return "", 0, false
	}
	op := token.NEQ
	if be.Op == token.NEQ {
		op = token.EQL
	}
	x, y := src[be.X.Pos()-1:be.X.End()-1], src[be.Y.Pos()-1:be.Y.End()-1]
	return x + " " + op.String() + " " + y, op, true
}

// writeOperand writes an observed expression, parenthesised when it is itself
// a binary expression (such as "p == nil") inside a tighter context.
func writeOperand(w termWriter, src string, outer int) {
	if outer > 0 && operandPrec(src) < outer {
		w.punct("(")
		w.operand(src)
		w.punct(")")
		return
	}
	w.operand(src)
}

// operandPrecs caches operandPrec: terms are rendered many times.
var operandPrecs sync.Map // string → int

// operandPrec is the precedence of the operator at the root of src, 6 for
// an operand that needs no parentheses.
func operandPrec(src string) int {
	if p, ok := operandPrecs.Load(src); ok {
		return p.(int)
	}
	p := 6
	if e, err := parser.ParseExpr(src); err == nil {
		if be, ok := e.(*ast.BinaryExpr); ok {
			p = precOfToken(be.Op.String())
		}
	}
	operandPrecs.Store(src, p)
	return p
}

func precOfToken(tok string) int {
	for op, s := range opToken {
		if s == tok {
			if p, ok := opPrec[op]; ok {
				return p
			}
		}
	}
	return 6
}

// AST parses t's Go source into an expression.
func (t *Term) AST(spec *Spec) (ast.Expr, error) {
	return parser.ParseExpr(t.Source(spec))
}
