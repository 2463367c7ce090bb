package synth

import (
	"context"
	"slices"
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
	// reject is Options.rejected: a rejected term is not a solution,
	// but counted in fits, which shrink the search as solutions do.
	reject func(*Term) bool
	fits   int

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
		reject:  opts.rejected,
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
	if e.fits > 0 && s+2 < e.maxSize {
		e.maxSize = s + 2
	}
}

// pairsAt reports whether level s builds comparisons of two terms of
// kind k: strings and bools only of two leaves (s == 3), bools only when
// the spec allows comparing predicates (Spec.PredicateEquality).
func (e *enumerator) pairsAt(k Kind, s int) bool {
	return !((k == String || k == Bool) && s != 3 || k == Bool && !e.spec.PredicateEquality)
}

// addSolution records t; it stops the search at the hard cap.
func (e *enumerator) addSolution(t *Term) {
	e.fits++
	if e.reject(t) {
		return
	}
	e.sols = append(e.sols, t)
	if len(e.sols) >= e.cap {
		e.stop = true
	}
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
		if !e.pairsAt(k, s) {
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
		if !e.pairsAt(k, s) {
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
