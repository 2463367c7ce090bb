package synth_test

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/nopol-go/nopol/synth"
)

// termSpec has inputs of every kind, some of them binary expressions.
var termSpec = &synth.Spec{
	Inputs: []synth.Input{
		{Expr: "a", Kind: synth.Int},             // 0
		{Expr: "b", Kind: synth.Int},             // 1
		{Expr: "c", Kind: synth.Int},             // 2
		{Expr: "p == nil", Kind: synth.Bool},     // 3
		{Expr: "q", Kind: synth.Bool},            // 4
		{Expr: "p.n", Kind: synth.Int},           // 5
		{Expr: "s", Kind: synth.String},          // 6
		{Expr: "x", Kind: synth.Float},           // 7
		{Expr: "len(s)", Kind: synth.Int},        // 8
		{Expr: "a < b", Kind: synth.Bool},        // 9
		{Expr: "i + j", Kind: synth.Int},         // 10
		{Expr: "r", Kind: synth.Int, Char: true}, // 11: a rune
	},
	Constants: []synth.Constant{
		{Expr: "0", Value: synth.IntValue(0)},
		{Expr: `""`, Value: synth.StringValue("")},
		{Expr: "maxDepth", Value: synth.IntValue(8)},
		{Expr: "1.5", Value: synth.FloatValue(1.5)},
	},
}

var (
	in  = synth.InputTerm
	cst = synth.ConstTerm
	lit = func(i int64) *synth.Term { return synth.LitTerm(synth.IntValue(i)) }
	not = synth.NotTerm
	bin = synth.BinTerm
)

func TestSource(t *testing.T) {
	tests := []struct {
		term *synth.Term
		want string
	}{
		{bin(synth.OpLt, in(0), in(1)), "a < b"},
		{not(bin(synth.OpLt, in(0), in(1))), "!(a < b)"},
		{bin(synth.OpSub, in(0), bin(synth.OpSub, in(1), in(2))), "a - (b - c)"},
		{bin(synth.OpSub, bin(synth.OpSub, in(0), in(1)), in(2)), "a - b - c"},
		{bin(synth.OpAdd, in(0), bin(synth.OpAdd, in(1), in(2))), "a + (b + c)"},
		{bin(synth.OpEq, in(3), in(4)), "(p == nil) == q"},
		{bin(synth.OpNe, in(4), in(3)), "q != (p == nil)"},
		{bin(synth.OpEq, bin(synth.OpLt, in(0), in(1)), in(4)), "(a < b) == q"},
		{bin(synth.OpAnd, in(3), in(4)), "p == nil && q"},
		{bin(synth.OpAnd, in(4), bin(synth.OpOr, in(3), in(9))), "q && (p == nil || a < b)"},
		{bin(synth.OpOr, bin(synth.OpAnd, in(4), in(3)), in(9)), "q && p == nil || a < b"},
		{bin(synth.OpAnd, in(4), bin(synth.OpAnd, in(3), in(9))), "q && (p == nil && a < b)"},
		{not(in(3)), "p != nil"},
		{not(in(4)), "!q"},
		{not(in(9)), "!(a < b)"},
		{not(not(in(4))), "!!q"},
		{not(bin(synth.OpAnd, not(in(3)), in(4))), "!(p != nil && q)"},
		{bin(synth.OpAnd, not(in(3)), bin(synth.OpGt, in(5), cst(0))), "p != nil && p.n > 0"},
		{bin(synth.OpMul, in(0), lit(2)), "2 * a"},
		{bin(synth.OpMul, bin(synth.OpAdd, in(0), in(1)), lit(2)), "2 * (a + b)"},
		{bin(synth.OpLt, bin(synth.OpMul, in(7), cst(3)), in(7)), "1.5 * x < x"},
		{bin(synth.OpLt, in(0), lit(-1)), "a < -1"},
		{bin(synth.OpSub, in(0), lit(-1)), "a - -1"},
		{bin(synth.OpMul, in(10), lit(3)), "3 * (i + j)"},
		{bin(synth.OpSub, in(0), in(10)), "a - (i + j)"},
		{bin(synth.OpAdd, in(10), in(0)), "i + j + a"},
		{bin(synth.OpEq, in(6), cst(1)), `s == ""`},
		{bin(synth.OpGe, in(8), cst(2)), "len(s) >= maxDepth"},
		{bin(synth.OpLe, synth.LitTerm(synth.FloatValue(0.25)), in(7)), "0.25 <= x"},
		// Integers compared with a byte or rune print as characters, as a
		// maintainer writes them; not when unprintable, nor in arithmetic.
		{bin(synth.OpAnd, bin(synth.OpNe, in(11), lit(95)), bin(synth.OpGt, in(11), lit(64))), "r != '_' && r > '@'"},
		{bin(synth.OpLe, lit(97), in(11)), "'a' <= r"},
		{bin(synth.OpEq, in(11), lit(10)), "r == 10"},
		{bin(synth.OpEq, in(0), lit(95)), "a == 95"},
		{bin(synth.OpLt, bin(synth.OpAdd, in(11), lit(95)), in(0)), "r + 95 < a"},
	}
	for _, tt := range tests {
		got := tt.term.Source(termSpec)
		if got != tt.want {
			t.Errorf("Source = %q, want %q", got, tt.want)
		}
		if _, err := tt.term.AST(termSpec); err != nil {
			t.Errorf("AST(%q): %v", got, err)
		}
	}
}

// TestSourceStructure renders random terms and checks that Go parses the
// source back into the same tree: no parenthesis missing or misplaced.
func TestSourceStructure(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		term := randomTerm(r, synth.Bool, 4)
		src := term.Source(termSpec)
		e, err := parser.ParseExpr(src)
		if err != nil {
			t.Fatalf("%q does not parse: %v", src, err)
		}
		if got, want := treeOf(e), treeOfTerm(term); got != want {
			t.Fatalf("%q parses as %s, want %s", src, got, want)
		}
	}
}

// randomTerm builds a random well-kinded term over termSpec.
func randomTerm(r *rand.Rand, k synth.Kind, depth int) *synth.Term {
	leaf := func() *synth.Term {
		var idx []int
		for i, in := range termSpec.Inputs {
			if in.Kind == k {
				idx = append(idx, i)
			}
		}
		if k == synth.Int && r.IntN(3) == 0 {
			return lit(int64(r.IntN(7) - 3))
		}
		return in(idx[r.IntN(len(idx))])
	}
	if depth == 0 || r.IntN(4) == 0 {
		return leaf()
	}
	switch k {
	case synth.Bool:
		switch r.IntN(5) {
		case 0:
			return not(randomTerm(r, synth.Bool, depth-1))
		case 1:
			return bin(synth.OpAnd, randomTerm(r, synth.Bool, depth-1), randomTerm(r, synth.Bool, depth-1))
		case 2:
			return bin(synth.OpOr, randomTerm(r, synth.Bool, depth-1), randomTerm(r, synth.Bool, depth-1))
		case 3:
			return bin(synth.OpEq+synth.Op(r.IntN(2)), randomTerm(r, synth.Bool, depth-1), randomTerm(r, synth.Bool, depth-1))
		}
		ops := []synth.Op{synth.OpLt, synth.OpLe, synth.OpEq, synth.OpNe, synth.OpGt, synth.OpGe}
		return bin(ops[r.IntN(len(ops))], randomTerm(r, synth.Int, depth-1), randomTerm(r, synth.Int, depth-1))
	case synth.Int:
		switch r.IntN(3) {
		case 0:
			return bin(synth.OpAdd, randomTerm(r, synth.Int, depth-1), randomTerm(r, synth.Int, depth-1))
		case 1:
			return bin(synth.OpSub, randomTerm(r, synth.Int, depth-1), randomTerm(r, synth.Int, depth-1))
		}
		return bin(synth.OpMul, randomTerm(r, synth.Int, depth-1), lit(int64(r.IntN(4)+2)))
	}
	return leaf()
}

// treeOf prints e fully parenthesised, without the parentheses of the source.
func treeOf(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.ParenExpr:
		return treeOf(e.X)
	case *ast.BinaryExpr:
		return "(" + treeOf(e.X) + " " + e.Op.String() + " " + treeOf(e.Y) + ")"
	case *ast.UnaryExpr:
		if e.Op.String() == "-" {
			if l, ok := e.X.(*ast.BasicLit); ok {
				return "-" + l.Value
			}
		}
		return "(" + e.Op.String() + treeOf(e.X) + ")"
	case *ast.Ident:
		return e.Name
	case *ast.BasicLit:
		return e.Value
	case *ast.SelectorExpr:
		return treeOf(e.X) + "." + e.Sel.Name
	case *ast.CallExpr:
		return treeOf(e.Fun) + "(" + treeOf(e.Args[0]) + ")"
	}
	return fmt.Sprintf("%T", e)
}

// treeOfTerm prints t as treeOf prints its source, the constant factor of a
// multiplication first.
func treeOfTerm(t *synth.Term) string {
	switch t.Op {
	case synth.OpInput:
		src := termSpec.Inputs[t.Index].Expr
		e, _ := parser.ParseExpr(src)
		return treeOf(e)
	case synth.OpLit:
		return t.Lit.GoString()
	case synth.OpNot:
		if a := t.Args[0]; a.Op == synth.OpInput && termSpec.Inputs[a.Index].Expr == "p == nil" {
			return "(p != nil)"
		}
		return "(!" + treeOfTerm(t.Args[0]) + ")"
	}
	x, y := treeOfTerm(t.Args[0]), treeOfTerm(t.Args[1])
	if t.Op == synth.OpMul && t.Args[0].Op != synth.OpLit {
		x, y = y, x
	}
	tok := strings.Fields(bin(t.Op, lit(0), lit(0)).Source(termSpec))[1]
	return "(" + x + " " + tok + " " + y + ")"
}

func TestEvalShortCircuit(t *testing.T) {
	nilP := synth.Example{Values: []synth.Value{
		synth.IntValue(1), synth.IntValue(2), synth.IntValue(3),
		synth.BoolValue(true), synth.BoolValue(false), synth.MissingValue(synth.Int),
		synth.StringValue("s"), synth.FloatValue(0.5), synth.IntValue(1),
		synth.BoolValue(true), synth.IntValue(4),
	}}
	pn := bin(synth.OpGt, in(5), cst(0))
	tests := []struct {
		term    *synth.Term
		want    bool
		missing bool
	}{
		{bin(synth.OpAnd, not(in(3)), pn), false, false},
		{bin(synth.OpOr, in(3), pn), true, false},
		{pn, false, true},
		{bin(synth.OpAnd, pn, not(in(3))), false, true},
		{bin(synth.OpOr, not(in(3)), pn), false, true},
		{bin(synth.OpAnd, in(3), pn), false, true},
		{not(pn), false, true},
		{bin(synth.OpLt, bin(synth.OpAdd, in(5), in(0)), in(1)), false, true},
		{bin(synth.OpOr, bin(synth.OpLt, in(0), in(1)), pn), true, false},
		{bin(synth.OpLt, bin(synth.OpMul, in(0), lit(3)), in(2)), false, false},
		{bin(synth.OpEq, in(3), in(9)), true, false},
	}
	for _, tt := range tests {
		src := tt.term.Source(termSpec)
		v, err := tt.term.Eval(termSpec, &nilP)
		if tt.missing {
			if err == nil {
				t.Errorf("%s: got %v, want an error for the missing p.n", src, v)
			}
			continue
		}
		if err != nil || v.Kind != synth.Bool || v.Bool != tt.want {
			t.Errorf("%s = %v, %v; want %v", src, v, err, tt.want)
		}
	}
	if v, err := bin(synth.OpLt, in(6), cst(1)).Eval(termSpec, &nilP); err == nil {
		t.Errorf(`s < "": got %v, want an error (strings compare for equality only)`, v)
	}
	// A term read over another spec's inputs: an error, not a panic.
	short := synth.Example{Values: nilP.Values[:3]}
	if v, err := bin(synth.OpOr, in(0), in(4)).Eval(termSpec, &short); err == nil {
		t.Errorf("input 4 of an example with 3 values: got %v, want an error", v)
	}
}

func TestKindJSON(t *testing.T) {
	for _, k := range []synth.Kind{synth.Bool, synth.Int, synth.Float, synth.String} {
		data, err := json.Marshal(k)
		if err != nil || string(data) != `"`+k.String()+`"` {
			t.Errorf("Marshal(%v) = %s, %v", k, data, err)
		}
		var back synth.Kind
		if err := json.Unmarshal(data, &back); err != nil || back != k {
			t.Errorf("Unmarshal(%s) = %v, %v", data, back, err)
		}
		var num synth.Kind
		if err := json.Unmarshal([]byte(fmt.Sprint(uint8(k))), &num); err != nil || num != k {
			t.Errorf("Unmarshal(%d) = %v, %v", k, num, err)
		}
	}
	var k synth.Kind
	if err := json.Unmarshal([]byte(`"complex"`), &k); err == nil {
		t.Error(`Unmarshal("complex"): no error`)
	}
	var in synth.Input
	if err := json.Unmarshal([]byte(`{"expr":"n","kind":"int"}`), &in); err != nil || in.Kind != synth.Int {
		t.Errorf("Unmarshal input = %+v, %v", in, err)
	}
	if data, _ := json.Marshal(synth.Value{Kind: synth.Float, Float: 0.5}); string(data) != `{"kind":"float","float":0.5}` {
		t.Errorf("Marshal value = %s", data)
	}
}

func TestEvalUntypedConstants(t *testing.T) {
	ex := synth.Example{Values: make([]synth.Value, len(termSpec.Inputs))}
	for i, in := range termSpec.Inputs {
		ex.Values[i] = synth.Value{Kind: in.Kind}
	}
	ex.Values[7] = synth.FloatValue(0.5) // x
	tests := []struct {
		term *synth.Term
		want bool
		ok   bool
	}{
		{bin(synth.OpGt, in(7), cst(0)), true, true},                            // x > 0
		{bin(synth.OpLt, cst(0), in(7)), true, true},                            // 0 < x
		{bin(synth.OpGt, in(7), lit(1)), false, true},                           // x > 1
		{bin(synth.OpLt, bin(synth.OpMul, in(7), lit(2)), lit(1)), false, true}, // 2 * x < 1
		{bin(synth.OpGt, bin(synth.OpSub, lit(1), in(7)), cst(3)), false, true}, // 1 - x > 1.5
		{bin(synth.OpGt, in(7), cst(2)), false, false},                          // x > maxDepth: maybe typed
		{bin(synth.OpGt, in(7), in(0)), false, false},                           // x > a: an int variable
		{bin(synth.OpEq, bin(synth.OpAdd, in(0), cst(3)), in(0)), false, false}, // a + 1.5 == a
	}
	for _, tt := range tests {
		src := tt.term.Source(termSpec)
		v, err := tt.term.Eval(termSpec, &ex)
		if !tt.ok {
			if err == nil {
				t.Errorf("%s: got %v, want a mixed kinds error", src, v)
			}
			continue
		}
		if err != nil || v.Bool != tt.want {
			t.Errorf("%s = %v, %v; want %v", src, v, err, tt.want)
		}
	}
	if k := bin(synth.OpSub, lit(1), in(7)).Kind(termSpec); k != synth.Float {
		t.Errorf("kind of 1 - x is %v, want float", k)
	}
}
