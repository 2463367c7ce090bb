package nopol

import (
	"cmp"
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
	was, need := originalAtFailing(spec, orig, failing)
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
		if changes, ok := fewerChanges(spec, was, t, failing, need); ok {
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

// originalAtFailing returns the original's outcome (orig) at each
// failing test's example of spec (nil at a passing test's, or where it
// does not evaluate), and the failing tests whose examples need another
// outcome somewhere: the first candidate changes those, and each must
// keep a change.
func originalAtFailing(spec *synth.Spec, orig *synth.Term, failing map[string]bool) (was []*bool, need map[string]bool) {
	was = make([]*bool, len(spec.Examples))
	need = map[string]bool{}
	for i, ex := range spec.Examples {
		if !failing[ex.Origin] {
			continue
		}
		if w, err := outcome(spec, orig, &ex); err == nil {
			was[i] = &w
			if w != ex.Want {
				need[ex.Origin] = true
			}
		}
	}
	return was, need
}

// fewerChanges reports whether t gives every passing test's example of
// spec its outcome and every failing test's (failing) the outcome it
// needs or the original's (was, originalAtFailing), missing one at
// least, and changes the original's outcome at a state of every failing
// test in need; changes counts the failing tests' states where it
// changes the original's.
func fewerChanges(spec *synth.Spec, was []*bool, t *synth.Term, failing, need map[string]bool) (changes int, ok bool) {
	missed := false
	changed := map[string]bool{}
	for i, ex := range spec.Examples {
		now, err := outcome(spec, t, &ex)
		if err != nil {
			return 0, false
		}
		if !failing[ex.Origin] {
			if now != ex.Want {
				return 0, false
			}
			continue
		}
		if was[i] == nil {
			return 0, false
		}
		switch {
		case now == ex.Want && *was[i] != now:
			changes++
			changed[ex.Origin] = true
		case now != ex.Want && *was[i] != now:
			// Neither the needed outcome nor the original's.
			return 0, false
		case now != ex.Want:
			missed = true
		}
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
		if equality(a[i].Op) != equality(b[i].Op) {
			return 1
		}
	}
	return 0
}
