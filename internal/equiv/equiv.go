//go:build cgo && !noz3

package equiv

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"math/big"
	"time"

	"github.com/nopol-go/nopol/internal/z3"
)

// timeout bounds one equivalence query: the conditions are small, and a
// query Z3 cannot settle in it is "not proven".
const timeout = 5 * time.Second

// Equivalent reports whether the conditions a and b, Go expressions of
// type bool evaluated at pos in pkg, are equal for every value of their
// operands. An error says a condition does not parse or type-check
// there, or Z3 gave no answer; the conditions are then not proven equal.
func Equivalent(ctx context.Context, fset *token.FileSet, pkg *types.Package, pos token.Pos, a, b string) (bool, error) {
	zc := z3.NewContext()
	defer zc.Close()
	t := &translator{zc: zc, atoms: map[string]z3.Expr{}, values: map[string]z3.Expr{}}
	var fs [2]z3.Expr
	for i, src := range []string{a, b} {
		e, err := parser.ParseExpr(src)
		if err != nil {
			return false, fmt.Errorf("condition %q: %v", src, err)
		}
		info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
		if err := types.CheckExpr(fset, pkg, pos, e, info); err != nil {
			return false, fmt.Errorf("condition %q: %v", src, err)
		}
		t.info = info
		if fs[i], err = t.boolean(e); err != nil {
			return false, fmt.Errorf("condition %q: %v", src, err)
		}
	}
	s := zc.NewSolver()
	defer s.Close()
	s.SetTimeout(timeout)
	s.Assert(t.facts...)
	if len(t.constants) > 1 {
		s.Assert(zc.Distinct(t.constants...))
	}
	s.Assert(fs[0].Iff(fs[1]).Not())
	res, err := s.Check(ctx)
	if err != nil {
		return false, err
	}
	return res == z3.Unsat, nil
}

// translator turns expressions into Z3 terms. Operands it does not
// interpret are constants named by their text, shared by both conditions.
type translator struct {
	zc   *z3.Context
	info *types.Info
	// atoms are the uninterpreted operands by sort and text; values the
	// constants of non-numeric comparable types (string literals, nil).
	atoms, values map[string]z3.Expr
	constants     []z3.Expr
	// facts hold for every value: an unsigned operand, a len or a cap
	// is not negative.
	facts []z3.Expr
}

var errUnsupported = errors.New("unsupported expression")

func (t *translator) atom(kind string, e ast.Expr, s z3.Sort) z3.Expr {
	key := kind + ":" + types.ExprString(e)
	x, ok := t.atoms[key]
	if !ok {
		x = t.zc.Const(key, s)
		t.atoms[key] = x
	}
	return x
}

// boolean translates a condition.
func (t *translator) boolean(e ast.Expr) (z3.Expr, error) {
	if tv, ok := t.info.Types[e]; ok && tv.Value != nil && tv.Value.Kind() == constant.Bool {
		return t.zc.Bool(constant.BoolVal(tv.Value)), nil
	}
	switch x := e.(type) {
	case *ast.ParenExpr:
		return t.boolean(x.X)
	case *ast.UnaryExpr:
		if x.Op == token.NOT {
			y, err := t.boolean(x.X)
			if err != nil {
				return y, err
			}
			return y.Not(), nil
		}
	case *ast.BinaryExpr:
		switch x.Op {
		case token.LAND, token.LOR:
			l, r, err := t.booleans(x)
			if err != nil {
				return l, err
			}
			if x.Op == token.LAND {
				return t.zc.And(l, r), nil
			}
			return t.zc.Or(l, r), nil
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
			return t.compare(x)
		}
	}
	return t.atom("bool", e, t.zc.BoolSort()), nil
}

// booleans translates the operands of x as conditions.
func (t *translator) booleans(x *ast.BinaryExpr) (l, r z3.Expr, err error) {
	if l, err = t.boolean(x.X); err != nil {
		return l, l, err
	}
	r, err = t.boolean(x.Y)
	return l, r, err
}

// compare translates a comparison by the type of its operands.
func (t *translator) compare(x *ast.BinaryExpr) (z3.Expr, error) {
	typ := t.info.TypeOf(x.X)
	if typ == nil || isUntypedNil(typ) {
		typ = t.info.TypeOf(x.Y)
	}
	if typ == nil {
		return z3.Expr{}, errUnsupported
	}
	eq := x.Op == token.EQL || x.Op == token.NEQ
	b, _ := typ.Underlying().(*types.Basic)
	switch {
	case b != nil && b.Info()&types.IsBoolean != 0 && eq:
		l, r, err := t.booleans(x)
		if err != nil {
			return l, err
		}
		if x.Op == token.EQL {
			return l.Iff(r), nil
		}
		return l.Iff(r).Not(), nil
	case b != nil && b.Info()&(types.IsInteger|types.IsFloat) != 0:
		s := t.zc.IntSort()
		if b.Info()&types.IsFloat != 0 {
			s = t.zc.RealSort()
		}
		l, nanL, err := t.number(x.X, s)
		if err != nil {
			return l, err
		}
		r, nanR, err := t.number(x.Y, s)
		if err != nil {
			return r, err
		}
		rel := relation(x.Op, l, r)
		if nan := append(nanL, nanR...); len(nan) > 0 {
			// A NaN operand makes every comparison false but !=.
			return t.zc.Ite(t.zc.Or(nan...), t.zc.Bool(x.Op == token.NEQ), rel), nil
		}
		return rel, nil
	case eq:
		l, r := t.value(x.X), t.value(x.Y)
		if x.Op == token.EQL {
			return l.Eq(r), nil
		}
		return l.Ne(r), nil
	}
	return t.atom("bool", x, t.zc.BoolSort()), nil
}

func isUntypedNil(typ types.Type) bool {
	b, ok := typ.(*types.Basic)
	return ok && b.Kind() == types.UntypedNil
}

func relation(op token.Token, l, r z3.Expr) z3.Expr {
	switch op {
	case token.EQL:
		return l.Eq(r)
	case token.NEQ:
		return l.Ne(r)
	case token.LSS:
		return l.Lt(r)
	case token.LEQ:
		return l.Le(r)
	case token.GTR:
		return l.Gt(r)
	}
	return l.Ge(r)
}

// value translates an operand of a comparable, non-numeric,
// non-boolean type: a constant (string literal, nil) is a distinct value,
// anything else an uninterpreted one.
func (t *translator) value(e ast.Expr) z3.Expr {
	e = ast.Unparen(e)
	key := ""
	if tv, ok := t.info.Types[e]; ok && tv.Value != nil {
		key = tv.Value.ExactString()
	} else if ok && tv.IsNil() {
		key = "nil"
	}
	if key == "" {
		return t.atom("value", e, t.zc.IntSort())
	}
	x, ok := t.values[key]
	if !ok {
		x = t.zc.Const("const:"+key, t.zc.IntSort())
		t.values[key] = x
		t.constants = append(t.constants, x)
	}
	return x
}

// number translates a numeric operand in sort s; nan lists the NaN flags
// of the float operands it reads.
func (t *translator) number(e ast.Expr, s z3.Sort) (x z3.Expr, nan []z3.Expr, err error) {
	real := s == t.zc.RealSort()
	if tv, ok := t.info.Types[e]; ok && tv.Value != nil {
		v := constant.ToFloat(tv.Value)
		if !real {
			v = constant.ToInt(tv.Value)
		}
		switch {
		case v.Kind() == constant.Int:
			if i, exact := constant.Int64Val(v); exact {
				return t.zc.Int(i), nil, nil
			}
		case v.Kind() == constant.Float:
			if r, ok := constant.Val(v).(*big.Rat); ok {
				return t.zc.Real(r), nil, nil
			}
			if f, ok := constant.Val(v).(*big.Float); ok {
				if r, acc := f.Rat(nil); r != nil && acc == big.Exact {
					return t.zc.Real(r), nil, nil
				}
			}
		}
		return z3.Expr{}, nil, errUnsupported
	}
	switch x := e.(type) {
	case *ast.ParenExpr:
		return t.number(x.X, s)
	case *ast.UnaryExpr:
		switch x.Op {
		case token.ADD:
			return t.number(x.X, s)
		case token.SUB:
			y, nan, err := t.number(x.X, s)
			if err != nil {
				return y, nil, err
			}
			zero := t.zc.Int(0)
			if real {
				zero = t.zc.Real(new(big.Rat))
			}
			return zero.Sub(y), nan, nil
		}
	case *ast.BinaryExpr:
		switch x.Op {
		case token.ADD, token.SUB, token.MUL:
			l, nanL, err := t.number(x.X, s)
			if err != nil {
				return l, nil, err
			}
			r, nanR, err := t.number(x.Y, s)
			if err != nil {
				return r, nil, err
			}
			nan = append(nanL, nanR...)
			switch x.Op {
			case token.ADD:
				return l.Add(r), nan, nil
			case token.SUB:
				return l.Sub(r), nan, nil
			}
			return l.Mul(r), nan, nil
		}
	}
	a := t.atom(sortName(real), e, s)
	if real {
		return a, []z3.Expr{t.atom("nan", e, t.zc.BoolSort())}, nil
	}
	if b, ok := t.info.TypeOf(e).Underlying().(*types.Basic); ok && b.Info()&types.IsUnsigned != 0 || isLenOrCap(t.info, e) {
		t.facts = append(t.facts, a.Ge(t.zc.Int(0)))
	}
	return a, nil, nil
}

func sortName(real bool) string {
	if real {
		return "real"
	}
	return "int"
}

// isLenOrCap reports whether e calls the builtin len or cap.
func isLenOrCap(info *types.Info, e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return false
	}
	tv, ok := info.Types[id]
	return ok && tv.IsBuiltin() && (id.Name == "len" || id.Name == "cap")
}
