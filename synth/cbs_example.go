//go:build cgo && !noz3

package synth

import (
	"math"
	"math/big"
	"sort"

	"github.com/nopol-go/nopol/internal/z3"
)

// The semantics of the components on one example, added to a level's
// solver by the CEGIS loop.

// value encodes v; ok is false for values the solver cannot represent
// (missing, NaN, infinities), which are then left free.
func (lv *level) value(v Value) (z3.Expr, bool) {
	if v.Missing {
		return z3.Expr{}, false
	}
	switch v.Kind {
	case Bool:
		return lv.zc.Bool(v.Bool), true
	case Int:
		return lv.zc.Int(v.Int), true
	case Float:
		if !isFinite(v.Float) {
			return z3.Expr{}, false
		}
		return lv.zc.Real(new(big.Rat).SetFloat64(v.Float)), true
	case String:
		return lv.zc.Int(lv.pi.ids[v.Str]), true
	}
	return z3.Expr{}, false
}

// addExample asserts the semantics of the components on example e and that
// the root gives the wanted outcome.
func (lv *level) addExample(e int) {
	if lv.added[e] {
		return
	}
	lv.added[e] = true
	zc := lv.zc
	ex := &lv.pi.p.Examples[e]
	hasMissing := false
	for _, v := range ex.Values {
		hasMissing = hasMissing || v.Missing
	}
	out := make([]z3.Expr, len(lv.comps))
	def := make([]z3.Expr, len(lv.comps))
	tr := zc.Bool(true)
	// read returns the value and definedness of port p of c.
	read := func(c *component, p *port, name string, k Kind) (z3.Expr, z3.Expr) {
		v := zc.Const(lv.name("v", c.loc, name, "_", e), lv.sort(k))
		d := tr
		if hasMissing {
			d = zc.Const(lv.name("d", c.loc, name, "_", e), zc.BoolSort())
		}
		for _, loc := range p.dom {
			var val, dv z3.Expr
			ok := true
			dv = tr
			switch {
			case loc < lv.ni:
				val, ok = lv.value(ex.Values[loc])
				if ex.Values[loc].Missing {
					dv = zc.Bool(false)
				}
			case loc < lv.ni+len(lv.comps):
				val, dv = out[loc-lv.ni], def[loc-lv.ni]
			case loc < lv.lit:
				val, ok = lv.value(lv.pi.constVals[loc-lv.ni-len(lv.comps)])
			default:
				val = c.lit
			}
			is := lv.is(p.loc, loc)
			if ok {
				lv.s.Assert(is.Implies(v.Eq(val)))
			}
			if hasMissing {
				lv.s.Assert(is.Implies(d.Eq(dv)))
			}
		}
		return v, d
	}
	for i, c := range lv.comps {
		t := operand[c.kind]
		if c.kind.isCmp() || c.kind.isArith() {
			out[i], def[i] = lv.pairwise(c, e, out, def, hasMissing)
			continue
		}
		a, da := read(c, c.a, "a", t)
		if c.kind == ckNot {
			out[i], def[i] = a.Not(), da
			continue
		}
		b, db := read(c, c.b, "b", t)
		def[i] = tr
		if hasMissing {
			def[i] = zc.And(da, db)
		}
		out[i] = zc.Ite(lv.is(c.op, 0), zc.And(a, b), zc.Or(a, b))
		if hasMissing {
			def[i] = zc.And(da, zc.Ite(lv.is(c.op, 0), a.Implies(db), zc.Or(a, db)))
		}
	}
	root := out[len(out)-1]
	if !ex.Want {
		root = root.Not()
	}
	lv.s.Assert(root)
	if hasMissing {
		lv.s.Assert(def[len(def)-1])
	}
	lv.out[e], lv.def[e] = out, def
}

// pairwise encodes comparison or arithmetic component c on example e pair
// by pair: for each choice (x, y) of its operands' locations, "a = x and
// b = y" implies that the output is the comparison (or sum, ...) of their
// values. When both are inputs or constants the operation is folded in Go,
// so the solver does arithmetic only for literals and sums.
func (lv *level) pairwise(c *component, e int, out, def []z3.Expr, hasMissing bool) (o, d z3.Expr) {
	zc := lv.zc
	ex := &lv.pi.p.Examples[e]
	o = zc.Const(lv.name("o", c.loc, "_", e), lv.sort(c.kind.output()))
	if hasMissing {
		d = zc.Const(lv.name("d", c.loc, "_", e), zc.BoolSort())
	}
	ncomp := len(lv.comps)
	// operand returns the concrete value at loc (ok) or its solver term.
	operand := func(loc int) (v Value, concrete bool, x z3.Expr, defined z3.Expr) {
		defined = zc.Bool(true)
		switch {
		case loc < lv.ni:
			v = ex.Values[loc]
			if v.Missing {
				defined = zc.Bool(false)
			}
			return v, true, z3.Expr{}, defined
		case loc < lv.ni+ncomp:
			return Value{}, false, out[loc-lv.ni], def[loc-lv.ni]
		case loc < lv.lit:
			return lv.pi.constVals[loc-lv.ni-ncomp], true, z3.Expr{}, defined
		}
		return Value{}, false, c.lit, defined
	}
	if hasMissing {
		// d = (a defined) and (b defined), each read through its port.
		var dd [2]z3.Expr
		for i, p := range []*port{c.a, c.b} {
			dd[i] = zc.Const(lv.name("d", c.loc, "ab"[i:i+1], "_", e), zc.BoolSort())
			for _, x := range p.dom {
				_, _, _, dx := operand(x)
				lv.s.Assert(lv.is(p.loc, x).Implies(dd[i].Eq(dx)))
			}
		}
		lv.s.Assert(d.Eq(zc.And(dd[0], dd[1])))
	}
	if c.kind.isCmp() {
		lv.ordered(c, e, o, operand)
	}
	nops := len(ops[c.kind])
	for _, x := range c.a.dom {
		va, ca, xa, _ := operand(x)
		for _, y := range c.b.dom {
			if y == x || c.kind.isCmp() && x < lv.ni && y < lv.ni && x > y {
				continue // excluded by the well-formedness constraints
			}
			vb, cb, xb, _ := operand(y)
			if c.kind.isCmp() && ca && cb {
				continue // encoded by ordered
			}
			pair := zc.And(lv.is(c.a.loc, x), lv.is(c.b.loc, y))
			if c.kind.isArith() {
				lv.arith(c, pair, o, va, ca, xa, vb, cb, xb)
				continue
			}
			var r z3.Expr
			switch {
			case ca && cb:
				if va.Missing || vb.Missing {
					continue // left free
				}
				var holds []z3.Expr
				for k := range nops {
					if opHolds(ops[c.kind][k], va, vb) {
						holds = append(holds, lv.is(c.op, k))
					}
				}
				r = zc.Or(holds...)
			default:
				if ca {
					var ok bool
					if xa, ok = lv.value(va); !ok {
						continue
					}
				}
				if cb {
					var ok bool
					if xb, ok = lv.value(vb); !ok {
						continue
					}
				}
				for k := nops - 1; k >= 0; k-- {
					cmp := relation(ops[c.kind][k], xa, xb)
					if k == nops-1 {
						r = cmp
					} else {
						r = zc.Ite(lv.is(c.op, k), cmp, r)
					}
				}
			}
			lv.s.Assert(pair.Implies(o.Eq(r)))
		}
	}
	return o, d
}

// relation is the solver term for a op b.
func relation(op Op, a, b z3.Expr) z3.Expr {
	switch op {
	case OpLt:
		return a.Lt(b)
	case OpLe:
		return a.Le(b)
	case OpEq:
		return a.Eq(b)
	case OpNe:
		return a.Ne(b)
	case OpGt:
		return a.Gt(b)
	}
	return a.Ge(b)
}

// opHolds evaluates the comparison a op b with Go semantics.
func opHolds(op Op, a, b Value) bool {
	if a.Kind == Float && (math.IsNaN(a.Float) || math.IsNaN(b.Float)) {
		return op == OpNe
	}
	c, err := compare(a, b)
	if err != nil {
		return false
	}
	switch op {
	case OpLt:
		return c < 0
	case OpLe:
		return c <= 0
	case OpEq:
		return c == 0
	case OpNe:
		return c != 0
	case OpGt:
		return c > 0
	}
	return c >= 0
}

// arith asserts the value o of arithmetic component c when its operands
// are a and b (concrete values va, vb when ca, cb).
func (lv *level) arith(c *component, pair, o z3.Expr, va Value, ca bool, xa z3.Expr, vb Value, cb bool, xb z3.Expr) {
	zc := lv.zc
	if ca && cb {
		if va.Missing || vb.Missing {
			return
		}
		for k, op := range ops[c.kind][:lv.nops(c)] {
			v, err := BinTerm(op, LitTerm(va), LitTerm(vb)).Eval(lv.pi.p.Spec, nil)
			if err != nil {
				continue
			}
			x, ok := lv.value(v)
			if !ok {
				continue
			}
			lv.s.Assert(zc.And(pair, lv.is(c.op, k)).Implies(o.Eq(x)))
		}
		return
	}
	var ok bool
	if ca {
		if xa, ok = lv.value(va); !ok {
			return
		}
	}
	if cb {
		if xb, ok = lv.value(vb); !ok {
			return
		}
	}
	for k, op := range ops[c.kind][:lv.nops(c)] {
		var v z3.Expr
		switch op {
		case OpAdd:
			v = xa.Add(xb)
		case OpSub:
			v = xa.Sub(xb)
		case OpMul:
			if !cb {
				continue // only by a constant: excluded by well-formedness
			}
			v = xa.Mul(xb)
		}
		lv.s.Assert(zc.And(pair, lv.is(c.op, k)).Implies(o.Eq(v)))
	}
}

// nops is the number of operators component c may take.
func (lv *level) nops(c *component) int {
	n := len(ops[c.kind])
	if c.kind.isArith() && len(lv.pi.mulConsts[operand[c.kind]]) == 0 {
		n-- // no multiplication without a constant to multiply by
	}
	return n
}

// ordered encodes comparison c on example e for the operand choices where
// both are inputs or constants, in size linear in the domains (an order
// encoding): the distinct values b may take are sorted, le[k] says that b
// picks a value at most the k-th, and for each choice of a the sign of
// a - b follows from two of the le[k].
func (lv *level) ordered(c *component, e int, o z3.Expr, operand func(int) (Value, bool, z3.Expr, z3.Expr)) {
	zc := lv.zc
	usable := func(v Value, concrete bool) bool {
		return concrete && !v.Missing && !(v.Kind == Float && math.IsNaN(v.Float))
	}
	type choice struct {
		loc int
		v   Value
	}
	var bs []choice
	for _, y := range c.b.dom {
		if v, conc, _, _ := operand(y); usable(v, conc) {
			bs = append(bs, choice{y, v})
		}
	}
	if len(bs) == 0 {
		return
	}
	order := func(a, b Value) int {
		if a.Kind == Bool {
			return cmp3(!a.Bool && b.Bool, a.Bool && !b.Bool)
		}
		if a.Kind == String {
			return cmp3(lv.pi.ids[a.Str] < lv.pi.ids[b.Str], lv.pi.ids[a.Str] > lv.pi.ids[b.Str])
		}
		r, _ := compare(a, b)
		return r
	}
	sort.SliceStable(bs, func(i, j int) bool { return order(bs[i].v, bs[j].v) < 0 })
	// le[k]: b picks one of the values u_0..u_k.
	var le []z3.Expr
	var vals []Value
	prev := zc.Bool(false)
	for i := 0; i < len(bs); {
		j := i
		picks := []z3.Expr{prev}
		for ; j < len(bs) && order(bs[j].v, bs[i].v) == 0; j++ {
			picks = append(picks, lv.is(c.b.loc, bs[j].loc))
		}
		k := zc.Const(lv.name("le", c.loc, "_", e, "_", len(le)), zc.BoolSort())
		lv.s.Assert(k.Eq(zc.Or(picks...)))
		le = append(le, k)
		vals = append(vals, bs[i].v)
		prev = k
		i = j
	}
	any := le[len(le)-1]
	// holds[s] is the operator choice that makes a op b true when a - b
	// has sign s-1.
	var holds [3]z3.Expr
	for s, pair := range [3][2]int64{{0, 1}, {0, 0}, {1, 0}} {
		var sel []z3.Expr
		for k, op := range ops[c.kind] {
			if opHolds(op, IntValue(pair[0]), IntValue(pair[1])) {
				sel = append(sel, lv.is(c.op, k))
			}
		}
		holds[s] = zc.Or(sel...)
	}
	fls := zc.Bool(false)
	for _, x := range c.a.dom {
		w, conc, _, _ := operand(x)
		if !usable(w, conc) {
			continue
		}
		less := sort.Search(len(vals), func(i int) bool { return order(vals[i], w) >= 0 })
		lessEq := sort.Search(len(vals), func(i int) bool { return order(vals[i], w) > 0 })
		bLt, bLe := fls, fls // b < w, b <= w
		if less > 0 {
			bLt = le[less-1]
		}
		if lessEq > 0 {
			bLe = le[lessEq-1]
		}
		f := zc.Or(
			zc.And(bLt, holds[2]),
			zc.And(bLe, bLt.Not(), holds[1]),
			zc.And(bLe.Not(), holds[0]),
		)
		lv.s.Assert(zc.And(lv.is(c.a.loc, x), any).Implies(o.Eq(f)))
	}
}
