package synth

import (
	"context"
	"slices"
	"sort"
)

// The enumerative backend: bottom-up enumeration by size with observational
// equivalence. Every term is represented by its vector of values on the
// distinct examples (with a mask of the examples on which it has no value,
// because it reads a missing input without a short-circuit protecting it);
// of the terms with the same vector only the smallest, cheapest one is kept
// and used to build bigger terms.
//
// The last levels are not stored: a bool term of size MaxSize-1 can only
// become a solution under "!", so it is only compared with the negated
// target; numeric terms of size MaxSize-2 can only be compared with a leaf,
// so they are built on the fly at the last level and dropped; at the last
// level only the terms equal to the target matter, so "&&" and "||" combine
// only operands that agree with the target where they must, and comparisons
// stop at the first example where no operator agrees.
//
// The leaves are the inputs, the code's constants (integer literals also as
// floats) and a few invented integers (see invented). All solutions of a
// level are collected (up to 10 × MaxCandidates); once one is found, the
// search goes at most two components further (see shrink), and stops after
// a level that brought MaxCandidates solutions. Ties between equivalent
// terms of one size are broken by the ranking cost, so that the kept term is
// the one Rank would prefer.

func init() { Register("enum", enumBackend{}) }

// enumBackend is the "enum" backend.
type enumBackend struct{}

// maxInvented bounds the invented integer constants.
const maxInvented = 10

// maxBankWords bounds the memory of the kept vectors (256 MiB): past it,
// new terms are still checked against the target but no longer kept.
const maxBankWords = 32 << 20

func (enumBackend) Search(ctx context.Context, p *Problem, opts Options) ([]*Term, error) {
	e := newEnumerator(ctx, p, opts)
	e.run()
	if e.stop && ctx.Err() != nil {
		return e.sols, ctx.Err()
	}
	return e.sols, nil
}

// entry is a term kept for its vector.
type entry struct {
	term     *Term
	kind     Kind
	size     int
	v        vec
	hasInput bool
	cost     int
	id       int     // creation order, for orientation rules
	tie      *tieKey // of term, computed on the first tie
}

// enumerator is the state of one enumerative search.
type enumerator struct {
	ctx   context.Context
	spec  *Spec
	exs   []Example
	n     int
	words int
	last  uint64 // mask of the valid bits of the last word

	target, negTarget []uint64

	maxSize int
	want    int // MaxCandidates: stop after a level with that many solutions
	cap     int // stop at once with that many

	model *costModel
	bank  [String + 1][][]*entry // kind, size
	seen  [String + 1]map[uint64][]*entry
	ids   int
	// words64 is the size of the kept vectors, in 64-bit words.
	words64 int
	// numStored is the size of the biggest numeric terms kept.
	numStored int

	strIDs map[string]int32
	sols   []*Term
	notSol []*Term // Not(a) solutions found at MaxSize-1, reported at MaxSize
	steps  int
	stop   bool

	// scratch buffers
	sInts   []int64
	sFloats []float64
	sBits   []uint64
	sMiss   []uint64
	bMiss   []uint64 // missing mask of the bool result in sBits
	bAny    bool     // whether bMiss has a bit set
	sLt     []uint64 // signs of a comparison, see compareAll
	sEq     []uint64
	sGt     []uint64
	stream  map[[2]uint64]bool
}

func newEnumerator(ctx context.Context, p *Problem, opts Options) *enumerator {
	n := len(p.Examples)
	e := &enumerator{
		ctx:     ctx,
		spec:    p.Spec,
		exs:     p.Examples,
		n:       n,
		words:   (n + 63) / 64,
		maxSize: opts.MaxSize,
		want:    opts.MaxCandidates,
		cap:     10 * opts.MaxCandidates,
		model:   newCostModel(p.Spec),
		strIDs:  map[string]int32{},
	}
	e.last = ^uint64(0)
	if r := n % 64; r != 0 {
		e.last = 1<<r - 1
	}
	e.target = make([]uint64, e.words)
	for i, ex := range p.Examples {
		if ex.Want {
			e.target[i/64] |= 1 << (i % 64)
		}
	}
	e.negTarget = e.not(e.target)
	for k := range e.bank {
		e.bank[k] = make([][]*entry, e.maxSize+1)
		e.seen[k] = map[uint64][]*entry{}
	}
	e.sInts = make([]int64, n)
	e.sFloats = make([]float64, n)
	e.sBits = make([]uint64, e.words)
	e.sMiss = make([]uint64, e.words)
	e.bMiss = make([]uint64, e.words)
	e.sLt = make([]uint64, e.words)
	e.sEq = make([]uint64, e.words)
	e.sGt = make([]uint64, e.words)
	return e
}

func (e *enumerator) not(bits []uint64) []uint64 {
	out := make([]uint64, len(bits))
	for i, w := range bits {
		out[i] = ^w
	}
	if len(out) > 0 {
		out[len(out)-1] &= e.last
	}
	return out
}

// tick counts work and reports whether the search must stop.
func (e *enumerator) tick() bool {
	e.steps++
	if e.steps&1023 == 0 && e.ctx.Err() != nil {
		e.stop = true
	}
	return e.stop
}

// run enumerates level by level, smallest terms first, until MaxSize, the
// wanted number of solutions after a level, the hard cap or the context.
func (e *enumerator) run() {
	e.leaves()
	e.shrink(1)
	for s := 2; s <= e.maxSize && !e.stop; s++ {
		if s == e.maxSize {
			e.lastLevel()
		} else {
			e.level(s)
		}
		if len(e.sols) >= e.want {
			return
		}
		e.shrink(s)
	}
}

// shrink lowers the size limit to two components above the first solution,
// found at size s: bigger alternatives rank far behind it, and the last
// levels cost the most.
func (e *enumerator) shrink(s int) {
	if len(e.sols) > 0 && s+2 < e.maxSize {
		e.maxSize = s + 2
	}
}

// addSolution records t; it stops the search at the hard cap.
func (e *enumerator) addSolution(t *Term) {
	e.sols = append(e.sols, t)
	if len(e.sols) >= e.cap {
		e.stop = true
	}
}

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

// offer keeps t unless a term with the same vector is already kept; at equal
// size the cheaper term (by the ranking cost) replaces the kept one. It
// reports whether t was kept.
func (e *enumerator) offer(t *Term, k Kind, size int, v vec, hasInput bool, copyVec bool) bool {
	h := e.hash(k, &v)
	for _, old := range e.seen[k][h] {
		if !e.equal(k, &old.v, &v) {
			continue
		}
		if old.size < size {
			return false
		}
		c := e.model.cost(t)
		if c < old.cost || c == old.cost && e.closer(t, old) {
			old.term, old.cost, old.hasInput, old.tie = t, c, hasInput, nil
		}
		return false
	}
	if e.words64 > maxBankWords {
		return false // memory budget spent: t is not kept
	}
	e.words64 += len(v.ints) + len(v.floats) + len(v.strs)/2 + len(v.bits) + len(v.miss)
	if copyVec {
		v = cloneVec(v)
	}
	en := &entry{term: t, kind: k, size: size, v: v, hasInput: hasInput, cost: e.model.cost(t), id: e.ids}
	e.ids++
	e.seen[k][h] = append(e.seen[k][h], en)
	e.bank[k][size] = append(e.bank[k][size], en)
	return true
}

// closer reports whether a is closer to the original than the kept term
// of old, for terms of equal cost.
func (e *enumerator) closer(a *Term, old *entry) bool {
	if old.tie == nil {
		k := e.model.tie(old.term)
		old.tie = &k
	}
	k := e.model.tie(a)
	return e.model.less(&k, old.tie)
}

// known reports whether a vector is already kept at a size below size.
func (e *enumerator) known(k Kind, v *vec, size int) (uint64, bool) {
	h := e.hash(k, v)
	for _, old := range e.seen[k][h] {
		if old.size < size && e.equal(k, &old.v, v) {
			return h, true
		}
	}
	return h, false
}

var cmpOps = [6]Op{OpLt, OpLe, OpEq, OpNe, OpGt, OpGe}

// level builds the terms of size s < MaxSize.
func (e *enumerator) level(s int) {
	storeNum := s <= e.maxSize-3
	// "!": over inputs, "&&" and "||" only (a negated comparison is a
	// comparison).
	for _, a := range e.bank[Bool][s-1] {
		if e.tick() {
			return
		}
		if !a.hasInput || (a.term.Op != OpInput && a.term.Op != OpAnd && a.term.Op != OpOr) {
			continue
		}
		e.notInto(&a.v)
		e.boolResult(s, func() *Term { return NotTerm(a.term) }, true, false)
	}
	for _, op := range [2]Op{OpAnd, OpOr} {
		e.pairs(Bool, s-1, func(a, b *entry) {
			if !a.hasInput || !b.hasInput {
				return
			}
			e.andOrInto(op, &a.v, &b.v)
			redundant := e.isTarget(&a.v) || e.isTarget(&b.v)
			e.boolResult(s, func() *Term { return BinTerm(op, a.term, b.term) }, !redundant, true)
		})
	}
	for _, k := range [4]Kind{Int, Float, String, Bool} {
		if (k == String || k == Bool) && s != 3 {
			continue
		}
		e.unorderedPairs(k, s-1, func(a, b *entry) {
			fwd, bwd := orientations(k, a, b)
			if !fwd && !bwd {
				return
			}
			e.compareAll(k, &a.v, &b.v, func(op Op) {
				if fwd {
					e.boolResult(s, func() *Term { return BinTerm(op, a.term, b.term) }, true, false)
				}
				if bwd {
					e.boolResult(s, func() *Term { return BinTerm(mirror[op], b.term, a.term) }, true, false)
				}
			})
		})
	}
	if !storeNum {
		return
	}
	e.numStored = s
	for _, k := range [2]Kind{Int, Float} {
		e.arithPairs(k, s, func(op Op, a, b *entry) {
			v := e.arith(op, k, &a.v, &b.v)
			if _, ok := e.known(k, &v, s); ok {
				return
			}
			e.offer(BinTerm(op, a.term, b.term), k, s, v, true, true)
		})
	}
}

// lastLevel finds the solutions of size MaxSize.
func (e *enumerator) lastLevel() {
	s := e.maxSize
	for _, t := range e.notSol {
		e.addSolution(t)
		if e.stop {
			return
		}
	}
	e.lastAndOr(s)
	for _, k := range [4]Kind{Int, Float, String, Bool} {
		if (k == String || k == Bool) && s != 3 {
			continue
		}
		e.unorderedPairs(k, s-1, func(a, b *entry) {
			if fwd, bwd := orientations(k, a, b); fwd || bwd {
				e.matchAll(k, &a.v, &b.v, func(op Op) {
					if fwd {
						e.addSolution(BinTerm(op, a.term, b.term))
					}
					if bwd && !e.stop {
						e.addSolution(BinTerm(mirror[op], b.term, a.term))
					}
				})
			}
		})
	}
	// Numeric terms of size s-2, built on the fly and compared with leaves,
	// unless they were kept (the limit was lowered by shrink).
	if s-2 < 3 || s-2 <= e.numStored {
		return
	}
	e.stream = map[[2]uint64]bool{}
	type match struct {
		op   Op
		leaf *entry
	}
	var matches []match
	for _, k := range [2]Kind{Int, Float} {
		e.arithPairs(k, s-2, func(op Op, a, b *entry) {
			v := e.arith(op, k, &a.v, &b.v)
			if v.miss != nil {
				return // a comparison over it would read a missing value
			}
			matches = matches[:0]
			for _, l := range e.bank[k][1] {
				if l.v.miss == nil {
					e.matchAll(k, &v, &l.v, func(op Op) { matches = append(matches, match{op, l}) })
				}
			}
			if len(matches) == 0 || e.stop {
				return
			}
			// Only now, as hashing is dearer than matching: a vector
			// kept smaller, or already built at this size, gives
			// nothing new.
			h, ok := e.known(k, &v, s-2)
			if ok {
				return
			}
			key := [2]uint64{h, hashVec(0x9e3779b97f4a7c15, &v)}
			if e.stream[key] {
				return
			}
			e.stream[key] = true
			x := BinTerm(op, a.term, b.term)
			for _, m := range matches {
				if e.stop {
					return
				}
				e.addSolution(BinTerm(m.op, x, m.leaf.term))
				if m.leaf.hasInput && !e.stop {
					e.addSolution(BinTerm(mirror[m.op], m.leaf.term, x))
				}
			}
		})
	}
	e.stream = nil
}

// lastAndOr finds the "&&" and "||" solutions of size s: a && b needs a
// true wherever the target is, and b equal to the target wherever a is
// true; a || b the converse.
func (e *enumerator) lastAndOr(s int) {
	for _, op := range [2]Op{OpAnd, OpOr} {
		for sa := 1; sa <= s-2; sa++ {
			for _, a := range e.bank[Bool][sa] {
				if !a.hasInput || a.v.miss != nil || e.isTarget(&a.v) {
					continue
				}
				if !e.leftFits(op, a.v.bits) {
					continue
				}
				for _, b := range e.bank[Bool][s-1-sa] {
					if e.tick() {
						return
					}
					if b == a || !b.hasInput || e.isTarget(&b.v) || !e.rightFits(op, a.v.bits, &b.v) {
						continue
					}
					e.addSolution(BinTerm(op, a.term, b.term))
					if e.stop {
						return
					}
				}
			}
		}
	}
}

func (e *enumerator) leftFits(op Op, a []uint64) bool {
	for i, t := range e.target {
		if op == OpAnd && t&^a[i] != 0 || op == OpOr && a[i]&^t != 0 {
			return false
		}
	}
	return true
}

func (e *enumerator) rightFits(op Op, a []uint64, b *vec) bool {
	for i, t := range e.target {
		care := a[i] // "&&" evaluates b where a is true
		if op == OpOr {
			care = ^a[i]
		}
		if i == e.words-1 {
			care &= e.last
		}
		var m uint64
		if b.miss != nil {
			m = b.miss[i]
		}
		if (m|(b.bits[i]^t))&care != 0 {
			return false
		}
	}
	return true
}

func (e *enumerator) isTarget(v *vec) bool {
	return v.miss == nil && slices.Equal(v.bits, e.target)
}

// pairs calls f for each ordered pair of distinct kept entries of kind k
// whose sizes add up to total, smaller left operands first.
func (e *enumerator) pairs(k Kind, total int, f func(a, b *entry)) {
	e.pairsFrom(k, total, false, f)
}

// pairsFrom is pairs, bigger left operands first when leftFirst is set, so
// that a + b + c comes before a + (b + c).
func (e *enumerator) pairsFrom(k Kind, total int, leftFirst bool, f func(a, b *entry)) {
	for i := 1; i < total; i++ {
		sa := i
		if leftFirst {
			sa = total - i
		}
		sb := total - sa
		if sb >= len(e.bank[k]) || sa >= len(e.bank[k]) {
			continue
		}
		for _, a := range e.bank[k][sa] {
			for _, b := range e.bank[k][sb] {
				if e.tick() {
					return
				}
				if a != b {
					f(a, b)
				}
			}
		}
	}
}

// orientations says which of a op b (fwd) and b op a (bwd) are worth
// building: they read an input, with the constant on the right; bools
// compare inputs only, and in one orientation.
func orientations(k Kind, a, b *entry) (fwd, bwd bool) {
	if k == Bool {
		return a.hasInput && b.hasInput, false
	}
	return a.hasInput, b.hasInput
}

// unorderedPairs calls f once for each pair of distinct kept entries of
// kind k whose sizes add up to total, the smaller one first.
func (e *enumerator) unorderedPairs(k Kind, total int, f func(a, b *entry)) {
	for sa := 1; sa <= total-sa; sa++ {
		sb := total - sa
		if sb >= len(e.bank[k]) {
			continue
		}
		for _, a := range e.bank[k][sa] {
			for _, b := range e.bank[k][sb] {
				if e.tick() {
					return
				}
				if sa < sb || a.id < b.id {
					f(a, b)
				}
			}
		}
	}
}

// arithPairs calls f for the arithmetic terms of size s: a + b, a - b and
// a * c for a constant c other than 0, 1 and -1.
func (e *enumerator) arithPairs(k Kind, s int, f func(op Op, a, b *entry)) {
	e.pairsFrom(k, s-1, true, func(a, b *entry) {
		if !a.hasInput && !b.hasInput {
			return
		}
		if isZeroLeaf(b) {
			return
		}
		if a.hasInput && (!b.hasInput || a.size != b.size || a.id < b.id) {
			f(OpAdd, a, b)
		}
		if !isZeroLeaf(a) {
			f(OpSub, a, b) // 0 - b is a negation, found as a comparison
		}
		if a.hasInput && isConstLeaf(b.term) && !isUnitLeaf(b) {
			f(OpMul, a, b)
		}
	})
}

func isZeroLeaf(en *entry) bool {
	return !en.hasInput && en.size == 1 && (en.v.ints != nil && en.v.ints[0] == 0 || en.v.floats != nil && en.v.floats[0] == 0)
}

// isUnitLeaf reports whether en is 1 or -1: multiplying by it adds nothing
// a comparison or a subtraction does not say more simply.
func isUnitLeaf(en *entry) bool {
	return en.v.ints != nil && (en.v.ints[0] == 1 || en.v.ints[0] == -1) ||
		en.v.floats != nil && (en.v.floats[0] == 1 || en.v.floats[0] == -1)
}

// boolResult handles the bool vector in the scratch buffers, built by mk at
// size s: a solution when it equals the target (and solution is set), a
// solution under "!" at MaxSize-1 (when negOK), kept below MaxSize-1.
func (e *enumerator) boolResult(s int, mk func() *Term, solution, negOK bool) {
	v := vec{bits: e.sBits, miss: e.sBMiss()}
	if v.miss == nil {
		if solution && slices.Equal(v.bits, e.target) {
			e.addSolution(mk())
		} else if negOK && s == e.maxSize-1 && slices.Equal(v.bits, e.negTarget) {
			e.notSol = append(e.notSol, NotTerm(mk()))
		}
	}
	if s > e.maxSize-2 {
		return
	}
	if _, ok := e.known(Bool, &v, s); ok {
		return
	}
	e.offer(mk(), Bool, s, v, true, true)
}
