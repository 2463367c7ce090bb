//go:build cgo && !noz3

package synth

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/nopol-go/nopol/internal/z3"
)

func init() { Register("z3", z3Backend{}) }

// z3Backend is component-based synthesis with Z3 (see doc.go and cbs.go).
type z3Backend struct{}

// Search enumerates levels (component multisets) by the size of their
// terms, smallest first, and within a level finds distinct terms by
// blocking each shape found. Each level is solved by CEGIS: the solver sees
// a few examples, the decoded term is checked in Go against all of them,
// and the first one it fails joins the solver's examples.
func (z3Backend) Search(ctx context.Context, p *Problem, opts Options) ([]*Term, error) {
	opts = opts.withDefaults()
	pi := newProblemInfo(p)
	var found []*Term
	fits := 0 // terms that fit, rejected or not
	// Size 1: a bool input on its own needs no solver.
	for _, i := range pi.inputs[Bool] {
		if t := InputTerm(i); counterexample(p, t) < 0 {
			fits++
			if !opts.rejected(t) {
				found = append(found, t)
			}
		}
	}
	if len(found) >= opts.MaxCandidates {
		return found[:opts.MaxCandidates], nil
	}
	zc := z3.NewContext()
	defer zc.Close()
	cg := &cegis{p: p, pi: pi, zc: zc, max: opts.MaxCandidates, found: found, fits: fits, reject: opts.rejected}
	cg.seed()
	// firstCost is the cost of the level of the first term found, foundWork
	// and foundTime the work done and the time then.
	firstCost, foundWork, foundTime := -1, 0.0, time.Now()
	start := time.Now()
	if fits > 0 {
		firstCost = 1
	}
	stats := opts.Stats
	if stats == nil {
		stats = &Stats{}
	}
	defer func() { stats.Work += cg.work }()
	for _, ms := range pi.levels(opts.MaxSize) {
		if firstCost >= 0 && (ms.cost() > firstCost+extraCost || cg.work-foundWork > afterFoundWork) {
			break
		}
		if firstCost >= 0 && time.Since(foundTime) > afterFoundTime {
			stats.TimeBound++
			break
		}
		if cg.work > searchWork {
			break
		}
		left := time.Until(start.Add(opts.Timeout * searchShare / 100))
		if left <= 0 {
			stats.TimeBound++
			break
		}
		lctx, cancel := context.WithTimeout(ctx, min(levelTime, left))
		err := cg.level(lctx, ms)
		cancel()
		if err != nil && ctx.Err() != nil {
			return cg.found, ctx.Err()
		}
		if err != nil && !errors.Is(err, context.DeadlineExceeded) {
			return cg.found, err
		}
		if err != nil {
			stats.TimeBound++ // levelTime, or the search's share
		}
		if cg.fits > 0 && firstCost < 0 {
			firstCost, foundWork, foundTime = ms.cost(), cg.work, time.Now()
		}
		if len(cg.found) >= cg.max {
			break
		}
	}
	return cg.found, nil
}

// Bounds of the search beyond opts. Work is counted in units of Z3's
// resource counter (rlimit), which does not depend on the machine's speed
// or load, so that a bounded search stays deterministic; the counter runs
// at 2 to 20 million a second depending on the query, so wall-clock bounds
// back it up.
//
// Once a candidate is found, levels costing more than extraCost above it
// are not explored, nor any level once the search has done afterFoundWork
// or spent afterFoundTime since. No level starts after searchWork, or after
// searchShare percent of opts.Timeout. A level is abandoned after levelWork
// (arithLevelWork with arithmetic, rarer and dearer) or levelTime.
const (
	extraCost      = 1
	levelWork      = 5_000_000
	arithLevelWork = 2_000_000
	levelTime      = 1500 * time.Millisecond
	afterFoundWork = 4_000_000
	afterFoundTime = time.Second
	searchWork     = 40_000_000
	searchShare    = 40 // percent of opts.Timeout (10s by default)
)

// cegis is the state of one search: the examples the solver has seen so
// far, carried from level to level, and the terms found.
type cegis struct {
	p     *Problem
	pi    *problemInfo
	zc    *z3.Context
	max   int
	found []*Term
	// reject is Options.rejected: a rejected term is blocked, not found,
	// but counted in fits, which end the search as found ones do.
	reject func(*Term) bool
	fits   int
	// seen lists the examples given to the solver, in the order they were
	// added.
	seen   []int
	inSeen map[int]bool
	// work is Z3's resource count after the last query: the work done so
	// far in this search.
	work float64
}

// seed starts with the first example of each outcome.
func (cg *cegis) seed() {
	cg.inSeen = map[int]bool{}
	for _, want := range []bool{true, false} {
		for i, ex := range cg.p.Examples {
			if ex.Want == want {
				cg.addSeen(i)
				break
			}
		}
	}
}

func (cg *cegis) addSeen(i int) {
	if !cg.inSeen[i] {
		cg.inSeen[i] = true
		cg.seen = append(cg.seen, i)
	}
}

// level enumerates the terms of one multiset until it is exhausted or
// enough terms are found. A solver timeout abandons the level; a done ctx
// ends the search.
func (cg *cegis) level(ctx context.Context, ms multiset) error {
	lv := newLevel(cg.pi, cg.zc, ms)
	if lv == nil {
		return nil
	}
	defer lv.close()
	// Z3's resource count is global to the context: the level's work is
	// what it grew by since the level started.
	base := cg.work
	budget := float64(levelWork)
	if ms.arith() > 0 {
		budget = arithLevelWork
	}
	for _, e := range cg.seen {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		lv.addExample(e)
	}
	for len(cg.found) < cg.max {
		lv.s.SetResourceLimit(uint(max(budget-(cg.work-base), 1)))
		res, err := lv.s.Check(ctx)
		if n, ok := lv.s.Statistic("rlimit count"); ok && n > cg.work {
			cg.work = n
		}
		switch {
		case res == z3.Unsat:
			return nil
		case err != nil:
			if ctx.Err() != nil {
				return ctx.Err()
			}
			var ue *z3.UnknownError
			if errors.As(err, &ue) {
				return nil // out of work or time: give up on this level only
			}
			return err
		}
		m := lv.s.Model()
		t, block, err := lv.decode(m)
		m.Close()
		if err != nil {
			if block == (z3.Expr{}) {
				return err
			}
			lv.s.Assert(block)
			continue
		}
		e := counterexample(cg.p, t)
		switch {
		case e < 0:
			cg.fits++
			if t := orient(cg.p, snapLiterals(cg.p, t)); !cg.reject(t) {
				cg.found = append(cg.found, t)
			}
			lv.s.Assert(block)
		case lv.added[e]:
			// The solver's semantics and Go's disagree on an example it
			// has seen (float rounding, int64 overflow): drop the shape.
			lv.s.Assert(block)
		default:
			cg.addSeen(e)
			lv.addExample(e)
		}
	}
	return nil
}

// orient returns the variant of t, among those swapping the operands of
// comparisons (a < b as b > a) and of && and ||, that Rank puts first
// (closest to the original condition) and still satisfies every example (a
// swapped && may read a missing value). The encoding fixes one operand
// order to avoid symmetric solutions; this gives back the order the
// developer wrote.
func orient(p *Problem, t *Term) *Term {
	var cands []Candidate
	for _, v := range variants(t) {
		cands = append(cands, Candidate{Term: v, Source: v.Source(p.Spec), Size: v.Size()})
	}
	Rank(p.Spec, cands)
	for _, c := range cands {
		if c.Term == t || counterexample(p, c.Term) < 0 {
			return c.Term
		}
	}
	return t
}

// variants lists t and the terms equal to it up to swapped operands of
// comparisons, && and ||, in a fixed order.
func variants(t *Term) []*Term {
	switch t.Op {
	case OpInput, OpConst, OpLit:
		return []*Term{t}
	case OpNot:
		var out []*Term
		for _, a := range variants(t.Args[0]) {
			out = append(out, NotTerm(a))
		}
		return out
	}
	var out []*Term
	for _, a := range variants(t.Args[0]) {
		for _, b := range variants(t.Args[1]) {
			out = append(out, BinTerm(t.Op, a, b))
			switch {
			case t.Op == OpAnd || t.Op == OpOr:
				out = append(out, BinTerm(t.Op, b, a))
			case mirror[t.Op] != 0:
				out = append(out, BinTerm(mirror[t.Op], b, a))
			}
		}
	}
	return out
}

// snapLiterals replaces the invented literals of t by code constants where
// t still satisfies every example: first a constant of the same value, then
// the first one in the spec's order that fits (n < 37 becomes n < max when
// max is 40 and no example lies between).
func snapLiterals(p *Problem, t *Term) *Term {
	var lits []*Term
	// groups are, for a literal compared with an input, the input's
	// enumerations (Input.Groups).
	groups := map[*Term][]string{}
	var walk func(*Term)
	walk = func(u *Term) {
		if u.Op == OpLit {
			lits = append(lits, u)
		}
		if len(u.Args) == 2 {
			for i := range 2 {
				if x, lit := u.Args[i], u.Args[1-i]; x.Op == OpInput && lit.Op == OpLit {
					groups[lit] = p.Spec.Inputs[x.Index].Groups
				}
			}
		}
		for _, a := range u.Args {
			walk(a)
		}
	}
	walk(t)
	for _, lit := range lits {
		saved := *lit
		var same, other []int
		for j, c := range p.Spec.Constants {
			switch {
			case c.Value == saved.Lit:
				same = append(same, j)
			case c.Value.Kind == saved.Lit.Kind,
				saved.Lit.Kind == Float && ConstTerm(j).IsIntLiteral(p.Spec):
				other = append(other, j)
			}
		}
		// Of the constants of the literal's value, the names of the
		// enumerations the input is compared with come first, then those
		// of no enumeration, then the names of other enumerations:
		// uniseg's sentence-break state is compared with sbATerm, not
		// gcPe of the same value.
		if gs := groups[lit]; len(gs) > 0 {
			rank := func(j int) int {
				switch g := p.Spec.Constants[j].Group; {
				case slices.Contains(gs, g):
					return 0
				case g == "":
					return 1
				}
				return 2
			}
			slices.SortStableFunc(same, func(a, b int) int { return rank(a) - rank(b) })
		}
		for _, j := range append(same, other...) {
			*lit = *ConstTerm(j) // t is ours: decode built it
			if counterexample(p, t) < 0 {
				break
			}
			*lit = saved
		}
	}
	return t
}
