package nopol

import (
	"cmp"
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/nopol-go/nopol/angelic"
	"github.com/nopol-go/nopol/collect"
	"github.com/nopol-go/nopol/synth"
)

// Snapshots: the states recorded at a site in the passing runs and the
// failing runs with their angelic value, turned into a synthesis spec.

// snapshot runs every test reaching the site in snapshot mode (failing
// tests with their angelic value) and builds the synthesis spec, with a
// summary of the examples (see snap).
func (r *repairer) snapshot(ctx context.Context, site collect.Site, st style, needs []angelic.Need, rep *SiteReport) (snap, error) {
	var (
		runs []collect.Run
		keys []testKey
	)
	for _, nd := range needs {
		k := r.failingByID[nd.Test]
		runs = append(runs, r.forcedRun(k, site, st, nd.Force, collect.ModeSnapshot))
		keys = append(keys, k)
	}
	nFailing := len(runs)
	for _, k := range slices.Concat(r.passing, r.restKeys) {
		res, ok := r.cover[k]
		if !ok {
			continue
		}
		if c := res.Reached[site.ID]; c[0]+c[1] == 0 {
			continue
		}
		run := r.testRun(k, collect.ModeSnapshot)
		r.narrowRest(&run, k, site.ID)
		run.Sites = []int{site.ID}
		runs = append(runs, run)
		keys = append(keys, k)
	}
	r.logf("snapshot: running %s (%d failing with their angelic value)", plural(len(runs), "test"), nFailing)
	results, err := r.runAll(ctx, runs)
	r.res.Runs += len(runs)
	if err != nil {
		return snap{}, fmt.Errorf("recording states at site %d: %w", site.ID, err)
	}
	if b, ok := r.bin.(interface{ SnapshotError() error }); ok && !r.snapWarned {
		if err := b.SnapshotError(); err != nil {
			r.snapWarned = true
			r.logf("warning: the observed values cannot be recorded, the instrumented build with them failed (a nopol bug, please report it): %v", err)
		}
	}
	// A run that timed out was slow under load, or recording every
	// evaluation made it slow, or it is stuck in an observed call: run it
	// again with a longer time limit, then with the calls left out
	// (missing values). A failing test that passed with its angelic value
	// in the search must not lose its examples to a busy machine.
	hasCalls := slices.ContainsFunc(site.Observed, func(o collect.Observed) bool { return o.Call })
	rerun := func(run collect.Run) (collect.Result, error) {
		res, err := r.bin.Run(ctx, run)
		r.ran(testWork(res.TimedOut)) // counts the run in r.res.Runs too
		if err != nil {
			return res, fmt.Errorf("recording states at site %d: %w", site.ID, err)
		}
		return res, nil
	}
	for i, res := range results {
		longer := runs[i]
		longer.Timeout = snapshotRetryTimeout(runs[i].Timeout)
		retries := []collect.Run{longer}
		if hasCalls {
			noCalls := longer
			noCalls.NoCalls = true
			retries = append(retries, noCalls)
		}
		for _, again := range retries {
			if !res.TimedOut {
				break
			}
			how := fmt.Sprintf("a %s limit", again.Timeout.Round(time.Second))
			if again.NoCalls {
				how += " and without the observed calls"
			}
			r.logf("snapshot: %s timed out after %s; running it again with %s", keys[i].name, runs[i].Timeout.Round(time.Millisecond), how)
			var err error
			if res, err = rerun(again); err != nil {
				return snap{}, err
			}
		}
		// A failing test passed with its angelic value in the search: a
		// failure now, not a time-out, is a race of the test's own
		// goroutines (btree's TestCloneConcurrentOperationsG), not the
		// value. Run it again, so that one unlucky schedule does not
		// decide whether synthesis runs at the site.
		for again := 0; i < nFailing && !res.Passed && !res.TimedOut && again < snapshotReruns; again++ {
			r.logf("snapshot: %s failed with its angelic value, with which it passed in the search; running it again", keys[i].name)
			var err error
			if res, err = rerun(runs[i]); err != nil {
				return snap{}, err
			}
		}
		results[i] = res
	}
	inputs, consts, keep := specInputs(site)
	shadows := shadowsOf(site)
	// An evaluation where the wrapped assignment changes nothing
	// (collect.Observed.NoOp) passes whether the guard skips it or not.
	noop := slices.IndexFunc(site.Observed, func(o collect.Observed) bool { return o.NoOp })
	spec := &synth.Spec{Inputs: inputs, Constants: consts}
	if site.Kind == collect.Cond {
		spec.Original = site.Original
	}
	spec.PredicateEquality = originalComparesPredicates(site, spec)
	// Failing tests' examples come first, so that the cap on examples
	// never drops them.
	var (
		all  []angelic.Example
		vals [][]synth.Value
		from []int // the index in results of each example's run
		ord  []int // the example's evaluation of the site in its run, from 1
		// complete are the runs whose every evaluation of the site was
		// recorded (the snapshot writes at most 200 per site)
		complete = map[int]bool{}
	)
	for i, res := range results {
		k := keys[i]
		if !res.Passed {
			if i < nFailing {
				return snap{why: fmt.Sprintf("%s failed in its snapshot run with the angelic value (timed out: %v)", k.name, res.TimedOut)}, nil
			}
			r.vlogf("snapshot %s failed; its states are left out", k.name)
			continue
		}
		var either map[collect.Constituent][2]bool
		if i < nFailing && needs[i].Force.Whole() && !needs[i].Force.PerEval() {
			either = r.passedIterations(k, site.ID)
		}
		dropped, noops, n := 0, 0, 0
		for _, e := range res.Evals {
			if e.Site != site.ID {
				continue
			}
			n++
			if len(e.Values) != len(site.Observed) {
				continue
			}
			if had, ok := either[collect.Constituent{Segment: e.Segment, Iteration: e.Iteration}]; ok && !had[collect.OutcomeIndex(e.Outcome)] {
				dropped++
				continue
			}
			if noop >= 0 && st.guard == collect.GuardWrap && e.Values[noop].Bool && !e.Values[noop].Missing {
				noops++
				continue
			}
			v := make([]synth.Value, len(keep))
			for j, oi := range keep {
				ev := e.Values[oi]
				if sh, ok := shadows[oi]; ok && ev.Missing {
					ev = e.Values[sh] // a short circuit skipped the atom
				}
				v[j] = synthValue(ev, site.Observed[oi].Kind)
			}
			want := e.Outcome
			if st.name == "return" {
				want = !want
			}
			all = append(all, angelic.Example{State: stateKey(v), Want: want, Origin: k.name})
			vals = append(vals, v)
			from = append(from, i)
			ord = append(ord, n)
		}
		if c := res.Reached[site.ID]; n == c[0]+c[1] {
			complete[i] = true
		}
		if dropped > 0 {
			r.logf("snapshot: %s of %s in table iterations that passed with the other outcome left out", plural(dropped, "evaluation"), k.name)
		}
		if noops > 0 {
			r.vlogf("snapshot: %s of %s where the wrapped assignment changes nothing left out", plural(noops, "evaluation"), k.name)
		}
	}
	ex := examples{all: all, vals: vals, from: from, ord: ord, complete: complete, nFailing: nFailing}
	if ex, err = r.dropIndifferent(ctx, site, st, ex, keys); err != nil {
		return snap{}, err
	}
	if ex, err = r.nearestAtom(ctx, site, st, spec, ex, keys); err != nil {
		return snap{}, err
	}
	rep.Unchecked = ex.unchecked(from, keys)
	sum := fillExamples(spec, ex)
	if len(sum.DontCare) > 0 {
		r.logf("snapshot: %d states had both outcomes in passing runs and are left out (%s)", len(sum.DontCare), sum.Conflict)
	}
	if len(inputs) == 0 {
		return snap{sum: sum, why: "no specification: nothing observable at the site"}, nil
	}
	s := snap{spec: spec, sum: sum, why: sum.Trivial()}
	if sum.Constant() && !r.perEval {
		r.constant[site.ID] = true
	}
	if site.Kind == collect.Cond && st.name == "cond" {
		s.changed, s.changedSum, s.unforced = changedOnly(spec, ex)
	}
	if s.why != "" && !(sum.Constant() && spec.Original != "") {
		s.spec, s.why = nil, fmt.Sprintf("no specification: %s (%d examples)", s.why, sum.Examples)
	}
	return s, nil
}

// snap is what snapshot learned at a site: the spec (nil, with why, when
// there is none), the summary of its examples, and a remark (every state
// needs one outcome) with a spec. changed is the spec without the
// failing tests' evaluations their angelic value left as the original
// condition had them (unforced counts those; see changedOnly); nil when
// there are none, or at a guard; changedSum summarizes its examples.
type snap struct {
	spec       *synth.Spec
	sum        angelic.Summary
	why        string
	changed    *synth.Spec
	changedSum angelic.Summary
	unforced   int
}

// fillExamples adds ex's examples to spec, one per state, the states
// where passing runs had both outcomes left out, and returns their
// summary.
func fillExamples(spec *synth.Spec, ex examples) angelic.Summary {
	sum := angelic.Summarize(ex.all)
	seen := map[string]bool{}
	for i, e := range ex.all {
		if seen[e.State] || sum.IsDontCare(e.State) || len(spec.Examples) >= maxExamples {
			continue
		}
		seen[e.State] = true
		spec.Examples = append(spec.Examples, synth.Example{Values: ex.vals[i], Want: e.Want, Origin: e.Origin})
	}
	return sum
}

// changedOnly returns a copy of spec built from ex without the failing
// tests' examples whose outcome is the one the original condition gives
// in their state, and how many it left out. A failing test passes with
// its angelic value forced in the whole test (or a fragment): where that
// value is the original's, the force changed nothing, and nothing says
// the test needs it there. Such an example is often only a coincidence
// of the forced run (semver's TestParseRange passes with `err == nil`
// forced false, also where err is set and the developer's `err != nil`
// is true; uniseg's FirstSentenceInString, forced false, passes also
// where the original was false already). The spec is synthesized from
// when the whole one gives no candidate; the suite validates what it
// gives. nil when there is no such example, or the original cannot be
// evaluated on the states.
func changedOnly(spec *synth.Spec, ex examples) (*synth.Spec, angelic.Summary, int) {
	orig := originalOutcomes(spec, ex)
	if orig == nil {
		return nil, angelic.Summary{}, 0
	}
	kept := ex.without(func(j int) bool {
		return ex.from[j] < ex.nFailing && orig[j] != nil && *orig[j] == ex.all[j].Want
	})
	n := len(ex.all) - len(kept.all)
	if n == 0 || len(kept.all) == 0 {
		return nil, angelic.Summary{}, 0
	}
	changed := &synth.Spec{Inputs: spec.Inputs, Constants: spec.Constants, Original: spec.Original, PredicateEquality: spec.PredicateEquality}
	return changed, fillExamples(changed, kept), n
}

// originalOutcomes returns the original condition's value at each of
// ex's examples (nil where it reads a missing value or does not
// evaluate to a bool), or nil when spec has no original or it does not
// parse over spec's inputs.
func originalOutcomes(spec *synth.Spec, ex examples) []*bool {
	if spec.Original == "" {
		return nil
	}
	t, err := synth.ParseTerm(spec, spec.Original)
	if err != nil {
		return nil
	}
	out := make([]*bool, len(ex.all))
	for j := range ex.all {
		if v, err := t.Eval(spec, &synth.Example{Values: ex.vals[j]}); err == nil && v.Kind == synth.Bool {
			b := v.Bool
			out[j] = &b
		}
	}
	return out
}

// maxIndifferentRuns bounds the passing tests run at a site to learn
// whether they check its outcome (dropIndifferent, nearestAtom).
const maxIndifferentRuns = 4

// Passing tests that do not check an outcome. A passing test's examples
// say "the original outcome here" only because the test passed with it; a
// test that passes with the other outcome at the same evaluations does
// not check it there, and its examples in those states specify nothing.
// Two cases are checked, each by running the passing tests concerned with
// those evaluations (and only those) negated, in the style's way at a
// guard: dropIndifferent, where a failing test needs the other outcome
// in the very same state (toml's TestEncodeTextMarshaler passes whether
// eindirect returns a value marshaler or its address; TestEncode needs
// the value), and nearestAtom, where one observed boolean (isMarshaler(v))
// gives every failing test what it needs and contradicts the examples of
// a few passing tests only. Without this, the first is a don't-care and
// what is left may need one outcome only, and the second makes synthesis
// add a clause that fits one test's input (`isMarshaler(v) && v.Kind() ==
// reflect.Struct`). The examples hold, per example, its run (from: an
// index in keys and results; the first nFailing are the failing tests')
// and its evaluation of the site in that run (ord, from 1); complete has
// the runs whose every evaluation of the site was recorded.
type examples struct {
	all      []angelic.Example
	vals     [][]synth.Value
	from     []int
	ord      []int
	complete map[int]bool
	nFailing int
}

// without returns ex without the examples drop reports.
func (ex examples) without(drop func(j int) bool) examples {
	out := examples{complete: ex.complete, nFailing: ex.nFailing}
	for j := range ex.all {
		if drop(j) {
			continue
		}
		out.all = append(out.all, ex.all[j])
		out.vals = append(out.vals, ex.vals[j])
		out.from = append(out.from, ex.from[j])
		out.ord = append(out.ord, ex.ord[j])
	}
	return out
}

// unchecked names the passing tests some of whose examples (from: the
// runs of all the examples, as in examples) ex left out, with how many:
// "TestNotEmpty: 2 evaluations".
func (ex examples) unchecked(from []int, keys []testKey) []string {
	count := map[int]int{}
	for _, i := range from {
		count[i]++
	}
	for _, i := range ex.from {
		count[i]--
	}
	var out []string
	for _, i := range slices.Sorted(maps.Keys(count)) {
		if c := count[i]; c > 0 {
			out = append(out, keys[i].name+": "+plural(c, "evaluation"))
		}
	}
	return out
}

// dropIndifferent leaves out a passing test's examples in the states where
// a failing test needs the other outcome, when the test passes with that
// outcome there (see examples).
func (r *repairer) dropIndifferent(ctx context.Context, site collect.Site, st style, ex examples, keys []testKey) (examples, error) {
	// What the failing tests need, per state; a state where they
	// disagree is left alone.
	need := map[string]bool{}
	mixed := map[string]bool{}
	for j, e := range ex.all {
		if ex.from[j] >= ex.nFailing {
			continue
		}
		if w, ok := need[e.State]; ok && w != e.Want {
			mixed[e.State] = true
		}
		need[e.State] = e.Want
	}
	conflicts := func(j int) bool {
		w, ok := need[ex.all[j].State]
		return ex.from[j] >= ex.nFailing && ok && !mixed[ex.all[j].State] && w != ex.all[j].Want
	}
	passed, err := r.negatePassing(ctx, site, st, ex, conflicts, keys)
	if err != nil {
		return ex, err
	}
	for _, i := range slices.Sorted(maps.Keys(passed)) {
		if passed[i] {
			r.logf("snapshot: %s passes with the other outcome too where a failing test needs it in the same state; those examples are left out", keys[i].name)
		}
	}
	return ex.without(func(j int) bool { return passed[ex.from[j]] && conflicts(j) }), nil
}

// nearestAtom finds the observed boolean (or its negation; at a
// condition also joined to the original: `original && !it.Custom`, a
// clause added) that gives every failing test's example what it needs
// and contradicts the fewest passing tests' examples (pickAtom); when
// every test those come from passes with those evaluations negated, they
// are left out (see examples). An atom that contradicts no example needs
// nothing: synthesis finds it.
//
// When a passing test an atom contradicts fails with the other outcome,
// the next atom is tried, up to maxNearAtoms: one more observed call can
// fit the failing tests and contradict fewer examples than the atom that
// describes the suite (toml's eindirect observes isUnifiable(pv), whose
// contradicted test fails, beside isMarshaler(v)).
func (r *repairer) nearestAtom(ctx context.Context, site collect.Site, st style, spec *synth.Spec, ex examples, keys []testKey) (examples, error) {
next:
	for _, a := range pickAtoms(spec, ex, maxNearAtoms) {
		// A deletion that would be rejected as a candidate cannot be
		// the fix it stands for (go-toml's seeded fusedConsumeEOL:
		// `len(b) > 1`, the bounds check alone, cost the one state
		// that told the developer's fix from len(b) >= 2).
		if a.deletion {
			if why := antiPattern(site, nil, candidate{src: a.src, method: "synthesis"}); why != "" && !strings.HasPrefix(why, ruleUnrelated+":") {
				r.vlogf("snapshot: %s fits the failing tests, but as a patch it breaks an anti-pattern (%s)", a.src, why)
				continue
			}
		}
		passed, err := r.negatePassing(ctx, site, st, ex, a.against, keys)
		if err != nil {
			return ex, err
		}
		for _, ok := range passed {
			if !ok {
				r.logf("snapshot: %s fits the failing tests; a passing test it contradicts fails with the other outcome there", a.src)
				continue next
			}
		}
		if len(passed) < a.tests {
			return ex, nil // a test whose evaluations are not all recorded
		}
		r.logf("snapshot: %s fits the failing tests; the %s it contradicts (%s) pass with the other outcome there too, and those examples are left out", a.src, plural(a.tests, "passing test"), plural(a.examples, "example"))
		return ex.without(a.against), nil
	}
	return ex, nil
}

// maxNearAtoms bounds the atoms nearestAtom tries.
const maxNearAtoms = 3

// nearAtom is an observed boolean that fits the failing tests' examples
// and contradicts a few passing tests' (pickAtom).
type nearAtom struct {
	src string
	// deletion: the original with an operand deleted, not an observed
	// boolean.
	deletion bool
	// against reports whether the atom contradicts example j, a passing
	// test's; tests and examples count those.
	against         func(j int) bool
	tests, examples int
}

// pickAtom returns the observed boolean, its negation, or at a condition
// either joined to the original with && or ||, that gives every failing
// test's example what it needs, contradicts at least one passing test's
// example and the fewest: at most maxIndifferentRuns tests, and no more
// than a quarter of the passing examples it agrees with (an atom that
// disagrees with much of the suite does not describe it; one
// contradicted example and none agreeing is too little as well: color's
// seeded Fprint would get `err != nil` from it, but go-toml's seeded
// fusedConsumeEOL lost the one state that told `len(b) > 1 && b[1] ==
// '\n'` from len(b) >= 2).
// At a condition, the original with an operand of one of its && and ||
// deleted (mutants.go deletions) is tried as well, after the observed
// booleans and without the quarter's bound: a clause the developer
// dropped was true or false in the passing tests' states for nothing
// they check (mux's Route.Schemes: `r.buildScheme == "" &&
// len(schemes) > 0` made len(schemes) > 0, which TestSchemes' six
// evaluations contradict and which it passes negated). Fewer tests
// first, then fewer examples; among equals, a clause joined to the
// original first, then the inputs' order, then the deletions. ok is
// false when there is none.
func pickAtom(spec *synth.Spec, ex examples) (nearAtom, bool) {
	atoms := pickAtoms(spec, ex, 1)
	if len(atoms) == 0 {
		return nearAtom{}, false
	}
	return atoms[0], true
}

// pickAtoms returns the first n atoms in pickAtom's order.
func pickAtoms(spec *synth.Spec, ex examples, n int) []nearAtom {
	// The original's value per example, where it can be computed.
	orig := originalOutcomes(spec, ex)
	type atom struct {
		input          int
		neg            bool
		join           synth.Op // OpAnd, OpOr with the original; 0 alone
		tests, against int
		// deletion, when not nil, is the original with an operand of
		// one of its && and || deleted (src), in place of an input.
		deletion *synth.Term
		src      string
	}
	// value is a's value at example j; ok is false where it reads a
	// missing value.
	value := func(a atom, j int) (holds, ok bool) {
		if a.deletion != nil {
			v, err := a.deletion.Eval(spec, &synth.Example{Values: ex.vals[j]})
			if err != nil || v.Kind != synth.Bool {
				return false, false
			}
			return v.Bool, true
		}
		v := ex.vals[j][a.input]
		if v.Missing {
			return false, false
		}
		holds = v.Bool != a.neg
		if a.join == 0 {
			return holds, true
		}
		if orig[j] == nil {
			return false, false
		}
		if a.join == synth.OpAnd {
			return *orig[j] && holds, true
		}
		return *orig[j] || holds, true
	}
	joins := []synth.Op{0}
	if orig != nil {
		joins = []synth.Op{synth.OpAnd, synth.OpOr, 0}
	}
	candidates := func(yield func(atom) bool) {
		for in := range spec.Inputs {
			if spec.Inputs[in].Kind != synth.Bool {
				continue
			}
			for _, join := range joins {
				for _, neg := range []bool{false, true} {
					if !yield(atom{input: in, neg: neg, join: join}) {
						return
					}
				}
			}
		}
		if orig == nil {
			return
		}
		for _, src := range deletions(spec.Original) {
			if t, err := synth.ParseTerm(spec, src); err == nil && !yield(atom{deletion: t, src: src}) {
				return
			}
		}
	}
	var fit []atom
	for a := range candidates {
		fits, agree := true, 0
		tests := map[int]bool{}
		for j, e := range ex.all {
			holds, ok := value(a, j)
			if ex.from[j] < ex.nFailing {
				if !ok || holds != e.Want {
					fits = false
					break
				}
				continue
			}
			switch {
			case !ok:
			case holds == e.Want:
				agree++
			default:
				a.against++
				tests[ex.from[j]] = true
			}
		}
		a.tests = len(tests)
		if !fits || a.against == 0 || a.tests > maxIndifferentRuns || a.deletion == nil && 4*a.against > agree {
			continue
		}
		fit = append(fit, a)
	}
	slices.SortStableFunc(fit, func(a, b atom) int { return cmp.Or(cmp.Compare(a.tests, b.tests), cmp.Compare(a.against, b.against)) })
	// The atom's source, as a mutant's (mutants.go: negate, parenthesize,
	// render).
	// Observed expressions and the original (ParseTerm read it above)
	// are Go source.
	renderAtom := func(b atom) (nearAtom, bool) {
		against := func(j int) bool {
			holds, ok := value(b, j)
			return ex.from[j] >= ex.nFailing && ok && holds != ex.all[j].Want
		}
		if b.deletion != nil {
			return nearAtom{src: b.src, deletion: true, against: against, tests: b.tests, examples: b.against}, true
		}
		fset, x, _, ok := parseCond(spec.Inputs[b.input].Expr)
		if !ok {
			return nearAtom{}, false
		}
		if b.neg {
			x = negate(x)
		}
		if b.join != 0 {
			orig, err := parser.ParseExprFrom(fset, "", spec.Original, parser.SkipObjectResolution)
			if err != nil {
				return nearAtom{}, false
			}
			op := map[synth.Op]token.Token{synth.OpAnd: token.LAND, synth.OpOr: token.LOR}[b.join]
			x = &ast.BinaryExpr{X: orig, Op: op, Y: x}
		}
		src := render(fset, parenthesize(unparen(x), token.LowestPrec))
		return nearAtom{src: src, against: against, tests: b.tests, examples: b.against}, true
	}
	var out []nearAtom
	for _, b := range fit[:min(n, len(fit))] {
		if a, ok := renderAtom(b); ok {
			out = append(out, a)
		}
	}
	return out
}

// negatePassing runs each passing test with an example for which pick
// holds, with the evaluations of those examples negated, and reports per
// run (an index in keys) whether it passed. A test whose evaluations of
// the site were not all recorded (past the snapshot's cap) is not run:
// the evaluations to negate are known only by their order. At most
// maxIndifferentRuns tests are run, in suite order; the runs count as
// search work.
func (r *repairer) negatePassing(ctx context.Context, site collect.Site, st style, ex examples, pick func(j int) bool, keys []testKey) (map[int]bool, error) {
	evals := map[int][]int{}
	var order []int
	for j := range ex.all {
		if !pick(j) {
			continue
		}
		i := ex.from[j]
		if _, ok := evals[i]; !ok {
			order = append(order, i)
		}
		evals[i] = append(evals[i], ex.ord[j])
	}
	var (
		runs   []collect.Run
		runIdx []int
	)
	for _, i := range order {
		if len(runs) == maxIndifferentRuns {
			break
		}
		if !ex.complete[i] {
			continue
		}
		// Negated at a condition; at a guard, the style's exit (or skip)
		// where the passing test ran the statement.
		f := angelic.Force{Evals: evals[i], Value: st.force.Value, Return: st.force.Return}
		runs = append(runs, r.forcedRun(keys[i], site, st, f, collect.ModeCover))
		runIdx = append(runIdx, i)
	}
	if len(runs) == 0 {
		return nil, nil
	}
	r.logf("snapshot: running %s with the other outcome where the failing tests need it", plural(len(runs), "passing test"))
	res, err := r.runAll(ctx, runs)
	for _, rs := range res {
		r.ran(testWork(rs.TimedOut))
	}
	if err != nil {
		return nil, fmt.Errorf("running passing tests with the other outcome at site %d: %w", site.ID, err)
	}
	passed := map[int]bool{}
	for n, rs := range res {
		passed[runIdx[n]] = rs.Passed
	}
	return passed, nil
}

// passedIterations returns, for failing test k, the outcomes the site
// had in k's coverage run in each table-loop iteration that passed there
// while another iteration of the same loop failed ([0] false, [1] true).
// Forced to a constant in the whole test, k passed; an iteration that
// passed with the other outcome too does not need the forced one, and
// its evaluations say nothing of the condition (levenshtein's
// {"ab", "ba"} row passes whichever branch runs). Iterations that did not
// run in the coverage run, or whose records the cap left out, are not
// in the map.
func (r *repairer) passedIterations(k testKey, site int) map[collect.Constituent][2]bool {
	failed := r.failed[k]
	loops := map[int]bool{}
	for _, fr := range failed {
		if fr.Iteration > 0 {
			loops[fr.Segment] = true
		}
	}
	if len(loops) == 0 {
		return nil
	}
	out := map[collect.Constituent][2]bool{}
	for _, e := range r.cover[k].Evals {
		if e.Site != site || !loops[e.Segment] || e.Iteration <= 0 || slices.Contains(failed, angelic.Constituent{Segment: e.Segment, Iteration: e.Iteration}) {
			continue
		}
		c := collect.Constituent{Segment: e.Segment, Iteration: e.Iteration}
		had := out[c]
		had[collect.OutcomeIndex(e.Outcome)] = true
		out[c] = had
	}
	return out
}

// originalOperands returns the indexes of spec's inputs that are operands
// of the original condition.
func originalOperands(spec *synth.Spec) []int {
	orig, err := parser.ParseExpr(spec.Original)
	if err != nil {
		return nil
	}
	in := map[string]bool{}
	ast.Inspect(orig, func(n ast.Node) bool {
		if e, ok := n.(ast.Expr); ok {
			in[types.ExprString(e)] = true
		}
		return true
	})
	var out []int
	for i, input := range spec.Inputs {
		if e, err := parser.ParseExpr(input.Expr); err == nil && in[types.ExprString(e)] {
			out = append(out, i)
		}
	}
	return out
}

// onOriginalOperands returns spec restricted to the original's operands
// (originalOperands) and the indexes of those a candidate must read: all
// but the operands inside another (str in len(str): reading len(str)
// reads str). keep is nil when no operand is observed.
func onOriginalOperands(spec *synth.Spec) (only *synth.Spec, keep []int) {
	ops := originalOperands(spec)
	if len(ops) == 0 {
		return spec, nil
	}
	only = project(spec, ops)
	text := make([]string, len(only.Inputs))            // "" when it does not parse
	within := make([]map[string]bool, len(only.Inputs)) // subexprs
	for i, in := range only.Inputs {
		if e, err := parser.ParseExpr(in.Expr); err == nil {
			text[i], within[i] = types.ExprString(ast.Unparen(e)), subexprs(e)
		}
	}
	for i := range text {
		inner := false
		for k := range text {
			inner = inner || text[i] != "" && text[k] != text[i] && within[k][text[i]]
		}
		if !inner {
			keep = append(keep, i)
		}
	}
	return only, keep
}

// project restricts spec to the inputs idx.
func project(spec *synth.Spec, idx []int) *synth.Spec {
	out := *spec
	out.Inputs = nil
	for _, i := range idx {
		out.Inputs = append(out.Inputs, spec.Inputs[i])
	}
	out.Examples = nil
	for _, ex := range spec.Examples {
		vals := make([]synth.Value, len(idx))
		for j, i := range idx {
			vals[j] = ex.Values[i]
		}
		ex.Values = vals
		out.Examples = append(out.Examples, ex)
	}
	return &out
}

// readsAllLeaves reports whether t reads every input of idx, each read
// as a whole or through all of the inputs directly inside it (those no
// other input inside it contains), in turn read as a whole or through
// theirs: a mutant of the original that changes a clause inside an
// observed chain (`h < 1` in `err1 != nil || err2 != nil || h <= 1 || l <
// 0 || h > 30`, whose prefix `err1 != nil || err2 != nil || h <= 1 || l <
// 0` is an input) no longer reads the chain as a whole, but it reads each
// of its clauses (x/mod's seeded ParseTilePath, where only a weakened
// check that reads the chain was left). A clause deleted is not read,
// even where its variable is read by another clause.
func readsAllLeaves(spec *synth.Spec, t *synth.Term, idx []int) bool {
	text := make([]string, len(spec.Inputs))
	within := make([]map[string]bool, len(spec.Inputs))
	for i, in := range spec.Inputs {
		if e, err := parser.ParseExpr(in.Expr); err == nil {
			text[i], within[i] = types.ExprString(ast.Unparen(e)), subexprs(e)
		}
	}
	inside := func(j, k int) bool { // input j strictly inside input k
		return text[j] != "" && text[k] != "" && text[j] != text[k] && within[k][text[j]]
	}
	read := inputsRead(t)
	// inside is strict (a shorter text), so the recursion ends.
	var covered func(k int) bool
	covered = func(k int) bool {
		if slices.Contains(read, k) {
			return true
		}
		children := 0
		for j := range text {
			if !inside(j, k) {
				continue
			}
			direct := true
			for m := range text {
				if m != j && inside(m, k) && inside(j, m) {
					direct = false
					break
				}
			}
			if !direct {
				continue
			}
			children++
			if !covered(j) {
				return false
			}
		}
		return children > 0
	}
	for _, k := range idx {
		if !covered(k) {
			return false
		}
	}
	return true
}

// readsAll reports whether t reads every input of idx.
func readsAll(t *synth.Term, idx []int) bool {
	read := inputsRead(t)
	for _, i := range idx {
		if !slices.Contains(read, i) {
			return false
		}
	}
	return true
}

// synthKind converts a collect kind.
func synthKind(k collect.ValueKind) synth.Kind {
	switch k {
	case collect.KindBool:
		return synth.Bool
	case collect.KindInt:
		return synth.Int
	case collect.KindFloat:
		return synth.Float
	case collect.KindString:
		return synth.String
	}
	return 0
}

// synthValue converts v, observed as an expression of kind k.
func synthValue(v collect.Value, k collect.ValueKind) synth.Value {
	sk := synthKind(k)
	if v.Missing || (v.Kind != 0 && v.Kind != k) {
		return synth.MissingValue(sk)
	}
	switch sk {
	case synth.Bool:
		return synth.BoolValue(v.Bool)
	case synth.Int:
		return synth.IntValue(v.Int)
	case synth.Float:
		return synth.FloatValue(v.Float)
	case synth.String:
		return synth.StringValue(v.Str)
	}
	return synth.MissingValue(sk)
}

// specInputs converts a site's observed expressions and constants. Inputs
// of unknown kind are left out; keep maps input positions to Observed
// indexes.
func specInputs(site collect.Site) (inputs []synth.Input, consts []synth.Constant, keep []int) {
	for i, o := range site.Observed {
		if k := synthKind(o.Kind); k != 0 && o.Expr != "" && !o.Shadow && !o.NoOp {
			inputs = append(inputs, synth.Input{Expr: o.Expr, Kind: k, Char: o.Char, Enum: o.Enum, Invented: o.Invented, Groups: o.Groups})
			keep = append(keep, i)
		}
	}
	seen := map[string]bool{}
	for _, c := range site.Constants {
		k := synthKind(c.Value.Kind)
		if k == 0 || c.Value.Missing || seen[c.Expr] {
			continue
		}
		seen[c.Expr] = true
		consts = append(consts, synth.Constant{Expr: c.Expr, Value: synthValue(c.Value, c.Value.Kind), Factor: c.Factor, Bound: c.Bound, Group: c.Group})
	}
	return inputs, consts, keep
}

// shadowsOf maps the index of each atom of site's condition that has a
// shadow (collect.Observed.Shadow) to the shadow's.
func shadowsOf(site collect.Site) map[int]int {
	out := map[int]int{}
	for i, o := range site.Observed {
		if !o.Shadow {
			continue
		}
		if a := slices.IndexFunc(site.Observed, func(x collect.Observed) bool { return !x.Shadow && x.Expr == o.Expr }); a >= 0 {
			out[a] = i
		}
	}
	return out
}

// stateKey renders values canonically, for equality of states.
func stateKey(vals []synth.Value) string {
	var b strings.Builder
	for _, v := range vals {
		b.WriteString(v.GoString())
		b.WriteByte(0)
	}
	return b.String()
}

// snapshotReruns is how many times a failing test's snapshot run that
// failed (not timed out) with its angelic value runs again.
const snapshotReruns = 2

// snapshotRetryTimeout is the time limit of a snapshot run again after it
// timed out with limit d: four times as long, at least 10 s, at most 2
// minutes.
func snapshotRetryTimeout(d time.Duration) time.Duration {
	return min(max(4*d, 10*time.Second), 2*time.Minute)
}

// relaxedGuardSpec runs, at a guard that wraps its statement, the
// passing tests whose examples spec holds with the statement skipped in
// the whole test. Those that pass did not need it to run, and say
// nothing of the guard: relaxed is spec without their examples. A
// passing test's evaluations are labelled "runs" only because the
// statement had no guard (gorilla/mux's match.MatchErr = nil ran
// whatever the error was), and where a failing test needs it skipped in
// a like state, no condition fits. needed reports that one of them
// failed: deleting the statement does not pass the suite. relaxed is
// nil when what is left needs one outcome only. The runs count as
// search work.
func (r *repairer) relaxedGuardSpec(ctx context.Context, site collect.Site, st style, spec *synth.Spec) (relaxed *synth.Spec, either []string, needed bool, err error) {
	either, needed, err = r.passWithOther(ctx, site, st, spec, st.force.Value, "with the statement skipped")
	if err != nil || either == nil {
		return nil, nil, false, err
	}
	out := withoutOrigins(spec, either)
	var wants [2]bool
	for _, ex := range out.Examples {
		wants[collect.OutcomeIndex(ex.Want)] = true
	}
	if !wants[0] || !wants[1] {
		r.logf("snapshot: %s with the statement skipped; the examples left need one outcome", passes(len(either)))
		return nil, either, needed, nil
	}
	r.logf("snapshot: %s with the statement skipped, and the examples of those are left out (%d left); deleting it %s the suite", passes(len(either)), len(out.Examples), map[bool]string{true: "fails", false: "passes"}[needed])
	return out, either, needed, nil
}

// relaxedCondSpec runs, at a condition where every example of spec needs
// the same outcome, the passing tests whose examples spec holds with the
// other outcome forced in the whole test. Those that pass do not check
// the condition: their examples say only what the original gave, and
// relaxed is spec without them (nil when none passes, or none is left).
// pflag's durationSliceConv, seeded `len(val) != 0 { return empty }`:
// the passing tests that reach it pass whatever it says, and their
// non-empty values, all "true", made `len(val) != 1` the one mutant
// that fit, where the fix is `len(val) == 0`.
func (r *repairer) relaxedCondSpec(ctx context.Context, site collect.Site, st style, spec *synth.Spec) (relaxed *synth.Spec, either []string, err error) {
	if len(spec.Examples) == 0 {
		return nil, nil, nil
	}
	either, _, err = r.passWithOther(ctx, site, st, spec, !spec.Examples[0].Want, "with the other outcome forced")
	if err != nil || len(either) == 0 {
		return nil, nil, err
	}
	out := withoutOrigins(spec, either)
	if len(out.Examples) == 0 {
		return nil, nil, nil
	}
	r.logf("snapshot: %s with the other outcome forced: the original's outcome in them says nothing; their examples are left out (%d left)", passes(len(either)), len(out.Examples))
	return out, either, nil
}

// specSummary summarizes spec's examples, one per distinct state.
func specSummary(spec *synth.Spec) angelic.Summary {
	sum := angelic.Summary{Examples: len(spec.Examples), Distinct: len(spec.Examples)}
	for _, ex := range spec.Examples {
		if ex.Want {
			sum.True++
		} else {
			sum.False++
		}
	}
	return sum
}

// withoutOrigins is spec without the examples of the tests named in
// origins.
func withoutOrigins(spec *synth.Spec, origins []string) *synth.Spec {
	out := *spec
	out.Examples = nil
	for _, ex := range spec.Examples {
		if !slices.Contains(origins, ex.Origin) {
			out.Examples = append(out.Examples, ex)
		}
	}
	return &out
}

// passWithOther runs the passing tests whose examples spec holds (and
// that reach site; the passing subtests of a narrowed failing test too,
// restKeys) with value forced at site in the whole test, once per
// site and test (repairer.skipped: at a guard, the statement skipped; at
// a condition, its other outcome). either are those that pass, sorted;
// nil when no passing test has examples. needed reports that one failed
// (not by timing out). how says what the runs do, for the log.
func (r *repairer) passWithOther(ctx context.Context, site collect.Site, st style, spec *synth.Spec, value bool, how string) (either []string, needed bool, err error) {
	failing := r.failingNames()
	origins := map[string]bool{}
	for _, ex := range spec.Examples {
		if !failing[ex.Origin] {
			origins[ex.Origin] = true
		}
	}
	var (
		keys, fresh []testKey
		runs        []collect.Run
	)
	for _, k := range slices.Concat(r.passing, r.restKeys) {
		if !origins[k.name] {
			continue
		}
		if c := r.cover[k].Reached[site.ID]; c[0]+c[1] == 0 {
			continue
		}
		keys = append(keys, k)
		if _, done := r.skipped[siteRun{site.ID, k}]; !done {
			fresh = append(fresh, k)
			runs = append(runs, r.forcedRun(k, site, st, angelic.Force{Value: value}, collect.ModeCover))
		}
	}
	if len(keys) == 0 {
		return nil, false, nil
	}
	if len(runs) > 0 {
		r.logf("snapshot: running %s %s", plural(len(runs), "passing test"), how)
		results, err := r.runAll(ctx, runs)
		if err != nil {
			return nil, false, fmt.Errorf("running passing tests %s at site %d: %w", how, site.ID, err)
		}
		for i, res := range results {
			r.ran(testWork(res.TimedOut))
			r.skipped[siteRun{site.ID, fresh[i]}] = res
		}
	}
	passed := map[string]bool{}
	for _, k := range keys {
		passed[k.name] = true
	}
	// A name run in two packages passes only if it passed in both. A
	// run that timed out says neither: its examples stay, and it does
	// not show that the statement is needed.
	for _, k := range keys {
		if res := r.skipped[siteRun{site.ID, k}]; !res.Passed {
			passed[k.name] = false
			needed = needed || !res.TimedOut
		}
	}
	either = []string{}
	for name, ok := range passed {
		if ok {
			either = append(either, name)
		}
	}
	slices.Sort(either)
	return either, needed, nil
}

// failingNames are the failing tests' names (a synth.Example's Origin).
func (r *repairer) failingNames() map[string]bool {
	out := map[string]bool{}
	for _, k := range r.failing {
		out[k.name] = true
	}
	return out
}

// siteRun names a site and a test.
type siteRun struct {
	site int
	k    testKey
}

// passes says how many passing tests pass: "1 passing test passes", "2
// passing tests pass".
func passes(n int) string {
	if n == 1 {
		return "1 passing test passes"
	}
	return plural(n, "passing test") + " pass"
}
