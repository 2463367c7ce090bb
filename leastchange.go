package nopol

import (
	"cmp"
	"go/token"
	"slices"

	"github.com/nopol-go/nopol/collect"
	"github.com/nopol-go/nopol/synth"
)

// Least change. The failing tests' recorded states need the outcome the
// angelic value forced there, and it was forced at every evaluation of a
// test (or of a failing fragment): some of those evaluations may not need
// it. The first candidate at a condition fits them all, so it changes the
// original's outcome at every one. A mutant of the original that gives
// every passing test's state its outcome and, at each failing test's
// state, either the first candidate's outcome or the original's changes
// the original at fewer states; it is validated before the first
// candidate, and when the suite passes with it the tests did not need the
// other changes: the patch that changes least is the one a reviewer can
// accept (semver's seeded ParseTolerant: `len(p) >= 1` for `len(p) < 1`
// fits every state, one-character parts forced true with the others;
// `len(p) > 1` keeps them false, as the original did, and is the fix).
// The rule for two plausible patches: prefer the one closer to
// the original.

// maxLeastChange bounds the mutants leastChange puts before the first
// candidate.
const maxLeastChange = 3

// leastChange returns the mutants of site's original condition that
// change its outcome at fewer of the failing tests' recorded states than
// cands[0] and agree with it elsewhere (see above), the closest to it
// first, at most maxLeastChange, each with leastChange set to
// cands[0]; nil when there are none or cands[0] does not fit every state.
func (r *repairer) leastChange(site collect.Site, st style, spec *synth.Spec, keep []int, cands []candidate) []candidate {
	if site.Kind != collect.Cond || st.name != "cond" || spec == nil || len(cands) == 0 || r.opts.NoMutants {
		return nil
	}
	first := cands[0]
	if first.term == nil || fitsFailingOnly(spec, first) {
		return nil
	}
	orig, err := synth.ParseTerm(spec, site.Original)
	if err != nil {
		return nil
	}
	failing := r.failingNames()
	// The failing tests whose states the first candidate changes: each
	// must keep a change.
	need := map[string]bool{}
	for _, ex := range spec.Examples {
		if was, err := outcome(spec, orig, &ex); err == nil && failing[ex.Origin] && was != ex.Want {
			need[ex.Origin] = true
		}
	}
	type scored struct {
		c       candidate
		changes int
	}
	var out []scored
	for _, m := range mutantsOf(site.Original) {
		if m.pointToRange || hasForm(cands, m.src) {
			continue
		}
		t, err := synth.ParseTerm(spec, m.src)
		if err != nil || !readsAll(t, keep) {
			continue
		}
		if changes, ok := fewerChanges(spec, orig, t, failing, need); ok {
			out = append(out, scored{candidate{src: m.src, term: t, method: "mutation", leastChange: first.src}, changes})
		}
	}
	// Those that keep most of the first candidate's changes first (the
	// next closest to it), then those that keep the kind of the
	// original's comparisons (an ordering stays an ordering: `len(p) > 1`
	// before `len(p) != 1` for `len(p) < 1`).
	slices.SortStableFunc(out, func(a, b scored) int {
		return cmp.Or(cmp.Compare(b.changes, a.changes), cmp.Compare(kindChanged(site.Original, a.c.src), kindChanged(site.Original, b.c.src)))
	})
	var kept []candidate
	for _, s := range out {
		if len(kept) == maxLeastChange {
			break
		}
		if why := r.antiPatternOf(site, st, spec, s.c); why != "" {
			r.logf("rejected `%s`: %s", s.c.src, why)
			continue
		}
		kept = append(kept, s.c)
	}
	if len(kept) > 0 {
		r.logf("synthesis: %s: fewer changes of the original's outcome at the failing tests' states than %s; validated before it", describeCandidates(kept), first.src)
	}
	return kept
}

// fewerChanges reports whether t gives every passing test's example of
// spec its outcome and every failing test's (failing) the outcome it
// needs or the original's (orig), missing one at least, and changes the
// original's outcome at a state of every failing test in need; changes
// counts the failing tests' states where it changes the original's.
func fewerChanges(spec *synth.Spec, orig, t *synth.Term, failing, need map[string]bool) (changes int, ok bool) {
	missed := false
	changed := map[string]bool{}
	for _, ex := range spec.Examples {
		now, err := outcome(spec, t, &ex)
		if err != nil {
			return 0, false
		}
		if now == ex.Want {
			if failing[ex.Origin] {
				if was, err := outcome(spec, orig, &ex); err != nil {
					return 0, false
				} else if was != now {
					changes++
					changed[ex.Origin] = true
				}
			}
			continue
		}
		// A state where t misses the needed outcome: only a failing
		// test's, where t keeps the original's.
		if !failing[ex.Origin] {
			return 0, false
		}
		if was, err := outcome(spec, orig, &ex); err != nil || was != now {
			return 0, false
		}
		missed = true
	}
	if !missed || len(changed) < len(need) {
		return 0, false
	}
	return changes, true
}

// kindChanged is 1 when mutant makes a comparison of orig an equality
// where it orders, or the reverse, 0 otherwise.
func kindChanged(orig, mutant string) int {
	a, b := comparisonsOf(orig), comparisonsOf(mutant)
	if len(a) != len(b) {
		return 0
	}
	for i := range a {
		if ordering(a[i].Op) != ordering(b[i].Op) {
			return 1
		}
	}
	return 0
}

// ordering reports whether op is <, <=, > or >=.
func ordering(op token.Token) bool {
	return op == token.LSS || op == token.LEQ || op == token.GTR || op == token.GEQ
}
