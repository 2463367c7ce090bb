package synth

import (
	"slices"
	"sort"
)

// The leaves of the enumeration: inputs, constants and the literals it
// invents.

// leaves keeps the terms of size 1: inputs, code constants and invented
// constants.
func (e *enumerator) leaves() {
	for i, in := range e.spec.Inputs {
		v := e.newVec(in.Kind)
		for j := range e.exs {
			x := e.exs[j].Values[i]
			if x.Missing {
				v.miss = setBit(v.miss, j, e.words)
				continue
			}
			e.setValue(&v, j, x)
		}
		e.offerLeaf(InputTerm(i), in.Kind, v, true)
	}
	for i, c := range e.spec.Constants {
		v := e.newVec(c.Value.Kind)
		for j := range e.exs {
			e.setValue(&v, j, c.Value)
		}
		e.offerLeaf(ConstTerm(i), c.Value.Kind, v, false)
	}
	// Integer literals also serve as float constants (x > 0 for a float x).
	if slices.ContainsFunc(e.spec.Inputs, func(in Input) bool { return in.Kind == Float }) {
		for i, c := range e.spec.Constants {
			if t := ConstTerm(i); t.IsIntLiteral(e.spec) {
				v := e.newVec(Float)
				for j := range v.floats {
					v.floats[j] = float64(c.Value.Int)
				}
				e.offerLeaf(t, Float, v, false)
			}
		}
	}
	for _, x := range e.invented() {
		v := e.newVec(Int)
		for j := range v.ints {
			v.ints[j] = x
		}
		e.offerLeaf(LitTerm(IntValue(x)), Int, v, false)
	}
}

// offerLeaf keeps a leaf, and records a bool input that is a solution by
// itself.
func (e *enumerator) offerLeaf(t *Term, k Kind, v vec, hasInput bool) {
	if k == Bool && hasInput && v.miss == nil {
		if slices.Equal(v.bits, e.target) {
			e.addSolution(t)
		} else if e.maxSize == 2 && slices.Equal(v.bits, e.negTarget) {
			e.notSol = append(e.notSol, NotTerm(t)) // level 2 is the last
		}
	}
	e.offer(t, k, 1, v, hasInput, false)
}

// invented returns integer constants suggested by the examples: 0, and the
// values on both sides of each change of outcome along an integer input
// that looks like a threshold (few changes), with their neighbours, then the
// ends of the runs of one outcome of the other inputs (see pureEdges). Values
// of code constants are left out: the code's own constant is preferred.
func (e *enumerator) invented() []int64 {
	have := map[int64]bool{}
	for _, c := range e.spec.Constants {
		if c.Value.Kind == Int {
			have[c.Value.Int] = true
		}
	}
	type cand struct {
		input, changes int
		vals           []int64
	}
	var cands []cand
	var edges []int64
	for i, in := range e.spec.Inputs {
		if in.Kind != Int {
			continue
		}
		outcome := map[int64]uint8{}
		for _, ex := range e.exs {
			if x := ex.Values[i]; !x.Missing {
				o := uint8(1)
				if ex.Want {
					o = 2
				}
				outcome[x.Int] |= o
			}
		}
		keys := make([]int64, 0, len(outcome))
		for k := range outcome {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		c := cand{input: i}
		for j := 1; j < len(keys); j++ {
			if outcome[keys[j]] != outcome[keys[j-1]] {
				c.changes++
				a, b := keys[j-1], keys[j]
				c.vals = append(c.vals, a, b, a+1, b-1)
			}
		}
		if c.changes > 0 && c.changes <= 3 {
			cands = append(cands, c)
		} else if c.changes > 3 {
			edges = append(edges, pureEdges(keys, outcome)...)
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].changes < cands[j].changes })
	var out []int64
	add := func(x int64) {
		if !have[x] && len(out) < maxInvented {
			have[x] = true
			out = append(out, x)
		}
	}
	add(0)
	for _, c := range cands {
		for _, x := range c.vals {
			add(x)
		}
	}
	for _, x := range edges {
		add(x)
	}
	slices.Sort(out)
	return out
}

// pureEdges returns, for an input with many changes of outcome, the values
// around the ends of its runs of one outcome at either end (three distinct
// values and a quarter of them at least): n < 42 in ok && n < 42 leaves
// every n >= 42 false whatever ok is.
func pureEdges(keys []int64, outcome map[int64]uint8) []int64 {
	const minRun = 3
	var out []int64
	run := func(at func(int) int64) {
		o := outcome[at(0)]
		if o == 3 {
			return // both outcomes at the extreme value
		}
		j := 1
		for j < len(keys) && outcome[at(j)] == o {
			j++
		}
		if j >= minRun && 4*j >= len(keys) && j < len(keys) {
			out = append(out, at(j-1), at(j))
		}
	}
	run(func(j int) int64 { return keys[j] })
	run(func(j int) int64 { return keys[len(keys)-1-j] })
	return out
}
