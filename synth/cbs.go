//go:build cgo && !noz3

package synth

import (
	"math"
	"slices"
	"sort"
)

// This file and cbs_level.go, cbs_example.go hold the component-based
// encoding (Jha et al., ICSE 2010) of one level: a fixed multiset of
// components, a location variable per component port, well-formedness
// constraints that make any model a tree over the spec's inputs and
// constants, and one copy of the semantics per example, added by the CEGIS
// loop in z3.go.
//
// Locations are numbered: the spec's inputs 0..NI-1, the components
// NI..NI+N-1 (component k has the fixed output location NI+k; components are
// ordered by kind so that every tree has a matching order, which makes
// acyclicity a matter of domains), the constants NI+N..NI+N+NC-1, and last
// the location "lit": a port of a numeric comparison that points there reads
// its component's own free literal (n < 42). Numbers are compared with
// inputs or the literal, not with each code constant: snapLiterals puts a
// constant back where one fits.
//
// Differences from the textbook encoding, all for speed: each component has
// an operator variable (one comparison component covers < <= == != > >=);
// operand orders are canonical (x < y and not y > x; orient in z3.go gives
// the developer's order back); each component output feeds exactly one port
// (terms are trees); a comparison of two inputs or constants is folded in Go
// and encoded with an order encoding linear in the number of inputs
// (ordered); sums of inputs and offsets by small constants are separate
// kinds, as sums are quadratic in the number of inputs.

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
	if m[ckCmpBool] > 0 && (nBool < 2 || !pi.p.Spec.PredicateEquality) {
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
