package synth

import (
	"go/ast"
	"go/parser"
	"go/types"
	"sort"
	"strings"
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
// ones, then the candidate textually closest to the original, then source
// order, so that the same candidates always rank the same.
func Rank(spec *Spec, cands []Candidate) {
	orig := parseOriginal(spec.Original)
	for i := range cands {
		cands[i].Cost = cost(spec, cands[i].Term, orig)
	}
	dist := make(map[string]int, len(cands))
	for _, c := range cands {
		dist[c.Source] = tokenDistance(c.Source, spec.Original)
	}
	sort.SliceStable(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		if a.Cost != b.Cost {
			return a.Cost < b.Cost
		}
		if da, db := dist[a.Source], dist[b.Source]; da != db {
			return da < db
		}
		return a.Source < b.Source
	})
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

func cost(spec *Spec, t *Term, orig original) int {
	c := costComponent * t.Size()
	inputs := map[int]bool{}
	var walk func(t *Term)
	walk = func(t *Term) {
		switch t.Op {
		case OpInput:
			inputs[t.Index] = true
		case OpConst:
			c += costCodeConst
			if orig.operands[normalize(spec.Constants[t.Index].Expr)] {
				c -= costCodeConst
			}
		case OpLit:
			c += costInvented
			if orig.operands[t.Lit.GoString()] {
				c -= costInvented
			}
		default:
			if !orig.operators[opToken[t.Op]] {
				c += costNewOperator
			}
		}
		for _, a := range t.Args {
			walk(a)
		}
	}
	walk(t)
	for i := range inputs {
		if !orig.operands[normalize(spec.Inputs[i].Expr)] {
			c += costNewOperand
		}
	}
	return c
}

// tokenDistance is the edit distance between the token sequences of a and b.
func tokenDistance(a, b string) int {
	x, y := strings.Fields(a), strings.Fields(b)
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
