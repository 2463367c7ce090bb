package synth

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"sort"

	"github.com/nopol-go/nopol/internal/tokens"
)

// Cost weights. A component costs most; what the original condition already
// used is cheap, invented constants are dearer than the code's own.
const (
	costComponent   = 100
	costNewOperand  = 15
	costNewOperator = 5
	costCodeConst   = 10
	costInvented    = 30
)

// Rank sorts cands best first and sets their Cost: fewer components, the
// original condition's operands and operators, code constants over invented
// ones, then the candidate textually closest to the original (see tieKey),
// then source order, so that the same candidates always rank the same.
func Rank(spec *Spec, cands []Candidate) {
	m := newCostModel(spec)
	for i := range cands {
		cands[i].Cost = m.cost(cands[i].Term)
	}
	ties := make([]tieKey, len(cands))
	for i := range cands {
		ties[i] = m.tie(cands[i].Term)
		ties[i].src = cands[i].Source
	}
	idx := make([]int, len(cands))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(i, j int) bool {
		a, b := idx[i], idx[j]
		if ca, cb := cands[a].Cost, cands[b].Cost; ca != cb {
			return ca < cb
		}
		return m.less(&ties[a], &ties[b])
	})
	sorted := make([]Candidate, len(cands))
	for i, k := range idx {
		sorted[i] = cands[k]
	}
	copy(cands, sorted)
}

// tieKey orders terms of equal cost: the smaller token edit distance to the
// original, then the original's negation (a comparison whose operator is
// the original's complement: `len(s) <= n` for `len(s) > n`, before
// `len(s) < n`, one token away too; the mutants' order, see nopol's
// mutantsOf), then the longer common token prefix with it (the original
// kept and a clause appended), then fewer backward comparisons (see
// flips), then the source.
type tieKey struct {
	dist, prefix, flips int
	negation            bool
	term                *Term
	src                 string // computed when needed
}

func (m *costModel) tie(t *Term) tieKey {
	toks := t.tokens(m.spec)
	return tieKey{
		dist:     tokenDistance(toks, m.origTokens),
		negation: m.negation != nil && slices.Equal(toks, m.negation),
		prefix:   commonPrefix(toks, m.origTokens),
		flips:    flips(t),
		term:     t,
	}
}

// complement is the comparison operator that negates a comparison.
var complement = map[token.Token]token.Token{
	token.LSS: token.GEQ, token.GEQ: token.LSS, token.GTR: token.LEQ, token.LEQ: token.GTR,
	token.EQL: token.NEQ, token.NEQ: token.EQL,
}

// negationTokens returns the tokens of the original condition src negated
// by its operator's complement when it is one comparison (a > b: a <= b),
// or nil.
func negationTokens(src string) []string {
	e, err := parser.ParseExpr(src)
	if err != nil {
		return nil
	}
	b, ok := ast.Unparen(e).(*ast.BinaryExpr)
	if !ok {
		return nil
	}
	op, ok := complement[b.Op]
	if !ok {
		return nil
	}
	return goTokens(types.ExprString(&ast.BinaryExpr{X: b.X, Op: op, Y: b.Y}))
}

func (m *costModel) less(a, b *tieKey) bool {
	if a.dist != b.dist {
		return a.dist < b.dist
	}
	if a.negation != b.negation {
		return a.negation
	}
	if a.prefix != b.prefix {
		return a.prefix > b.prefix
	}
	if a.flips != b.flips {
		return a.flips < b.flips
	}
	for _, k := range []*tieKey{a, b} {
		if k.src == "" {
			k.src = k.term.Source(m.spec)
		}
	}
	return a.src < b.src
}

func commonPrefix(x, y []string) int {
	n := 0
	for n < len(x) && n < len(y) && x[n] == y[n] {
		n++
	}
	return n
}

// mirrorToken is the comparison operator with its operands swapped: a < b
// is b > a.
var mirrorToken = map[token.Token]token.Token{
	token.LSS: token.GTR, token.GTR: token.LSS, token.LEQ: token.GEQ, token.GEQ: token.LEQ, token.EQL: token.EQL, token.NEQ: token.NEQ,
}

// mirror is mirrorToken over the terms' operators.
var mirror = func() map[Op]Op {
	out := map[Op]Op{}
	for a, b := range mirrorToken {
		out[binaryOps[a]] = binaryOps[b]
	}
	return out
}()

// Mirrored returns the comparison operator that compares the same with
// its sides swapped (> for <), op itself when it is not a comparison.
func Mirrored(op token.Token) token.Token {
	if m, ok := mirrorToken[op]; ok {
		return m
	}
	return op
}

// Negated returns the comparison operator that negates op (< for >=);
// false when op is not a comparison.
func Negated(op token.Token) (token.Token, bool) {
	if c, ok := complement[op]; ok {
		return c, true
	}
	return op, false
}

// flips counts the comparisons written against the usual orientation: a
// constant on the left of an input, or inputs in the reverse of the spec's
// order (len(s) < pos rather than pos > len(s)). It only breaks ties.
func flips(t *Term) int {
	n := 0
	if _, ok := mirror[t.Op]; ok {
		l, r := firstInput(t.Args[0]), firstInput(t.Args[1])
		if l < 0 && r >= 0 || l >= 0 && r >= 0 && l > r {
			n++
		}
	}
	for _, a := range t.Args {
		n += flips(a)
	}
	return n
}

// firstInput is the index of the leftmost input read by t, or -1.
func firstInput(t *Term) int {
	if t.Op == OpInput {
		return t.Index
	}
	for _, a := range t.Args {
		if i := firstInput(a); i >= 0 {
			return i
		}
	}
	return -1
}

// costModel holds the per-spec parts of the cost, computed once: what each
// input, constant and operator adds.
type costModel struct {
	spec       *Spec
	orig       original
	origTokens []string
	// negation holds the tokens of the original's negation (negationTokens).
	negation []string
	input    []int // costNewOperand or 0, per input
	negated  []int // for equality inputs, the cost of the operator of their negation; else -1
	constant []int // costCodeConst or 0, per constant
	operator [OpMul + 1]int
}

func newCostModel(spec *Spec) *costModel {
	m := &costModel{spec: spec, orig: parseOriginal(spec.Original), origTokens: goTokens(spec.Original), negation: negationTokens(spec.Original)}
	m.input = make([]int, len(spec.Inputs))
	m.negated = make([]int, len(spec.Inputs))
	for i, in := range spec.Inputs {
		neg, negOp, isEq := negateEqualityOp(in.Expr)
		if !m.orig.operands[normalize(in.Expr)] && !(isEq && m.orig.operands[normalize(neg)]) {
			m.input[i] = costNewOperand
			if in.Invented {
				m.input[i] += costComponent * callArgs(in.Expr)
			}
		}
		// !(p == nil) is written p != nil: it costs the operator != .
		m.negated[i] = -1
		if isEq {
			m.negated[i] = 0
			if !m.orig.operators[negOp.String()] {
				m.negated[i] = costNewOperator
			}
		}
	}
	m.constant = make([]int, len(spec.Constants))
	for i, c := range spec.Constants {
		if !m.orig.operands[normalize(c.Expr)] {
			m.constant[i] = costCodeConst
		}
	}
	for op, tok := range opToken {
		if !m.orig.operators[tok] {
			m.operator[op] = costNewOperator
		}
	}
	return m
}

// cost is the Cost of t (see the weights above).
func (m *costModel) cost(t *Term) int {
	c := 0
	var inputs []int
	var walk func(t *Term)
	walk = func(t *Term) {
		c += costComponent
		switch t.Op {
		case OpInput:
			if !slices.Contains(inputs, t.Index) {
				inputs = append(inputs, t.Index)
				c += m.input[t.Index]
			}
		case OpConst:
			c += m.constant[t.Index]
		case OpLit:
			if !m.orig.operands[t.Lit.GoString()] {
				c += costInvented
			}
		case OpNot:
			c += m.operator[OpNot]
			if a := t.Args[0]; a.Op == OpInput && m.negated[a.Index] >= 0 {
				c += m.negated[a.Index] - m.operator[OpNot]
			}
		default:
			// Writing a < b as b > a is no change of operator: a
			// comparison costs what its cheaper orientation costs.
			c += m.operator[t.Op]
			if mo, ok := mirror[t.Op]; ok {
				c = c - m.operator[t.Op] + min(m.operator[t.Op], m.operator[mo])
			}
		}
		for _, a := range t.Args {
			walk(a)
		}
	}
	walk(t)
	// The original's negation, its comparison's operator complemented,
	// is one edit, as the mirror is none: it costs no new operator.
	if _, ok := mirror[t.Op]; ok && m.negation != nil && slices.Equal(t.tokens(m.spec), m.negation) {
		c -= m.operator[t.Op]
	}
	return c
}

// callArgs is the number of arguments of the call src, 0 if it is none.
func callArgs(src string) int {
	e, err := parser.ParseExpr(src)
	if err != nil {
		return 0
	}
	if c, ok := ast.Unparen(e).(*ast.CallExpr); ok {
		return len(c.Args)
	}
	return 0
}

// goTokens splits src into Go tokens.
func goTokens(src string) []string {
	toks, _ := tokens.Scan(src)
	out := make([]string, len(toks))
	for i, t := range toks {
		out[i] = t.Text
	}
	return out
}

// original holds the operand texts and operator tokens of the original
// condition.
type original struct {
	operands  map[string]bool
	operators map[string]bool
}

func parseOriginal(src string) original {
	o := original{operands: map[string]bool{}, operators: map[string]bool{}}
	if src == "" {
		return o
	}
	e, err := parser.ParseExpr(src)
	if err != nil {
		return o
	}
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			o.operators[n.Op.String()] = true
		case *ast.UnaryExpr:
			o.operators[n.Op.String()] = true
		}
		if x, ok := n.(ast.Expr); ok {
			o.operands[types.ExprString(x)] = true
		}
		return true
	})
	return o
}

func normalize(src string) string {
	e, err := parser.ParseExpr(src)
	if err != nil {
		return src
	}
	return types.ExprString(e)
}

// tokenDistance is the edit distance between the token sequences x and y.
func tokenDistance(x, y []string) int {
	prev := make([]int, len(y)+1)
	cur := make([]int, len(y)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(x); i++ {
		cur[0] = i
		for j := 1; j <= len(y); j++ {
			d := prev[j-1]
			if x[i-1] != y[j-1] {
				d++
			}
			cur[j] = min(d, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(y)]
}
