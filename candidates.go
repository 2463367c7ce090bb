package nopol

import (
	"cmp"
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"slices"
	"strings"

	"github.com/nopol-go/nopol/angelic"
	"github.com/nopol-go/nopol/collect"
	"github.com/nopol-go/nopol/internal/astname"
	"github.com/nopol-go/nopol/internal/tokens"
	"github.com/nopol-go/nopol/synth"
)

// Candidates at one site: synthesized from the spec, ranked with the
// mutants of the original that fit it, anti-patterns left out, then
// validated.

// specifyAndValidate records the examples of the site under needs,
// synthesizes candidates and validates them.
func (r *repairer) specifyAndValidate(ctx context.Context, site collect.Site, st style, needs []angelic.Need, rep *SiteReport) (bool, error) {
	r.enter(phaseSnapshot)
	snapped, err := r.snapshot(ctx, site, st, needs, rep)
	if err != nil {
		return false, err
	}
	spec, sum, why := snapped.spec, snapped.sum, snapped.why
	rep.Examples, rep.Distinct = sum.Examples, sum.Distinct
	sibling := r.siblingGuard(site, st, spec)
	bounds := r.boundsCandidates(site, st, spec)
	if spec == nil {
		if sibling != nil || bounds != nil {
			r.logf("snapshot: %s; validating %s alone", why, plural(len(sibling)+len(bounds), "candidate"))
			r.ranked, r.spec = slices.Concat(bounds, sibling), nil
			return r.validate(ctx, site, st, r.ranked, rep)
		}
		rep.Outcome = why
		return false, nil
	}
	// When every state needs the same outcome, any condition constant on
	// them fits: only a change of the original condition, reading all of
	// its operands, has a claim to be the fix.
	var keep []int
	if sum.Constant() && site.Kind == collect.Cond {
		relaxed, either, err := r.relaxedCondSpec(ctx, site, st, spec)
		if err != nil {
			return false, err
		}
		if relaxed != nil {
			rep.Relaxed = either
			spec = relaxed
			if snapped.changed != nil {
				snapped.changed = withoutOrigins(snapped.changed, either)
				snapped.changedSum = specSummary(snapped.changed)
			}
			rep.Examples, rep.Distinct = len(spec.Examples), len(spec.Examples) // one example per distinct state
		}
	}
	if sum.Constant() {
		// Where the original had that outcome already, the angelic
		// value changed nothing (snap.changed): those states do not
		// say the fix has it there.
		only, ops := onOriginalOperands(spec)
		if ops == nil {
			rep.Outcome = "no specification: " + why + " and the original's operands are not observed"
			return false, nil
		}
		r.logf("snapshot: %s; searching over the original's operands only", why)
		spec, keep = only, ops
		if snapped.changed != nil {
			r.logf("snapshot: %s of failing tests left out: their forced value is the original's", plural(snapped.unforced, "evaluation"))
			spec, _ = onOriginalOperands(snapped.changed)
			rep.Examples, rep.Distinct = snapped.changedSum.Examples, snapped.changedSum.Distinct
			snapped.changed = nil
		}
	}

	cands, dropped, err := r.synthesize(ctx, site, st, spec, keep, rep)
	if err != nil && ctx.Err() != nil {
		return false, ctx.Err()
	}
	// A branch that panics or returns an error keeps its check: when every
	// candidate deleted it (the smallest fits read other values), search
	// again over the original's operands only.
	if len(cands) == 0 && keep == nil && onlyRule(rep.Rejected, ruleGuardDeleted) {
		if only, ops := onOriginalOperands(spec); ops != nil {
			r.logf("synthesis: every candidate deletes the branch's check; searching over the original's operands only")
			spec, keep = only, ops
			cands, dropped, err = r.synthesize(ctx, site, st, spec, keep, rep)
			if err != nil && ctx.Err() != nil {
				return false, ctx.Err()
			}
		}
	}
	// No fit, or none a maintainer would merge: leave out the failing
	// tests' evaluations their angelic value did not change (snap.changed)
	// and search again.
	if len(cands) == 0 && ctx.Err() == nil && snapped.changed != nil {
		r.logf("synthesis: %s; searching again without the %s of failing tests whose forced value is the original's", synthFailure(err, rep.Rejected), plural(snapped.unforced, "evaluation"))
		changed, changedKeep := snapped.changed, []int(nil)
		if snapped.changedSum.Constant() {
			changed, changedKeep = onOriginalOperands(changed)
		}
		if changedKeep != nil || !snapped.changedSum.Constant() {
			var sub SiteReport
			more, moreDropped, moreErr := r.synthesize(ctx, site, st, changed, changedKeep, &sub)
			if moreErr != nil && ctx.Err() != nil {
				return false, ctx.Err()
			}
			if len(more) > 0 {
				cands, dropped, err, spec, keep = more, moreDropped, nil, changed, changedKeep
				rep.Examples, rep.Distinct = snapped.changedSum.Examples, snapped.changedSum.Distinct
				rep.Rejected = sub.Rejected
			}
		}
	}
	// At a check whose branch panics or returns an error, every fit
	// broke an anti-pattern (the smallest delete the check): the original
	// with a clause synthesized for one of its operands that exempts
	// states from the error (clauses.go), over every observed value.
	// Where nothing fit at all, the recorded states do not say the fix
	// is here.
	if len(cands) == 0 && ctx.Err() == nil && errorCheck(site) && snapped.spec != nil && len(rep.Rejected) > 0 {
		r.logf("synthesis: %s; synthesizing a clause for one of the original's operands", synthFailure(err, rep.Rejected))
		var sub SiteReport
		if more := r.clauseCandidates(ctx, site, st, snapped.spec, &sub); len(more) > 0 {
			cands, err, spec, keep = more, nil, snapped.spec, nil
			rep.Examples, rep.Distinct = sum.Examples, sum.Distinct
			rep.Rejected = sub.Rejected
		}
	}
	// A guard around the statement where no condition fits, or every
	// fit is a disguised deletion: the passing tests' examples say "runs"
	// only because nothing guarded the statement. Leave out those of the
	// tests that pass with it skipped; if one fails, deleting it does not
	// pass the suite, and a guard reading what it assigns may stand.
	// Search again.
	if len(cands) == 0 && ctx.Err() == nil && keep == nil && st.guard == collect.GuardWrap && (err != nil || onlyRule(rep.Rejected, ruleConditionalDeletion)) {
		relaxed, either, needed, rerr := r.relaxedGuardSpec(ctx, site, st, spec)
		if rerr != nil {
			return false, rerr
		}
		if needed {
			r.needed[site.ID] = true
		}
		if relaxed != nil && (len(either) > 0 || needed) {
			rep.Relaxed, rep.Rejected = either, nil
			spec = relaxed
			cands, dropped, err = r.synthesize(ctx, site, st, spec, keep, rep)
			if err != nil && ctx.Err() != nil {
				return false, ctx.Err()
			}
		}
	}
	if simpler, relaxed, err := r.simplerGuard(ctx, site, st, spec, keep, cands, rep); err != nil {
		return false, err
	} else if simpler != nil {
		cands, spec = append(simpler, cands...), relaxed
	}
	if closer, relaxed, err := r.closerMutants(ctx, site, st, spec, cands, rep); err != nil {
		return false, err
	} else if closer != nil {
		cands, spec = append(closer, slices.DeleteFunc(cands, func(c candidate) bool { return hasSource(closer, c.src) })...), relaxed
	}
	fewer := r.fewerClauses(site, st, spec, cands)
	// The bounds checks and the sibling's guard were read over the spec
	// as recorded; it may since have been restricted to the original's
	// operands, whose inputs are other: read them again over the spec
	// they are ranked and explained with (mux's seeded addRegexpMatcher:
	// a bounds check's term read input 4 of a spec of 3, and nopol
	// panicked in the explanation).
	cands = withBounds(withSibling(r.withGuesses(site, st, spec, keep, needs, cands), termsOver(spec, sibling)), termsOver(spec, bounds))
	cands = append(r.leastChange(site, st, spec, keep, cands), cands...)
	switch {
	case len(cands) > 0:
	case len(rep.Rejected) > 0:
		rep.Outcome = fmt.Sprintf("every candidate breaks an anti-pattern (%s)", strings.Join(rep.Rejected, " | "))
		return false, nil
	case err != nil:
		rep.Outcome = "synthesis: " + err.Error()
		return false, nil
	default:
		rep.Outcome = fmt.Sprintf("synthesis: no candidate reads all of the original's operands (%s)", strings.Join(dropped, " | "))
		return false, nil
	}
	r.logf("synthesis: %d examples (%d distinct), %s: %s", rep.Examples, rep.Distinct, plural(len(cands), "candidate"), describeCandidates(cands))
	r.ranked, r.spec = cands, spec
	done, err := r.validate(ctx, site, st, cands, rep)
	if err != nil || !done || len(fewer) == 0 || r.patchedFrom != fewer[0].from {
		return done, err
	}
	// The patch is the chain fewer were made from: the first of them
	// that passes the suite replaces it; when none does, it stands.
	for i, c := range fewer {
		ok, _, err := r.tryPatch(ctx, site, st, c, fmt.Sprintf("with a clause deleted %d/%d", i+1, len(fewer)), rep)
		if err != nil || ok {
			return true, err
		}
	}
	return true, nil
}

// synthFailure says why a synthesis gave no candidate: err, or the
// anti-patterns of every fit (rejected).
func synthFailure(err error, rejected []string) string {
	switch {
	case len(rejected) > 0:
		return "every fit breaks an anti-pattern"
	case err != nil:
		return "no fit"
	}
	return "no fit reads all of the original's operands"
}

// simplerGuard returns, at a new guard around a statement or before it
// (an exit) whose first candidate joins clauses, the smaller candidates
// that fit once the passing tests that pass with the statement skipped
// are left out (relaxedGuardSpec), and that spec: their examples say
// "runs" only because nothing guarded the statement, and the clause a fit
// adds for them fits their inputs, not a need (color's unset:
// `c.isNoColorSet() && len(colorsCache) <= 0` where the developer wrote
// c.isNoColorSet()). They are validated first. nil when there is nothing
// smaller.
func (r *repairer) simplerGuard(ctx context.Context, site collect.Site, st style, spec *synth.Spec, keep []int, cands []candidate, rep *SiteReport) ([]candidate, *synth.Spec, error) {
	if len(cands) == 0 || cands[0].term == nil || keep != nil || (st.name != "guard" && st.name != "return") || ctx.Err() != nil {
		return nil, nil, nil
	}
	if op := cands[0].term.Op; op != synth.OpAnd && op != synth.OpOr {
		return nil, nil, nil
	}
	relaxed, either, needed, err := r.relaxedGuardSpec(ctx, site, st, spec)
	if err != nil || relaxed == nil || len(either) == 0 {
		return nil, nil, err
	}
	if needed {
		r.needed[site.ID] = true
	}
	var sub SiteReport
	simpler, _, err := r.synthesize(ctx, site, st, relaxed, nil, &sub)
	if err != nil && ctx.Err() != nil {
		return nil, nil, ctx.Err()
	}
	size := cands[0].term.Size()
	simpler = slices.DeleteFunc(simpler, func(c candidate) bool { return c.term == nil || c.term.Size() >= size })
	if len(simpler) == 0 {
		return nil, nil, nil
	}
	rep.Relaxed = either
	for _, t := range either {
		rep.Unchecked = append(rep.Unchecked, t+": every evaluation, with the statement skipped")
	}
	r.logf("synthesis: %s fits once the passing tests that pass with the statement skipped are left out (%s); validated before %s", simpler[0].src, strings.Join(either, ", "), cands[0].src)
	return simpler, relaxed, nil
}

// fewerClauses returns the first candidate, when synthesized with clauses
// joined by && or ||, with one of them deleted, where that gives every
// passing test's recorded state its outcome and misses only states of
// failing tests (candidate.from names the first candidate), those that
// miss the fewest first. When that first candidate is the patch, they
// are validated after it, and the first of them that passes the suite is
// the patch instead: a chain the suite does not accept is never replaced
// by a deletion it does (toml's eindirect-3: `!isMarshaler(v) &&
// (isNil(v) || isUnifiable(v))` fails, `!isMarshaler(v) && isNil(v)`
// passes and is wrong). A failing test's outcomes are those of one assignment
// the angelic search found to pass, not the only one: where it did not
// matter, the value forced says nothing, and a clause that fits it fits
// the test's input (semver's seeded Compare, a guard `return 1` removed:
// `o.Minor < v.Minor && v.Minor >= v.Patch`, whose second clause only
// fits one evaluation of TestParseRange that passes either way, where
// `o.Minor < v.Minor` was the fix). nil when there is none.
func (r *repairer) fewerClauses(site collect.Site, st style, spec *synth.Spec, cands []candidate) []candidate {
	if spec == nil || len(cands) == 0 || cands[0].term == nil || cands[0].method != "synthesis" {
		return nil
	}
	if op := cands[0].term.Op; op != synth.OpAnd && op != synth.OpOr {
		return nil
	}
	failing := r.failingNames()
	type deletion struct {
		c      candidate
		missed int // states of failing tests it misses
	}
	var found []deletion
	for _, src := range deletions(cands[0].src) {
		if hasSource(cands, src) || slices.ContainsFunc(found, func(d deletion) bool { return d.c.src == src }) || src == site.Original {
			continue
		}
		t, err := synth.ParseTerm(spec, src)
		if err != nil {
			continue
		}
		missed := 0
		fits := true
		for _, ex := range spec.Examples {
			if synth.Satisfies(spec, t, []synth.Example{ex}) {
				continue
			}
			if !failing[ex.Origin] {
				fits = false
				break
			}
			missed++
		}
		if !fits || missed == 0 {
			continue
		}
		c := candidate{src: src, term: t, method: "synthesis", from: cands[0].src}
		if why := r.antiPatternOf(site, st, spec, c); why != "" {
			continue
		}
		found = append(found, deletion{c, missed})
	}
	slices.SortStableFunc(found, func(a, b deletion) int { return cmp.Compare(a.missed, b.missed) })
	var out []candidate
	for _, d := range found {
		out = append(out, d.c)
	}
	if len(out) > 0 {
		r.logf("synthesis: %s misses only states of failing tests whose angelic values may not matter there; validated after %s if it passes", describeCandidates(out), cands[0].src)
	}
	return out
}

// closerMutants returns, at a condition whose first candidate is more
// than a one-token change of the original, the mutants of the original
// closer to it that fit every example of the failing tests and miss only
// examples of passing tests that still pass with the other outcome
// forced at the site (passWithOther, one run per test, whose examples
// must then all need one outcome), and spec without those tests'
// examples. Such examples say what the original gave where the test does
// not look, not what it needs: color's seeded Fprint, `err == nil {
// return n, err }` for `err != nil`, was "repaired" by `err == nil &&
// NoColor`, the clause fitting a passing test's state where returning
// early changes nothing it checks, where the negation was the fix. They
// are validated first. nil when there is none.
func (r *repairer) closerMutants(ctx context.Context, site collect.Site, st style, spec *synth.Spec, cands []candidate, rep *SiteReport) ([]candidate, *synth.Spec, error) {
	if site.Kind != collect.Cond || st.name != "cond" || spec == nil || len(cands) == 0 || r.opts.NoMutants || ctx.Err() != nil {
		return nil, nil, nil
	}
	// The mutants that fit the failing tests' examples only
	// (simplifications) are not fits: the first fit decides, and such a
	// mutant is validated here again with what passWithOther says of the
	// passing tests it misses.
	cands = slices.DeleteFunc(slices.Clone(cands), func(c candidate) bool { return fitsFailingOnly(spec, c) })
	if len(cands) == 0 {
		return nil, nil, nil
	}
	first := synth.EditDistance(cands[0].src, site.Original)
	if first <= 1 {
		return nil, nil, nil
	}
	failing := r.failingNames()
	// Each passing test's examples need one outcome (wants) or both.
	wants := map[string]map[bool]bool{}
	for _, ex := range spec.Examples {
		if !failing[ex.Origin] {
			if wants[ex.Origin] == nil {
				wants[ex.Origin] = map[bool]bool{}
			}
			wants[ex.Origin][ex.Want] = true
		}
	}
	type near struct {
		c      candidate
		missed []string
		// examples is how many examples it misses.
		examples int
	}
	var nears []near
	for _, src := range mutants(site.Original) {
		if synth.EditDistance(src, site.Original) >= first || hasForm(cands, src) {
			continue
		}
		t, err := synth.ParseTerm(spec, src)
		if err != nil {
			continue
		}
		var missed []string
		ok, examples := true, 0
		for _, ex := range spec.Examples {
			if synth.Satisfies(spec, t, []synth.Example{ex}) {
				continue
			}
			if failing[ex.Origin] || len(wants[ex.Origin]) != 1 {
				ok = false
				break
			}
			examples++
			if !slices.Contains(missed, ex.Origin) {
				missed = append(missed, ex.Origin)
			}
		}
		if ok && len(missed) > 0 {
			nears = append(nears, near{candidate{src: src, term: t, method: "mutation"}, missed, examples})
		}
	}
	if len(nears) == 0 {
		return nil, nil, nil
	}
	// Those that miss fewer of the recorded states first: the states a
	// relaxed test left out still say what the original gave there.
	slices.SortStableFunc(nears, func(a, b near) int { return a.examples - b.examples })
	// The tests those mutants miss, by the outcome their examples need,
	// run with the other one forced.
	var either []string
	for _, want := range []bool{false, true} {
		var origins []string
		for _, n := range nears {
			for _, o := range n.missed {
				if wants[o][want] && !slices.Contains(origins, o) {
					origins = append(origins, o)
				}
			}
		}
		if len(origins) == 0 {
			continue
		}
		only := *spec
		only.Examples = slices.DeleteFunc(slices.Clone(spec.Examples), func(ex synth.Example) bool { return !slices.Contains(origins, ex.Origin) })
		passed, _, err := r.passWithOther(ctx, site, st, &only, !want, "with the other outcome forced")
		if err != nil {
			return nil, nil, err
		}
		either = append(either, passed...)
	}
	slices.Sort(either)
	relaxed := withoutOrigins(spec, either)
	var out []candidate
	for _, n := range nears {
		if slices.ContainsFunc(n.missed, func(o string) bool { return !slices.Contains(either, o) }) {
			continue
		}
		if why := r.antiPatternOf(site, st, relaxed, n.c); why != "" {
			r.logf("rejected `%s`: %s", n.c.src, why)
			continue
		}
		out = append(out, n.c)
	}
	if len(out) == 0 {
		return nil, nil, nil
	}
	// As in the fallback, a mutant whose changed comparison the file
	// writes elsewhere goes first (written.go).
	out = oddIndexLast(site.Original, symmetricFirst(site.Original, writtenFirst(site, r.prog.Sites, out)))
	rep.Relaxed = either
	rep.Examples, rep.Distinct = len(relaxed.Examples), len(relaxed.Examples) // one example per distinct state
	r.logf("synthesis: %s fits once the passing tests that pass with the other outcome forced are left out (%s); validated before %s", describeCandidates(out), strings.Join(either, ", "), cands[0].src)
	return out, relaxed, nil
}

// siblingGuard is, for a sibling's return (collect.StrategySibling), that
// sibling's guard as a candidate, and for a twin guard's exit
// (collect.StrategyTwin) the twin's condition, method "twin" (see
// withSibling for their rank). It may read what is not observed (v.Type() != timeType), and it is validated
// even when no state was recorded. nil for other styles, or when the
// guard breaks an anti-pattern.
func (r *repairer) siblingGuard(site collect.Site, st style, spec *synth.Spec) []candidate {
	method := map[string]string{collect.StrategySibling: "sibling", collect.StrategyTwin: "twin"}[st.strategy]
	if st.name != "return" || method == "" {
		return nil
	}
	e, ok := exitOf(site, st.guard)
	if !ok || e.Guard == "" {
		return nil
	}
	c := candidate{src: e.Guard, method: method}
	if spec != nil {
		if t, err := synth.ParseTerm(spec, c.src); err == nil {
			c.term = t
		}
	}
	if why := r.antiPatternOf(site, st, spec, c); why != "" {
		r.logf("rejected the sibling's guard `%s`: %s", c.src, why)
		return nil
	}
	return []candidate{c}
}

// withSibling ranks the sibling's guard (none or one) first among cands,
// the synthesized candidates: a condition the package already writes
// for this exit beats a new one that fits the recorded states (go-toml's
// unmarshalDateTime: `v.Kind() == reflect.Map`, the kind of the failing
// test's target, before its sibling's `v.Kind() != reflect.Interface &&
// v.Type() != timeType`). Only the synthesized candidates that are the
// sibling's guard with a clause dropped come before it: the recorded
// states support the smaller condition (unmarshalLocalTime needs `v.Kind()
// != reflect.Interface`; its sibling unmarshalLocalDate also lets a
// time.Time through, which a local time cannot be set to).
func withSibling(cands, sibling []candidate) []candidate {
	if len(sibling) == 0 {
		return cands
	}
	smaller := map[string]bool{}
	for _, d := range deletions(sibling[0].src) {
		smaller[normalExpr(d)] = true
	}
	var first, rest []candidate
	for _, c := range cands {
		switch n := normalExpr(c.src); {
		case n == normalExpr(sibling[0].src):
		case smaller[n]:
			first = append(first, c)
		default:
			rest = append(rest, c)
		}
	}
	return slices.Concat(first, sibling, rest)
}

// withGuesses adds to cands the observed predicates that a failing test
// passed with, forced at every evaluation (angelic.Force.Guess: needs
// from the per-evaluation search), as written: the one candidate whose
// value at every evaluation a run checked, where synthesis finds any fit
// of the recorded states (go-toml's Node.Child: the guess `n.child < 0`
// passes; `n.child <= 0` fits the states too, and reads index 0 as no
// child). A guess that fits the recorded states comes first; one that
// does not (another failing test's values, from fragments forced
// constant) before the first candidate far from the original
// (farFromOriginal: go-toml's `n.child == 0` before `n.child == 0 &&
// n.Kind != KeyValue`). The other candidates keep their order. A guess
// that breaks an anti-pattern, or does not read keep, is left out.
func (r *repairer) withGuesses(site collect.Site, st style, spec *synth.Spec, keep []int, needs []angelic.Need, cands []candidate) []candidate {
	var fit, unfit []candidate
	for _, nd := range needs {
		src := nd.Force.Guess
		if src == "" || site.Kind != collect.Cond || hasForm(fit, src) || hasForm(unfit, src) {
			continue
		}
		c := candidate{src: src, method: "guess"}
		if spec != nil {
			t, err := synth.ParseTerm(spec, src)
			if err != nil || !readsAll(t, keep) {
				continue
			}
			c.term = t
		}
		if why := r.antiPatternOf(site, st, spec, c); why != "" && !strings.HasPrefix(why, ruleUnrelated+":") {
			r.logf("rejected the guess `%s`: %s", src, why)
			continue
		}
		if c.term != nil && synth.Satisfies(spec, c.term, spec.Examples) {
			fit = append(fit, c)
		} else {
			unfit = append(unfit, c)
		}
	}
	if len(fit)+len(unfit) == 0 {
		return cands
	}
	rest := slices.DeleteFunc(slices.Clone(cands), func(c candidate) bool { return hasForm(fit, c.src) || hasForm(unfit, c.src) })
	at := slices.IndexFunc(rest, func(c candidate) bool { return farFromOriginal(site, c) })
	if at < 0 {
		at = len(rest)
	}
	return slices.Concat(fit, rest[:at], unfit, rest[at:])
}

// withBounds ranks the bounds candidates first among cands (their
// duplicates among cands dropped): the check the runtime made when the
// failing test panicked in the condition beats a condition that fits the
// recorded states otherwise (go-toml's parseFloat: `cleaned[start] == '0'
// && dotAlreadySeen && isDigit(cleaned[start+1])` fits them too, and
// accepts "+05e3").
func withBounds(cands, bounds []candidate) []candidate {
	if len(bounds) == 0 {
		return cands
	}
	rest := slices.DeleteFunc(slices.Clone(cands), func(c candidate) bool {
		return slices.ContainsFunc(bounds, func(b candidate) bool { return normalExpr(b.src) == normalExpr(c.src) })
	})
	return slices.Concat(bounds, rest)
}

// termsOver returns cands with each term read again over spec (nil
// where it cannot be); the candidates without a term keep none.
func termsOver(spec *synth.Spec, cands []candidate) []candidate {
	out := slices.Clone(cands)
	for i := range out {
		if out[i].term == nil {
			continue
		}
		out[i].term = nil
		if t, err := synth.ParseTerm(spec, out[i].src); err == nil {
			out[i].term = t
		}
	}
	return out
}

// normalExpr is src as types.ExprString prints it, src itself when it
// does not parse.
func normalExpr(src string) string {
	e, err := parser.ParseExpr(src)
	if err != nil {
		return src
	}
	return types.ExprString(e)
}

// synthesize solves spec and returns the candidates that read the inputs
// keep, ranked with the mutants and simplifications of the original that
// fit, anti-patterns left out (noted in rep); dropped are the solutions
// that did not read keep.
func (r *repairer) synthesize(ctx context.Context, site collect.Site, st style, spec *synth.Spec, keep []int, rep *SiteReport) (cands []candidate, dropped []string, err error) {
	r.enter(phaseSynthesis)
	types := operandTypes(site)
	// The search skips the fits that do not compile, do not read keep
	// (dropped) or break an anti-pattern, and goes on past them: a
	// smaller fit that breaks an anti-pattern does not end the search
	// before the fit a maintainer would write (len(s) > 5 || strict
	// rejected, len(s) > 5 || len(s) < 1 found).
	seen := map[string]bool{}
	var moreRules []string // the rules of the rejections not listed
	// The original with an operand of its && or || deleted reads less
	// than all of it and is still a change of it (mux's Route.Schemes:
	// `r.buildScheme == "" && len(schemes) > 0` made len(schemes) > 0).
	isDeletion := func(string) bool { return false }
	if keep != nil && site.Kind == collect.Cond {
		isDeletion = deletionOf(site.Original)
	}
	reject := func(t *synth.Term) string {
		named := namedConstants(spec, types, t)
		src := named.Source(spec)
		if why := mismatchedTypes(spec, types, t); why != "" {
			r.vlogf("synthesis: %s dropped: %s", src, why)
			return why
		}
		if !readsAll(t, keep) && !isDeletion(src) {
			if !slices.Contains(dropped, src) {
				dropped = append(dropped, src)
			}
			return "does not read the original's operands"
		}
		why := r.antiPatternOf(site, st, spec, candidate{src: src, term: named, method: "synthesis"})
		if why != "" && !strings.HasPrefix(why, ruleUnrelated+":") {
			if !seen[src] {
				seen[src] = true
				if len(seen) <= maxRejectedShown {
					rep.Rejected = append(rep.Rejected, src+": "+why)
				} else if rule, _, _ := strings.Cut(why, ":"); !slices.Contains(moreRules, rule) {
					moreRules = append(moreRules, rule)
				}
				r.logf("rejected `%s`: %s", src, why)
			}
			return why
		}
		return ""
	}
	var stats synth.Stats
	opts := synth.Options{Backend: r.opts.Backend, MaxCandidates: r.opts.MaxCandidates, Timeout: synthTimeout, Reject: reject, Stats: &stats}
	solved, err := synth.Solve(ctx, spec, opts)
	if err != nil && ctx.Err() != nil {
		return nil, nil, err
	}
	if stats.TimeBound > 0 {
		r.timeBound("synthesis")
		r.vlogf("synthesis: a wall-clock bound ended the search (%s, after %.0f units of work): a faster or idler machine may find other candidates", plural(stats.TimeBound, "time"), stats.Work)
	}
	if more := len(seen) - maxRejectedShown; more > 0 {
		slices.Sort(moreRules)
		rep.Rejected = append(rep.Rejected, fmt.Sprintf("%d more rejected in the search: %s", more, strings.Join(moreRules, ", ")))
	}
	for _, c := range solved { // each passed reject
		t := namedConstants(spec, types, c.Term)
		if src := t.Source(spec); !hasForm(cands, src) {
			cands = append(cands, candidate{src: src, term: t, method: "synthesis"})
		}
	}
	cands = emptinessFirst(spec, cands)
	if site.Kind == collect.Cond && !r.opts.NoMutants {
		cands = withMutants(cands, oddIndexLast(site.Original, symmetricFirst(site.Original, r.agreeingMutants(site, spec, keep))), site.Original)
		cands = withSimplifications(cands, r.simplifications(site, spec, keep, cands), originalOperands(spec))
	}
	cands = r.rejectAntiPatterns(site, st, spec, cands, rep)
	if site.Kind == collect.Cond {
		closer := deletionsCloser(spec, cands, site.Original)
		if !sameSources(closer, cands) {
			r.vlogf("ranking: a deletion of the original changes its outcome on fewer states near the recorded ones than a candidate before it: %s", describeCandidates(closer))
		}
		cands = closer
		// Here only the mutants that delete (&& for ||, a disjunct
		// dropped) rank last: a clause added to a disjunct, by synthesis
		// or an extension, is what the recorded states asked for (go-cmp's
		// SortMaps, `!isType(less) && !isType(compare) || vf.IsNil()`).
		deletes := func(c candidate) bool { return c.method == "mutation" && c.added == "" }
		if strong := weakenedLastOf(site, cands, deletes); !sameSources(strong, cands) {
			r.vlogf("ranking: a mutant that weakens the check (it implies the original: the branch panics or returns an error in fewer states, never in a new one) comes after the others: %s", describeCandidates(strong))
			cands = strong
		}
		if safer := nilSafeFirst(site, cands); !sameSources(safer, cands) {
			r.vlogf("ranking: a candidate that leaves when %s (dereferenced after the if) is nil comes before one as close to the original that lets it through: %s", strings.Join(site.Then.DerefsAfter, " or "), describeCandidates(safer))
			cands = safer
		}
	}
	if first := errorTestedFirst(site, st, cands); !sameSources(first, cands) {
		r.vlogf("ranking: a condition that tests only the error the exit returns comes before one with a clause over other values: %s", describeCandidates(first))
		cands = first
	}
	return cands, dropped, err
}

// sameSources reports whether a and b are the same candidates in the
// same order.
func sameSources(a, b []candidate) bool {
	return slices.EqualFunc(a, b, func(x, y candidate) bool { return x.src == y.src })
}

// maxRejectedShown bounds the candidates a site's report lists as
// rejected in one search (SiteReport.Rejected); the rest are counted.
const maxRejectedShown = 10

// operandTypes maps the observed expressions and the constants of site
// to their Go types (collect.Observed.Type, collect.Constant.Type).
func operandTypes(site collect.Site) map[string]string {
	out := map[string]string{}
	for _, o := range site.Observed {
		out[o.Expr] = o.Type
	}
	for _, c := range site.Constants {
		out[c.Expr] = c.Type
	}
	return out
}

// namedConstants returns t with each literal or untyped constant that
// is compared with an operand of a defined type written as the package's
// constant of that type with the same value, when there is one: kind ==
// ModulePath, not kind == 0. A maintainer names the value; synthesis
// knows values, and of two constants of the same value finds either.
func namedConstants(spec *synth.Spec, types map[string]string, t *synth.Term) *synth.Term {
	valueOf := func(u *synth.Term) (synth.Value, bool) {
		switch {
		case u.Op == synth.OpLit:
			return u.Lit, true
		case u.Op == synth.OpConst && types[spec.Constants[u.Index].Expr] == "":
			return spec.Constants[u.Index].Value, true
		}
		return synth.Value{}, false
	}
	named := func(typ string, v synth.Value) *synth.Term {
		for k, c := range spec.Constants {
			if types[c.Expr] == typ && c.Value == v {
				return synth.ConstTerm(k)
			}
		}
		return nil
	}
	var walk func(u *synth.Term) *synth.Term
	walk = func(u *synth.Term) *synth.Term {
		if len(u.Args) == 0 {
			return u
		}
		out := &synth.Term{Op: u.Op, Index: u.Index, Lit: u.Lit}
		for _, a := range u.Args {
			out.Args = append(out.Args, walk(a))
		}
		if !isComparison(u.Op) {
			return out
		}
		for i := range 2 {
			x, c := out.Args[i], out.Args[1-i]
			if x.Op != synth.OpInput || types[spec.Inputs[x.Index].Expr] == "" || predeclared(types[spec.Inputs[x.Index].Expr]) {
				continue // not a defined type: n < 1 is not n < Max
			}
			if v, ok := valueOf(c); ok {
				if k := named(types[spec.Inputs[x.Index].Expr], v); k != nil {
					out.Args[1-i] = k
				}
			}
		}
		return out
	}
	return walk(t)
}

// mismatchedTypes returns why t does not compile in Go, or "": synthesis
// knows kinds, not types, and compares an int with a reflect.Kind
// constant (lt.Minute == reflect.Interface) or a byte with an int.
// Untyped constants and literals, and operands whose type is not known,
// go with anything.
func mismatchedTypes(spec *synth.Spec, types map[string]string, t *synth.Term) (why string) {
	var typeOf func(t *synth.Term) string
	typeOf = func(t *synth.Term) string {
		switch t.Op {
		case synth.OpInput:
			return types[spec.Inputs[t.Index].Expr]
		case synth.OpConst:
			return types[spec.Constants[t.Index].Expr]
		case synth.OpLit:
			return ""
		}
		var ts []string
		for _, a := range t.Args {
			ts = append(ts, typeOf(a))
		}
		if len(ts) == 2 && ts[0] != "" && ts[1] != "" && ts[0] != ts[1] && why == "" {
			why = fmt.Sprintf("%s: mismatched types %s and %s", t.Source(spec), ts[0], ts[1])
		}
		switch t.Op {
		case synth.OpAdd, synth.OpSub, synth.OpMul:
			return cmp.Or(ts[0], ts[1])
		}
		return ""
	}
	typeOf(t)
	return why
}

// emptinessFirst puts before each synthesized nil test of a slice or
// map, x == nil (x != nil), its test of emptiness, len(x) == 0
// (len(x) > 0), when len(x) is observed and the emptiness test gives
// every recorded state its needed outcome too: Go treats a nil and an
// empty slice alike, and a guard before x[0] must stop both (staticcheck's
// S1009 makes the same point).
func emptinessFirst(spec *synth.Spec, cands []candidate) []candidate {
	var out []candidate
	for _, c := range cands {
		if alt := emptinessOf(c.src); alt != "" && c.method == "synthesis" && !hasSource(out, alt) {
			if t, err := synth.ParseTerm(spec, alt); err == nil && synth.Satisfies(spec, t, spec.Examples) && readsLen(spec, t) {
				out = append(out, candidate{src: alt, term: t, method: "synthesis"})
			}
		}
		if !hasSource(out, c.src) {
			out = append(out, c)
		}
	}
	return out
}

// emptinessOf returns the test of emptiness of x for src x == nil or
// x != nil, "" for any other src.
func emptinessOf(src string) string {
	e, err := parser.ParseExpr(src)
	if err != nil {
		return ""
	}
	b, ok := e.(*ast.BinaryExpr)
	if !ok || b.Op != token.EQL && b.Op != token.NEQ {
		return ""
	}
	x := nilChecks(b)
	if len(x) != 1 {
		return ""
	}
	for operand := range x {
		if b.Op == token.EQL {
			return "len(" + operand + ") == 0"
		}
		return "len(" + operand + ") > 0"
	}
	return ""
}

// readsLen reports whether t reads an observed len(...): the emptiness
// test is over an input, not a term the parser built.
func readsLen(spec *synth.Spec, t *synth.Term) bool {
	return slices.ContainsFunc(inputsRead(t), func(i int) bool { return strings.HasPrefix(spec.Inputs[i].Expr, "len(") })
}

// agreeingMutants are the mutants of site's original condition that give
// every recorded state of spec its needed outcome (and read the inputs
// keep, as synthesized candidates must).
//
// The original with an operand replaced by an alternate the function
// writes (collect.Site.Alternates) is one of them when it agrees too, and
// when the alternate was not recorded (a method call the collection does
// not evaluate) it is validated as written: one operand changed is as
// small an edit as a mutant's, and ranked with them it comes before a
// clause synthesized for the failing test (pflag's getFlagType,
// `reflect.TypeOf(out).Name()` where the function prints
// `reflect.TypeOf(out).String()`, was "repaired" by adding
// `&& !flag.Changed`).
func (r *repairer) agreeingMutants(site collect.Site, spec *synth.Spec, keep []int) []candidate {
	var out []candidate
	for _, src := range mutants(site.Original) {
		t, err := synth.ParseTerm(spec, src)
		if err != nil || !readsAllLeaves(spec, t, keep) || !synth.Satisfies(spec, t, spec.Examples) {
			continue
		}
		out = append(out, candidate{src: src, term: t, method: "mutation"})
	}
	for _, src := range site.Alternates {
		t, err := synth.ParseTerm(spec, src)
		switch {
		case err != nil:
			out = append(out, candidate{src: src, method: "mutation"})
		case readsAllLeaves(spec, t, keep) && synth.Satisfies(spec, t, spec.Examples):
			out = append(out, candidate{src: src, term: t, method: "mutation"})
		}
	}
	// The original with a clause added at one of its operands: a boolean
	// observed value the original does not read.
	// A clause over none of the original's variables would be a guess
	// (go-toml's `!f.CanSet()` is no `!(f.CanSet() || !key.IsLast())`).
	var clauses []string
	orig := originalOperands(spec)
	var shared []string
	if e, err := parser.ParseExpr(site.Original); err == nil {
		shared = namesOf(e)
	}
	for i, in := range spec.Inputs {
		// A clause that has one value at every recorded state says
		// nothing the tests check: added, it stands for a constant, and
		// the extension is the original with an operand made constant
		// (a clause dropped) in disguise (go-cmp's `&& vf.CanAddr()`,
		// false for every function value, in place of dropping the
		// type check the rules keep).
		if in.Kind != synth.Bool || slices.Contains(orig, i) || oneValue(spec, i) {
			continue
		}
		if e, err := parser.ParseExpr(in.Expr); err == nil && slices.ContainsFunc(namesOf(e), func(n string) bool { return slices.Contains(shared, n) }) {
			clauses = append(clauses, in.Expr)
		}
	}
	// Those that call what the original calls first: the same check of
	// another value (function.IsType(vf.Type(), function.Compare) beside
	// function.IsType(vf.Type(), function.Less)).
	called := calledFuncs(site.Original)
	var first, rest []string
	for _, c := range clauses {
		if slices.ContainsFunc(calledFuncs(c), func(f string) bool { return slices.Contains(called, f) }) {
			first = append(first, c)
		} else {
			rest = append(rest, c)
		}
	}
	n := 0
	for _, ext := range extensions(site.Original, append(first, rest...)) {
		if n == maxExtensions {
			break
		}
		src := ext.src
		t, err := synth.ParseTerm(spec, src)
		if err != nil || !readsAllLeaves(spec, t, keep) || !synth.Satisfies(spec, t, spec.Examples) {
			continue
		}
		out = append(out, candidate{src: src, term: t, method: "mutation", added: ext.clause})
		n++
	}
	return out
}

// oneValue reports whether input i of spec has the same value, or is
// missing, at every example.
func oneValue(spec *synth.Spec, i int) bool {
	var first *synth.Value
	for _, ex := range spec.Examples {
		v := ex.Values[i]
		if v.Missing {
			continue
		}
		if first == nil {
			first = &v
		} else if v != *first {
			return false
		}
	}
	return true
}

// calledFuncs are the functions and methods expression src calls, as
// written (function.IsType, vf.IsNil).
func calledFuncs(src string) []string {
	e, err := parser.ParseExpr(src)
	if err != nil {
		return nil
	}
	var out []string
	for _, call := range astname.Calls(e) {
		out = append(out, types.ExprString(call.Fun))
	}
	return out
}

// maxExtensions bounds the extensions of the original (a clause added)
// that fit the recorded states and are validated at a site.
const maxExtensions = 3

// simplifications are the original condition with one clause of a && or
// || deleted that give the failing tests' recorded states their needed
// outcome but not every passing test's: the recorded outcome of a passing
// test is the original condition's, not always one the test needs, and a
// developer who drops a clause changes some of them (mux's
// `r.buildScheme == "" && len(schemes) > 0` became `len(schemes) > 0`).
// After them, for the same reason, up to maxRelaxedMutants other mutants
// of the original (an operator or a literal changed; not an equality made
// an ordering) that do the same: go-toml's seeded parseValArray, `len(b)
// == 1` whose fix was `len(b) == 0`, where passing tests had recorded
// their error at len(b) == 1, was repaired by `len(b) == 1 &&
// !afterValue`, which reads a value the original does not.
// Validation on the whole suite decides; see withSimplifications for their
// rank.
func (r *repairer) simplifications(site collect.Site, spec *synth.Spec, keep []int, cands []candidate) []candidate {
	var failing []synth.Example
	for _, ex := range spec.Examples {
		if slices.ContainsFunc(r.failing, func(k testKey) bool { return k.name == ex.Origin }) {
			failing = append(failing, ex)
		}
	}
	if len(failing) == 0 {
		return nil
	}
	var out []candidate
	others := 0
	srcs := deletions(site.Original)
	deleted := len(srcs)
	for _, m := range mutantsOf(site.Original) {
		if !m.pointToRange && !slices.Contains(srcs, m.src) {
			srcs = append(srcs, m.src)
		}
	}
	for i, src := range srcs {
		if hasSource(cands, src) || i >= deleted && others == maxRelaxedMutants {
			continue
		}
		t, err := synth.ParseTerm(spec, src)
		if err != nil || !readsAll(t, keep) || !synth.Satisfies(spec, t, failing) {
			continue
		}
		out = append(out, candidate{src: src, term: t, method: "mutation"})
		if i >= deleted {
			others++
		}
	}
	return out
}

// maxRelaxedMutants bounds the mutants other than deletions that
// simplifications adds at a site.
const maxRelaxedMutants = 3

// fitsFailingOnly reports whether c is a mutant of the original that
// misses recorded states of spec: one of simplifications', which fit the
// failing tests' states only.
func fitsFailingOnly(spec *synth.Spec, c candidate) bool {
	return spec != nil && c.term != nil && c.method == "mutation" && !synth.Satisfies(spec, c.term, spec.Examples)
}

// withSimplifications ranks simplifications of the original after the
// candidates that read only the original's operands (orig) and before
// those that read another value: a condition that the tests cannot tell
// from a simpler one is more often an overfit than the fix.
func withSimplifications(cands, simpler []candidate, orig []int) []candidate {
	if len(simpler) == 0 {
		return cands
	}
	at := slices.IndexFunc(cands, func(c candidate) bool {
		return c.term != nil && slices.ContainsFunc(inputsRead(c.term), func(i int) bool { return !slices.Contains(orig, i) })
	})
	if at < 0 {
		at = len(cands)
	}
	return slices.Concat(cands[:at:at], simpler, cands[at:])
}

// withMutants is one ranking of the synthesized candidates (in synth.Rank
// order) and the mutants (fewest changes first): merged by token edit
// distance to the original, then by the names of the original the
// candidate no longer has (namesLost: `!isDigit(r)` keeps the original's
// predicate, `isControl(r)`, one token away too, swaps it for another
// that the recorded states happen to fit; BurntSushi/toml's real
// lexNumberOrDateStart, real78), then by length (fewer tokens first), a
// mutant first on a tie, so that a minimal edit of the original is
// validated before a synthesized condition further from it. A synthesized
// candidate that is also a mutant (spaced alike or not) takes the
// mutant's place and spelling, a synthesized candidate still (the rules
// for synthesized conditions apply to it): the order of the mutants
// puts a comparison's negation before its other operators and before an
// off-by-one literal (pflag's seeded `len(val) != 0`, where synthesis's
// `len(val) == 0` came after the mutant `len(val) != 1`, true for most
// values).
func withMutants(synthesized, muts []candidate, original string) []candidate {
	muts = slices.Clone(muts)
	for i, m := range muts {
		if k := indexForm(synthesized, m.src); k >= 0 {
			muts[i] = synthesized[k]
			muts[i].src, muts[i].added = m.src, m.added
		}
	}
	synthesized = slices.DeleteFunc(slices.Clone(synthesized), func(c candidate) bool { return hasForm(muts, c.src) })
	// Each candidate's distance to the original, the original's names it
	// lost, then its length, in tokens.
	dist := func(cs []candidate) [][3]int {
		d := make([][3]int, len(cs))
		for k, c := range cs {
			d[k] = [3]int{synth.EditDistance(c.src, original), namesLost(original, c.src), synth.EditDistance(c.src, "")}
		}
		return d
	}
	ds, dm := dist(synthesized), dist(muts)
	out := make([]candidate, 0, len(synthesized)+len(muts))
	i, j := 0, 0
	for i < len(synthesized) || j < len(muts) {
		if j < len(muts) && (i == len(synthesized) || slices.Compare(dm[j][:], ds[i][:]) <= 0) {
			out = append(out, muts[j])
			j++
		} else {
			out = append(out, synthesized[i])
			i++
		}
	}
	return out
}

// namesLost counts the identifiers of original that cand does not have.
func namesLost(original, cand string) int {
	have := map[string]bool{}
	toks, _ := tokens.Scan(cand)
	for _, t := range toks {
		if t.Tok == token.IDENT {
			have[t.Text] = true
		}
	}
	lost := 0
	toks, _ = tokens.Scan(original)
	for _, t := range toks {
		if t.Tok == token.IDENT && !have[t.Text] {
			lost++
			have[t.Text] = true // once per name
		}
	}
	return lost
}

// rejectAntiPatterns drops the candidates that break an anti-pattern,
// noting each in rep.Rejected, and moves those that only share none of
// the original's variables (ruleUnrelated) to the end: a developer
// sometimes rewrites a condition whole, but a closer candidate comes first.
func (r *repairer) rejectAntiPatterns(site collect.Site, st style, spec *synth.Spec, cands []candidate, rep *SiteReport) []candidate {
	var kept, last []candidate
	for _, c := range cands {
		why := r.antiPatternOf(site, st, spec, c)
		switch {
		case why == "":
			kept = append(kept, c)
		case strings.HasPrefix(why, ruleUnrelated+":"):
			c.unrelated = true
			last = append(last, c)
		default:
			if line := c.src + ": " + why; !slices.Contains(rep.Rejected, line) {
				rep.Rejected = append(rep.Rejected, line)
				r.logf("rejected `%s`: %s", c.src, why)
			}
		}
	}
	return append(kept, last...)
}

// antiPatternOf returns the anti-pattern c breaks at site in style st,
// or "".
func (r *repairer) antiPatternOf(site collect.Site, st style, spec *synth.Spec, c candidate) string {
	why := antiPattern(site, spec, c)
	if why == "" {
		why = againstExit(site, st, c)
	}
	if why == "" {
		why = reasonAbsent(site, st, spec, c)
	}
	if why == "" {
		why = againstGuard(site, st, c, r.needed[site.ID])
	}
	if why == "" && r.prog != nil {
		why = errorReplaced(r.prog.Sites, site, st, c)
	}
	if why == "" && r.prog != nil {
		why = inventedLengths(r.prog.Sites, site, c)
	}
	if why == "" && r.prog != nil {
		why = boundElsewhere(r.prog.Sites, site, st, c)
	}
	file := r.parsedFile(site.File)
	if why == "" {
		why = inventedArithmetic(file.terms, c)
	}
	if why == "" {
		why = stateSuccess(file.fset, file.file, site, st, c)
	}
	if why == "" {
		why = errorSwallowed(site, st, spec, c)
	}
	return why
}

// parsed is a file of the module as parsed, with its arithmetic terms
// (arithmeticTerms); file is nil when it cannot be read or parsed (then
// every term of two non-literal operands counts as invented).
type parsed struct {
	fset  *token.FileSet
	file  *ast.File
	terms map[string]bool
}

// parsedFile is file parsed, once per repair.
func (r *repairer) parsedFile(name string) parsed {
	if p, ok := r.files[name]; ok {
		return p
	}
	p := parsed{fset: token.NewFileSet(), terms: map[string]bool{}}
	if src, err := os.ReadFile(name); err == nil {
		if f, err := parser.ParseFile(p.fset, name, src, parser.SkipObjectResolution); err == nil {
			p.file, p.terms = f, arithmeticTerms(f)
		}
	}
	if r.files == nil {
		r.files = map[string]parsed{}
	}
	r.files[name] = p
	return p
}

// onlyRule reports whether rejected, a SiteReport.Rejected, is not empty
// and lists rejections by rule only.
func onlyRule(rejected []string, rule string) bool {
	return len(rejected) > 0 && !slices.ContainsFunc(rejected, func(why string) bool {
		return !strings.Contains(why, ": "+rule+":") && !strings.HasSuffix(why, " more rejected in the search: "+rule)
	})
}

func describeCandidates(cands []candidate) string {
	srcs := make([]string, len(cands))
	for i, c := range cands {
		srcs[i] = c.src
		if c.method == "mutation" {
			srcs[i] += " (mutant)"
		}
	}
	return strings.Join(srcs, " | ")
}

// hasSource reports whether a candidate of cands is src.
func hasSource(cands []candidate, src string) bool {
	return slices.ContainsFunc(cands, func(c candidate) bool { return c.src == src })
}

// hasForm reports whether a candidate of cands is src, spaced alike or
// not: synthesis reads s[i-1] (an atom of the original) and s[i - 1] (an
// observed value) as two inputs, and finds the same condition over each.
// (A mutant written as the original is, that synthesis found spaced
// otherwise, is not dropped for it: hasSource; withMutants.)
func hasForm(cands []candidate, src string) bool {
	return indexForm(cands, src) >= 0
}

// indexForm is the index of the first candidate of cands that is src,
// spaced alike or not (see hasForm), or -1; src is normalized once.
func indexForm(cands []candidate, src string) int {
	n := normalExpr(src)
	return slices.IndexFunc(cands, func(c candidate) bool { return c.src == src || normalExpr(c.src) == n })
}
