//go:build cgo && !noz3

package synth

import (
	"fmt"
	"slices"

	"github.com/nopol-go/nopol/internal/z3"
)

// The solver state of one level: location variables, well-formedness,
// and the decoding of models into terms.

// port is an operand of a component: its location variable and the
// locations it may take.
type port struct {
	loc z3.Expr
	dom []int
}

// component is one instance of a component kind at a fixed location.
type component struct {
	kind compKind
	loc  int
	op   z3.Expr // index into ops[kind]
	a, b *port   // b is nil for !
	lit  z3.Expr // the component's own literal, for numeric kinds
}

// level is the solver state of one multiset: the well-formedness
// constraints and the semantics of the examples added so far.
type level struct {
	pi    *problemInfo
	zc    *z3.Context
	s     *z3.Solver
	ms    multiset
	comps []*component
	// ni and nc are the numbers of the spec's inputs and constants; lit is
	// the literal location.
	ni, nc, lit int
	// added marks the examples whose semantics are asserted.
	added map[int]bool
	// out[e][k] is the value of component k on example e, def[e][k] whether
	// it can be evaluated without reading a missing value.
	out, def map[int][]z3.Expr
	zero     z3.Expr
}

// newLevel builds the well-formedness constraints of ms. It returns nil
// when ms cannot form a tree over pi (a component has no possible user).
func newLevel(pi *problemInfo, zc *z3.Context, ms multiset) *level {
	lv := &level{
		pi: pi, zc: zc, ms: ms,
		ni:    len(pi.p.Spec.Inputs),
		nc:    len(pi.constVals),
		added: map[int]bool{},
		out:   map[int][]z3.Expr{},
		def:   map[int][]z3.Expr{},
		zero:  zc.Int(0),
	}
	n := 0
	for _, c := range ms {
		n += c
	}
	lv.lit = lv.ni + n + lv.nc
	for k := range numCompKinds {
		for range ms[k] {
			lv.comps = append(lv.comps, &component{kind: k, loc: lv.ni + len(lv.comps)})
		}
	}
	lv.s = zc.NewSolver()
	if !lv.wellFormed() {
		lv.s.Close()
		return nil
	}
	return lv
}

func (lv *level) close() { lv.s.Close() }

func (lv *level) sort(k Kind) z3.Sort {
	switch k {
	case Bool:
		return lv.zc.BoolSort()
	case Float:
		return lv.zc.RealSort()
	}
	return lv.zc.IntSort()
}

func (lv *level) name(parts ...any) string {
	return fmt.Sprint(parts...)
}

// sources lists the locations holding values of kind k that a port of a
// component at location before may read: inputs and earlier components
// (offsets only when withOffsets).
func (lv *level) sources(k Kind, before int, withOffsets bool) []int {
	dom := slices.Clone(lv.pi.inputs[k])
	for _, c := range lv.comps {
		if c.loc < before && c.kind.output() == k && (withOffsets || !c.kind.isArith() || c.kind.isSum()) {
			dom = append(dom, c.loc)
		}
	}
	return dom
}

func (lv *level) newPort(c *component, name string, dom []int) *port {
	p := &port{loc: lv.zc.Const(lv.name("l", c.loc, name), lv.zc.IntSort()), dom: dom}
	var alts []z3.Expr
	for _, d := range dom {
		alts = append(alts, p.loc.Eq(lv.zc.Int(int64(d))))
	}
	lv.s.Assert(lv.zc.Or(alts...))
	return p
}

func (lv *level) is(x z3.Expr, v int) z3.Expr { return x.Eq(lv.zc.Int(int64(v))) }

// wellFormed asserts the constraints that make every model a tree-shaped
// term: domains (types and acyclicity), operator ranges, canonical operand
// order, each non-root component used exactly once, and symmetry breaking
// between interchangeable components.
func (lv *level) wellFormed() bool {
	zc := lv.zc
	for _, c := range lv.comps {
		t := operand[c.kind]
		c.op = zc.Const(lv.name("op", c.loc), zc.IntSort())
		nops := lv.nops(c)
		lv.s.Assert(c.op.Ge(lv.zero), c.op.Lt(zc.Int(int64(nops))))
		switch {
		case c.kind == ckNot:
			c.a = lv.newPort(c, "a", lv.pi.inputs[Bool])
		case c.kind == ckBin:
			dom := lv.sources(Bool, c.loc, true)
			c.a = lv.newPort(c, "a", dom)
			c.b = lv.newPort(c, "b", dom)
			if lv.pi.missing {
				lv.s.Assert(c.a.loc.Ne(c.b.loc))
			} else {
				lv.s.Assert(c.a.loc.Lt(c.b.loc))
			}
		case c.kind == ckCmpBool:
			c.a = lv.newPort(c, "a", lv.pi.inputs[Bool])
			c.b = lv.newPort(c, "b", lv.pi.inputs[Bool])
			lv.s.Assert(c.a.loc.Lt(c.b.loc))
		default: // comparisons and arithmetic
			// Only the left operand may be an arithmetic component: sums
			// are left-deep ((x + y) - z) and comparisons read "x + 1 < n".
			c.a = lv.newPort(c, "a", lv.sources(t, c.loc, !c.kind.isArith()))
			var dom []int
			if !c.kind.isArith() || c.kind.isSum() {
				dom = slices.Clone(lv.pi.inputs[t])
			}
			switch {
			case c.kind.isSum():
			case c.kind.isArith():
				for _, j := range lv.pi.offConsts[t] {
					dom = append(dom, lv.ni+len(lv.comps)+j)
				}
			case t == String:
				dom = append(dom, lv.constLocs(t)...)
			default:
				// A number is compared with a free literal, not with each
				// of the code's constants: snapLiterals puts a constant
				// back where one fits.
				dom = append(dom, lv.lit)
				c.lit = zc.Const(lv.name("lit", c.loc), lv.sort(t))
			}
			c.b = lv.newPort(c, "b", dom)
			if c.kind.isArith() {
				add, sub := lv.is(c.op, 0), lv.is(c.op, 1)
				// x + y, not y + x; x - 1, not x + -1 nor x - -1.
				lv.s.Assert(
					zc.And(add, lv.isInput(c.a.loc), lv.isInput(c.b.loc)).Implies(c.a.loc.Lt(c.b.loc)),
					sub.Implies(c.a.loc.Ne(c.b.loc)),
				)
				if nops == 3 {
					var mul []z3.Expr
					for _, j := range lv.pi.mulConsts[t] {
						mul = append(mul, lv.is(c.b.loc, lv.ni+len(lv.comps)+j))
					}
					lv.s.Assert(lv.is(c.op, 2).Implies(zc.Or(mul...)))
				}
			} else {
				lv.s.Assert(zc.And(lv.isInput(c.a.loc), lv.isInput(c.b.loc)).Implies(c.a.loc.Lt(c.b.loc)))
			}
		}
	}
	// An offset is compared with an input only (x + 1 < n, never
	// x + 1 < 5).
	for _, d := range lv.comps {
		if !d.kind.isCmp() {
			continue
		}
		for _, c := range lv.comps {
			if !c.kind.isArith() || !contains(d.a.dom, c.loc) {
				continue
			}
			if !c.kind.isSum() {
				lv.s.Assert(lv.is(d.a.loc, c.loc).Implies(lv.isInput(d.b.loc)))
			}
		}
	}
	// An input whose values have names is tested for equality only
	// (Input.Enum).
	opEq, opNe := slices.Index(ops[ckCmpInt], OpEq), slices.Index(ops[ckCmpInt], OpNe)
	for _, c := range lv.comps {
		if c.kind != ckCmpInt {
			continue
		}
		for _, i := range lv.pi.inputs[Int] {
			if !lv.pi.p.Spec.Inputs[i].Enum {
				continue
			}
			eq := zc.Or(lv.is(c.op, opEq), lv.is(c.op, opNe))
			for _, pt := range []*port{c.a, c.b} {
				if contains(pt.dom, i) {
					lv.s.Assert(lv.is(pt.loc, i).Implies(eq))
				}
			}
		}
	}
	// A bool input is used at most once: p && (q || p) is never needed.
	var bports []*port
	for _, c := range lv.comps {
		if operand[c.kind] == Bool {
			bports = append(bports, c.a)
			if c.b != nil {
				bports = append(bports, c.b)
			}
		}
	}
	for _, i := range lv.pi.inputs[Bool] {
		for x, p := range bports {
			for _, q := range bports[x+1:] {
				lv.s.Assert(zc.And(lv.is(p.loc, i), lv.is(q.loc, i)).Not())
			}
		}
	}
	// Every component but the root (the last) feeds exactly one port.
	for i, c := range lv.comps[:len(lv.comps)-1] {
		var uses []z3.Expr
		for _, u := range lv.comps[i+1:] {
			for _, p := range []*port{u.a, u.b} {
				if p != nil && contains(p.dom, c.loc) {
					uses = append(uses, lv.is(p.loc, c.loc))
				}
			}
		}
		if len(uses) == 0 {
			return false
		}
		lv.s.Assert(zc.Or(uses...))
		for x := range uses {
			for y := x + 1; y < len(uses); y++ {
				lv.s.Assert(zc.And(uses[x], uses[y]).Not())
			}
		}
	}
	// Negations and comparisons of the same kind are interchangeable:
	// order them by (a, b, op), and two comparisons of one operand with
	// the free literal by the literal's value (k == 17 || k == 23: the
	// literal location is one for every component, its value each one's
	// own).
	for i := 1; i < len(lv.comps); i++ {
		c, d := lv.comps[i-1], lv.comps[i]
		if c.kind != d.kind {
			continue
		}
		switch {
		case c.kind == ckNot:
			lv.s.Assert(c.a.loc.Lt(d.a.loc))
		case c.kind.isCmp():
			tie := c.op.Lt(d.op)
			if c.lit != (z3.Expr{}) && d.lit != (z3.Expr{}) {
				tie = zc.Or(tie, zc.And(c.op.Eq(d.op), lv.is(c.b.loc, lv.lit), c.lit.Lt(d.lit)))
			}
			lv.s.Assert(zc.Or(
				c.a.loc.Lt(d.a.loc),
				zc.And(c.a.loc.Eq(d.a.loc), zc.Or(
					c.b.loc.Lt(d.b.loc),
					zc.And(c.b.loc.Eq(d.b.loc), tie),
				)),
			))
		}
	}
	return true
}

// constLocs lists the locations of the constants of kind k.
func (lv *level) constLocs(k Kind) []int {
	var locs []int
	for _, j := range lv.pi.consts[k] {
		locs = append(locs, lv.ni+len(lv.comps)+j)
	}
	return locs
}

// isInput says that location x holds one of the spec's inputs.
func (lv *level) isInput(x z3.Expr) z3.Expr { return x.Lt(lv.zc.Int(int64(lv.ni))) }

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}

// decode reads the term of a model, and the clause that blocks its shape
// (locations and operators, whatever the literals' values).
func (lv *level) decode(m *z3.Model) (*Term, z3.Expr, error) {
	var same []z3.Expr
	get := func(x z3.Expr) (int, error) {
		v, err := m.Int(x)
		if err != nil {
			return 0, err
		}
		same = append(same, lv.is(x, int(v)))
		return int(v), nil
	}
	type choice struct{ op, a, b int }
	chosen := make([]choice, len(lv.comps))
	for i, c := range lv.comps {
		var ch choice
		var err error
		if ch.op, err = get(c.op); err != nil {
			return nil, z3.Expr{}, err
		}
		if ch.a, err = get(c.a.loc); err != nil {
			return nil, z3.Expr{}, err
		}
		if c.b != nil {
			if ch.b, err = get(c.b.loc); err != nil {
				return nil, z3.Expr{}, err
			}
		}
		chosen[i] = ch
	}
	block := lv.zc.And(same...).Not()
	var build func(c *component, loc int) (*Term, error)
	build = func(c *component, loc int) (*Term, error) {
		switch {
		case loc < lv.ni:
			return InputTerm(loc), nil
		case loc < lv.ni+len(lv.comps):
			k := loc - lv.ni
			d := lv.comps[k]
			ch := chosen[k]
			if ch.op < 0 || ch.op >= len(ops[d.kind]) {
				return nil, fmt.Errorf("component %d: operator %d out of range", k, ch.op)
			}
			a, err := build(d, ch.a)
			if err != nil {
				return nil, err
			}
			if d.kind == ckNot {
				return NotTerm(a), nil
			}
			b, err := build(d, ch.b)
			if err != nil {
				return nil, err
			}
			return BinTerm(ops[d.kind][ch.op], a, b), nil
		case loc < lv.lit:
			j := loc - lv.ni - len(lv.comps)
			if lv.pi.constSpec[j] < 0 {
				return LitTerm(lv.pi.constVals[j]), nil
			}
			return ConstTerm(lv.pi.constSpec[j]), nil
		}
		if c == nil || c.lit == (z3.Expr{}) {
			return nil, fmt.Errorf("literal location outside a numeric component")
		}
		if operand[c.kind] == Int {
			v, err := m.Int(c.lit)
			if err != nil {
				return nil, err
			}
			return LitTerm(IntValue(v)), nil
		}
		r, err := m.Real(c.lit)
		if err != nil {
			return nil, err
		}
		f, _ := r.Float64()
		return LitTerm(FloatValue(f)), nil
	}
	t, err := build(nil, lv.ni+len(lv.comps)-1)
	return t, block, err
}

// counterexample returns the first example t does not satisfy, or -1.
func counterexample(p *Problem, t *Term) int {
	for i := range p.Examples {
		v, err := t.Eval(p.Spec, &p.Examples[i])
		if err != nil || v.Kind != Bool || v.Bool != p.Examples[i].Want {
			return i
		}
	}
	return -1
}
