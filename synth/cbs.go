//go:build !noz3

package synth

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"sort"

	"github.com/nopol-go/nopol/internal/z3"
)

// This file holds the component-based encoding (Jha et al., ICSE 2010) of
// one level: a fixed multiset of components, a location variable per
// component port, well-formedness constraints that make any model a tree
// over the spec's inputs and constants, and one copy of the semantics per
// example added by the CEGIS loop in z3.go.
//
// Locations are numbered: the spec's inputs 0..NI-1, the components
// NI..NI+N-1 (component k has the fixed output location NI+k, components
// ordered by kind so that every tree has a matching order), the spec's
// constants NI+N..NI+N+NC-1, and last the location "lit": a port of a numeric
// component that points there reads its component's own free literal.

// compKind is the kind of a component; the order is a topological order of
// the kinds (sums feed offsets and comparisons, offsets feed comparisons,
// comparisons and negations feed && and ||). A sum adds or subtracts two
// inputs (x + y, x - y); an offset adds, subtracts or multiplies by a
// constant or literal (x + 1, 2 * x). Sums cost more: there are quadratically
// many.
type compKind uint8

const (
	ckSumInt compKind = iota
	ckSumFloat
	ckOffInt
	ckOffFloat
	ckNot
	ckCmpInt
	ckCmpFloat
	ckCmpString
	ckCmpBool
	ckBin
	numCompKinds
)

// operand is the kind of the values a component of each kind reads.
var operand = [numCompKinds]Kind{Int, Float, Int, Float, Bool, Int, Float, String, Bool, Bool}

// ops lists the operators a component of each kind can take; its op
// variable is an index into the list.
var ops = [numCompKinds][]Op{
	ckSumInt:    {OpAdd, OpSub},
	ckSumFloat:  {OpAdd, OpSub},
	ckOffInt:    {OpAdd, OpSub, OpMul},
	ckOffFloat:  {OpAdd, OpSub, OpMul},
	ckNot:       {OpNot},
	ckCmpInt:    {OpLt, OpLe, OpEq, OpNe, OpGt, OpGe},
	ckCmpFloat:  {OpLt, OpLe, OpEq, OpNe, OpGt, OpGe},
	ckCmpString: {OpEq, OpNe},
	ckCmpBool:   {OpEq, OpNe},
	ckBin:       {OpAnd, OpOr},
}

// arity is the number of ports of a component of each kind.
var arity = [numCompKinds]int{2, 2, 2, 2, 1, 2, 2, 2, 2, 2}

func (k compKind) isArith() bool { return k <= ckOffFloat }
func (k compKind) isSum() bool   { return k == ckSumInt || k == ckSumFloat }
func (k compKind) isCmp() bool   { return k >= ckCmpInt && k <= ckCmpBool }

// output is the kind of a component's value.
func (k compKind) output() Kind {
	if k.isArith() {
		return operand[k]
	}
	return Bool
}

// multiset counts the components of each kind in a level.
type multiset [numCompKinds]int

// size is the number of nodes of the term of any tree over m: one per
// component plus one per port not fed by a component.
func (m multiset) size() int {
	n := 1
	for k, c := range m {
		n += c * arity[k]
	}
	return n
}

func (m multiset) String() string {
	names := [numCompKinds]string{"sum.int", "sum.float", "offset.int", "offset.float", "not", "cmp.int", "cmp.float", "cmp.string", "cmp.bool", "andor"}
	s := "{"
	for k, c := range m {
		for range c {
			if len(s) > 1 {
				s += " "
			}
			s += names[k]
		}
	}
	return s + "}"
}

// problemInfo is what the encoding needs to know about a problem, computed
// once per search.
type problemInfo struct {
	p *Problem
	// inputs and consts list, per kind, the indices of the spec's inputs and
	// usable constants of that kind, in spec order.
	inputs, consts [String + 1][]int
	// constVals are the values of the spec's constants, then float views
	// of its integer literals (Go converts 1 to 1.0 next to a float), then
	// extra small literals (1, 2) offsets may use; a location's constant
	// index points here. constSpec is the index of the spec's constant
	// each value comes from, -1 for the extra literals.
	constVals []Value
	constSpec []int
	// offConsts are the indices of the constants an offset may add or
	// subtract (no zero), mulConsts those that make a useful multiplier.
	offConsts, mulConsts [String + 1][]int
	// ids interns strings: each distinct string of the examples and
	// constants gets an integer, in sorted order.
	ids map[string]int64
	// missing is set when some example has a missing value: then && and ||
	// take their operands in both orders, as only one may be safe.
	missing bool
}

func newProblemInfo(p *Problem) *problemInfo {
	pi := &problemInfo{p: p, ids: map[string]int64{}}
	var strs []string
	for i, in := range p.Spec.Inputs {
		pi.inputs[in.Kind] = append(pi.inputs[in.Kind], i)
	}
	for _, ex := range p.Examples {
		for i, v := range ex.Values {
			if v.Missing {
				pi.missing = true
			} else if p.Spec.Inputs[i].Kind == String {
				strs = append(strs, v.Str)
			}
		}
	}
	for j, c := range p.Spec.Constants {
		k := c.Value.Kind
		if k == Bool || len(pi.inputs[k]) == 0 {
			continue // true/false and constants no input can meet are useless
		}
		pi.consts[k] = append(pi.consts[k], j)
		if k == String {
			strs = append(strs, c.Value.Str)
		}
	}
	for j, c := range p.Spec.Constants {
		pi.constVals = append(pi.constVals, c.Value)
		pi.constSpec = append(pi.constSpec, j)
	}
	if len(pi.inputs[Float]) > 0 {
		for j, c := range p.Spec.Constants {
			if c.Value.Kind == Int && ConstTerm(j).IsIntLiteral(p.Spec) {
				pi.consts[Float] = append(pi.consts[Float], len(pi.constVals))
				pi.constVals = append(pi.constVals, FloatValue(float64(c.Value.Int)))
				pi.constSpec = append(pi.constSpec, j)
			}
		}
	}
	for _, k := range []Kind{Int, Float} {
		for _, j := range pi.consts[k] {
			pi.addOffset(k, j)
		}
	}
	if len(pi.inputs[Int]) > 0 {
		for _, extra := range []int64{1, 2} {
			if !slices.ContainsFunc(pi.consts[Int], func(j int) bool { return pi.constVals[j].Int == extra }) {
				pi.constVals = append(pi.constVals, IntValue(extra))
				pi.constSpec = append(pi.constSpec, -1)
				pi.addOffset(Int, len(pi.constVals)-1)
			}
		}
	}
	sort.Strings(strs)
	for _, s := range strs {
		if _, ok := pi.ids[s]; !ok {
			pi.ids[s] = int64(len(pi.ids))
		}
	}
	return pi
}

// addOffset records constant j of kind k as a useful offset (x + 1: a
// small nonzero value) or multiplier (2 * x: small, not 0 or 1). Offsets
// and multipliers by large constants are rare in conditions, and a wide site
// has many constants: each one would multiply the terms to search.
func (pi *problemInfo) addOffset(k Kind, j int) {
	v := pi.constVals[j]
	var f float64
	switch k {
	case Int:
		f = float64(v.Int)
	case Float:
		f = v.Float
	default:
		return
	}
	if f != 0 && math.Abs(f) <= maxOffset {
		pi.offConsts[k] = append(pi.offConsts[k], j)
	}
	if f != 0 && f != 1 && math.Abs(f) <= maxMultiplier {
		pi.mulConsts[k] = append(pi.mulConsts[k], j)
	}
}

// The largest constants an offset adds and a multiplier multiplies by.
const (
	maxOffset     = 2
	maxMultiplier = 4
)

func isFinite(f float64) bool { return !math.IsInf(f, 0) && !math.IsNaN(f) }

// multisets lists the levels of the given size that can form a condition
// over pi's inputs, in a fixed order: fewer arithmetic components first,
// then fewer && and ||.
func (pi *problemInfo) multisets(size int) []multiset {
	var out []multiset
	var m multiset
	var rec func(k compKind, ports int)
	rec = func(k compKind, ports int) {
		if k == numCompKinds {
			if ports == 0 && pi.valid(m) {
				out = append(out, m)
			}
			return
		}
		for c := 0; c*arity[k] <= ports; c++ {
			m[k] = c
			rec(k+1, ports-c*arity[k])
		}
		m[k] = 0
	}
	rec(0, size-1)
	key := func(m multiset) [3]int {
		return [3]int{m.arith(), m[ckBin], m[ckNot]}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := key(out[i]), key(out[j])
		for x := range a {
			if a[x] != b[x] {
				return a[x] < b[x]
			}
		}
		return false
	})
	return out
}

// cost orders levels: the size of their terms, arithmetic counting
// more, as it is rarer in conditions and dearer to solve.
func (m multiset) cost() int {
	return m.size() + m[ckOffInt] + m[ckOffFloat] + 2*(m[ckSumInt]+m[ckSumFloat])
}

func (m multiset) arith() int { return m[ckSumInt] + m[ckSumFloat] + m[ckOffInt] + m[ckOffFloat] }

// levels lists the levels of terms of size 2 to maxSize, cheapest first.
func (pi *problemInfo) levels(maxSize int) []multiset {
	var all []multiset
	for size := 2; size <= maxSize; size++ {
		all = append(all, pi.multisets(size)...)
	}
	// At equal cost, && and || of comparisons come before arithmetic.
	sort.SliceStable(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if a.cost() != b.cost() {
			return a.cost() < b.cost()
		}
		return a.arith() < b.arith()
	})
	return all
}

// valid reports whether m's components can form a tree whose root is a
// condition, using only kinds that pi's inputs have.
func (pi *problemInfo) valid(m multiset) bool {
	nBool := len(pi.inputs[Bool])
	for k := range numCompKinds {
		if k != ckBin && m[k] > 0 && len(pi.inputs[operand[k]]) == 0 {
			return false
		}
	}
	if m[ckSumInt]+m[ckOffInt] > 0 && m[ckCmpInt] == 0 || m[ckSumFloat]+m[ckOffFloat] > 0 && m[ckCmpFloat] == 0 {
		return false
	}
	if m[ckNot] > nBool {
		return false
	}
	if m[ckCmpBool] > 0 && nBool < 2 {
		return false
	}
	leaves := m[ckNot] + m[ckCmpInt] + m[ckCmpFloat] + m[ckCmpString] + m[ckCmpBool]
	if m[ckBin] == 0 {
		return leaves == 1
	}
	// The && and || form a binary tree with nBin+1 leaves: the negations,
	// the comparisons and the rest bool inputs.
	rest := m[ckBin] + 1 - leaves
	return rest >= 0 && (rest == 0 || nBool > 0)
}

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
	// order them by (a, b, op).
	for i := 1; i < len(lv.comps); i++ {
		c, d := lv.comps[i-1], lv.comps[i]
		if c.kind != d.kind {
			continue
		}
		switch {
		case c.kind == ckNot:
			lv.s.Assert(c.a.loc.Lt(d.a.loc))
		case c.kind.isCmp():
			lv.s.Assert(zc.Or(
				c.a.loc.Lt(d.a.loc),
				zc.And(c.a.loc.Eq(d.a.loc), zc.Or(
					c.b.loc.Lt(d.b.loc),
					zc.And(c.b.loc.Eq(d.b.loc), c.op.Lt(d.op)),
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
