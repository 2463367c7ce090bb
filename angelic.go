package nopol

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nopol-go/nopol/angelic"
	"github.com/nopol-go/nopol/collect"
	"github.com/nopol-go/nopol/internal/constituent"
)

// The angelic search at one site: the failing tests re-run with the
// site forced (see package angelic).

// forcedRun is the run of failing test k with site forced as f. Forced
// in fragments, or negated at every evaluation, the hook prints the
// running constituent, for attributing failures to fragments (the
// negation in the failing fragments only is tried when the negation
// everywhere broke other fragments only).
func (r *repairer) forcedRun(k testKey, site collect.Site, st style, f angelic.Force, mode collect.Mode) collect.Run {
	run := r.testRun(k, mode)
	r.narrowRest(&run, k, site.ID)
	run.Force = map[int]bool{site.ID: f.Value}
	run.PrintConstituents = !r.opts.NoPurify && (!f.Whole() || f.EveryEval())
	run.EvalLimit, run.MaxRSS = r.evalLimit(k), r.memLimit(k.pkg)
	if f.PerEval() {
		run.Force = nil
		if len(f.Evals) > 0 {
			run.FlipEval = map[int][]int{site.ID: f.Evals}
		}
		if f.Trace && mode == collect.ModeCover {
			run.PrintEvals = []int{site.ID}
		}
	}
	if f.Guess != "" {
		// The predicate reads the observed values: only the snapshot
		// build evaluates them.
		run.Predicates = map[int]collect.Predicate{site.ID: r.guessed[site.ID][f.Guess]}
		run.Mode, run.Sites = collect.ModeSnapshot, []int{site.ID}
		run.EvalLimit = r.snapshotEvalLimit(k, site.ID)
	}
	forceFragments(&run, f.Fragments, f.Values)
	if k, ok := st.guard.Exit(); ok && f.Return {
		run.ForceExit = map[int]int{site.ID: k}
	}
	if mode == collect.ModeSnapshot {
		run.Sites = []int{site.ID}
	}
	// Its outcome, output and counts are read, not its records.
	run.CountsOnly = run.Mode == collect.ModeCover
	return run
}

// attributedFailures are the fragments of failing test k that the
// failures of res, its forced run run, are attributed to: none when it
// passed or did not print its constituents (forcedRun decides which do).
func (r *repairer) attributedFailures(k testKey, run collect.Run, res collect.Result) []angelic.Constituent {
	if res.Passed || !run.PrintConstituents {
		return nil
	}
	return r.failingFragments(k, res.Output)
}

// runForced runs a forced run of a failing test (forcedRun). A run that
// its time limit stopped, not its evaluation limit, runs again once with
// a longer limit (retryTimeout; retried): a busy machine can slow a test
// that a forced value makes do more past the limit, and the outcome must
// not depend on the load. Its caller counts the work of the outcome
// alone (testWork) and the run again in Result.Runs only (forcedRan), so
// that the work bounds do not depend on the load either.
func (r *repairer) runForced(ctx context.Context, run collect.Run) (res collect.Result, retried bool, err error) {
	res, err = r.bin.Run(ctx, run)
	if err != nil || !res.TimedOut || res.Hung || ctx.Err() != nil {
		return res, false, err
	}
	run.Timeout = retryTimeout(run.Timeout)
	res, err = r.bin.Run(ctx, run)
	return res, true, err
}

// retryTimeout is the limit of a forced run again after limit d stopped
// it: twice d, at most 3 s more. The time limit of a forced run
// (runTimeout) has a margin of twenty times the test's plain run, which
// no load exhausts, but also a floor of 1.5 s that a busy machine can:
// the retry doubles the floor, and a run that blocks for good costs at
// most 3 s more.
func retryTimeout(d time.Duration) time.Duration {
	return d + min(d, 3*time.Second)
}

// forcedRan counts a forced run that runForced made, retried or not, and
// logs the retry.
func (r *repairer) forcedRan(res collect.Result, retried bool, test string) {
	if retried {
		r.res.Runs++
		r.vlogf("forced %s: stopped by its time limit, not its evaluation limit; run again with a longer limit: timed out=%v", test, res.TimedOut)
	}
	r.ran(testWork(res.TimedOut))
}

// Forced runs are taken as hung past evalLimitBase evaluations of all
// sites, plus evalLimitFactor times the most that the test, or any test
// of its package, evaluated in its coverage run.
const (
	evalLimitBase   = 2_000_000
	evalLimitFactor = 10
)

// noPassingEvaluations stands, in a candidate's run, for the heaviest
// coverage run of a package none of whose covered tests passed
// (candidateEvalLimit). A failing test stops at its first failed check,
// so there no run shows what a test run to its end evaluates: btree's
// seeded split, where every test of the package fails within a few
// hundred evaluations, had its correct mutant stopped as spinning.
// 2.5 million evaluations are a heavy unit test's; the limit of a
// candidate's run of one failing test is then 52 million, one or two
// seconds of a loop made to spin (the hook counts 25 to 50 million
// evaluations a second). Forced runs keep their bound: a forced loop
// condition spins at many sites of a search, and a floor of ten million
// for them took candidate-spin.txtar's repair from 2.8 s to 26.8 s.
const noPassingEvaluations = 2_500_000

// evalLimit is the Run.EvalLimit of a forced run of test k. The hook
// makes 25 to 50 million evaluations a second, so a loop made to spin
// reaches it long before the run's timeout (twenty times the test's
// duration, and 1.5s). A failing test often stops at its first failed
// check, so the run that repairs it evaluates far more than its coverage
// run did, about what a passing test of the package does: the bound
// counts the heaviest coverage run of the package (counts are lower
// bounds within a factor of two).
func (r *repairer) evalLimit(k testKey) int64 {
	return evalLimitBase + evalLimitFactor*2*max(coverEvaluations(r.cover[k]), r.coverMax[k.pkg])
}

// memLimit is the Run.MaxRSS of a forced run of a test of package pkg
// (and of a candidate's run of the failing tests alone): forcedMemBase
// and four times the most resident memory of any passing test's coverage
// run in pkg. A forced value that makes the code allocate without
// end (a recursion that allocates at each call, never deep enough to
// overflow its stack) is stopped there as hung: under the bench's 8 GiB
// address-space limit, go-toml v2.4.3's addFields made each forced run
// take 8 to 15 s to run out of memory, 60 s of a 100 s repair; without a
// limit, a run could take the machine's memory. The failing tests do not
// count, for such a test's coverage run is the runaway itself.
func (r *repairer) memLimit(pkg string) int64 {
	var most int64
	for t, res := range r.cover {
		if t.pkg == pkg && res.Passed {
			most = max(most, res.PeakRSS)
		}
	}
	return forcedMemBase + 4*most
}

// forcedMemBase is the least resident memory a forced run may hold
// before it counts as hung: ample for a unit test, reached in a second or
// two by a runaway allocation.
const forcedMemBase = 1 << 30

// snapshotEvalLimit is the Run.EvalLimit of a forced run of test k in
// snapshot mode, at site: there only the site's own evaluations count
// (the hook's nopolEvalLimit), each observing the state, a few hundred
// thousand a second or fewer. The bound of the other runs, counting all
// sites at tens of millions a second, let a loop made to spin there run
// to the time limit: toml v1.2.0's lexer.next, forced to leave at each
// of its guessed predicates, spun 2.1s per run, and then ran again
// (runForced). The bound is snapshotLimitBase plus evalLimitFactor
// times twice the most evaluations of the site in any coverage run of
// the package (a count within a factor of two), a runaway test's aside.
func (r *repairer) snapshotEvalLimit(k testKey, site int) int64 {
	var most int64
	for t, res := range r.cover {
		if t.pkg == k.pkg && !res.TimedOut { // a runaway's count bounds nothing (coverEvaluations)
			c := res.Reached[site]
			most = max(most, int64(c[0]+c[1]))
		}
	}
	return snapshotLimitBase + evalLimitFactor*2*most
}

// snapshotLimitBase is the least evaluations of its site a forced run in
// snapshot mode may make before it counts as hung: a loop made to spin
// there reaches it in under half a second (toml's lexer.next, observing
// its lexer, in 0.4s).
const snapshotLimitBase = 200_000

// candidateEvalLimit is the collect.Schema.EvalLimit of the candidates'
// runs of the tests of package pkg (tests: those named, nil for all): the
// bound of a forced run summed over the tests, one process running them
// all. A test's own coverage run counts, a failing test's at least the
// heaviest of its package (the run that repairs it may evaluate as much),
// and at least noPassingEvaluations where no covered test of the package
// passed.
// The hook counts the evaluations of the schema's sites only, a small part
// of all sites', so a candidate that makes a loop around one of them spin
// is caught in seconds instead of at the run's time limit (a mutant of
// toml v1.3.0's lexMultilineRawString spent 35 of the repair's 120s
// there), while a candidate that repairs a test stopping early keeps room
// to evaluate far more than the test's coverage run did (a bound of ten
// times the schema's sites' own evaluations in the coverage runs rejected
// such runs: 46d76b3, reverted in 3b9a7b3).
func (r *repairer) candidateEvalLimit(pkg string, tests []string) int64 {
	var keys []testKey
	for _, name := range tests {
		keys = append(keys, testKey{pkg, name})
	}
	if tests == nil {
		for k := range r.cover {
			if k.pkg == pkg {
				keys = append(keys, k)
			}
		}
		for _, k := range r.failing {
			if _, ok := r.cover[k]; !ok && k.pkg == pkg {
				keys = append(keys, k)
			}
		}
	}
	heaviest := r.coverMax[pkg]
	if !r.anyPassed(pkg) {
		heaviest = max(heaviest, noPassingEvaluations)
	}
	var sum int64
	for _, k := range keys {
		n := coverEvaluations(r.cover[k])
		if r.isFailing(k) {
			n = max(n, heaviest)
		}
		sum += n
	}
	return evalLimitBase + evalLimitFactor*2*sum
}

// anyPassed reports whether a coverage run of a test of pkg passed.
func (r *repairer) anyPassed(pkg string) bool {
	for k, res := range r.cover {
		if k.pkg == pkg && res.Passed {
			return true
		}
	}
	return false
}

// coverEvaluations is what coverage run res counts toward the evaluation
// limits: the evaluations of all sites, none for a run its time limit
// stopped. A runaway test (a recursion or a loop without end) evaluates
// until the limit stops it, and its count bounds nothing: counted, it
// let the forced runs of a spinning test spin on to their time limits.
func coverEvaluations(res collect.Result) int64 {
	if res.TimedOut {
		return 0
	}
	return res.Evaluations()
}

// angelicSearch runs the angelic search at site in style st; perEvalOnly
// skips its constant forces (angelic.Problem.PerEvalOnly).
func (r *repairer) angelicSearch(ctx context.Context, site collect.Site, st style, perEvalOnly bool) (angelic.Verdict, error) {
	guard := site.Kind == collect.Guard
	p := angelic.Problem{PerEvalOnly: perEvalOnly}
	if site.Kind == collect.Cond {
		p.Choices = []angelic.Force{{Value: true}, {Value: false}}
		if r.perEval {
			p.MaxFlips = maxFlips
		}
	} else {
		p.Choices = []angelic.Force{st.force}
		if (st.late || r.runaway[site.ID]) && !r.opts.NoPerEval {
			// An exit taken at one evaluation: a nil element of a
			// list, one bad input among good ones in one call. At the
			// entry of a function a failing test recursed in without
			// end, from the first tier: a base case leaves at some
			// calls only.
			p.MaxFlips = maxFlips
		}
	}
	if p.MaxFlips > 0 {
		p.Guess = func(ctx context.Context, test string) ([]string, error) {
			return r.guessesOf(ctx, site, r.failingByID[test])
		}
	}
	for _, k := range r.failing {
		c := counts(r.cover[k].Reached[site.ID])
		if r.interrupted[k][site.ID] {
			c.Interrupted = 1
		}
		p.Tests = append(p.Tests, angelic.FailingTest{Name: k.id(), Counts: c, Failing: r.failed[k]})
	}
	// The search makes some runs at once (Problem.Parallel): mu guards
	// what they record.
	var mu sync.Mutex
	p.Parallel = r.opts.Parallel
	split := map[string]bool{}
	run := func(ctx context.Context, test string, f angelic.Force) (angelic.Outcome, error) {
		mu.Lock()
		defer mu.Unlock()
		k := r.failingByID[test]
		// A traced run that negates nothing forces nothing: the same run
		// for every style of the site.
		key := siteTest{site.ID, test}
		unforced := f.Trace && len(f.Evals) == 0
		if out, ok := r.traced[key]; ok && unforced {
			return out, nil
		}
		if out, ok := r.negatedRuns[key]; ok && f.EveryEval() && f.Whole() {
			return out, nil
		}
		if !f.Whole() && !split[test] {
			split[test] = true
			r.logf("angelic: %s fails under every value forced in the whole test; split into fragments, failing: %s",
				k.name, describeFragments(r.fragmentReports(k, angelic.Force{Fragments: r.failed[k]}, guard)))
		}
		mu.Unlock()
		run := r.forcedRun(k, site, st, f, collect.ModeCover)
		res, retried, err := r.runForced(ctx, run)
		mu.Lock()
		r.forcedRan(res, retried, k.name) // a hung run (Hung) has TimedOut set too
		if err != nil {
			return angelic.Outcome{}, fmt.Errorf("running %s with site %d forced: %w", k.name, site.ID, err)
		}
		out := angelic.Outcome{Passed: res.Passed, TimedOut: res.TimedOut}
		if f.Trace {
			out.Evaluations = printedEvals(res.Output, site.ID)
			if !res.Passed {
				out.FailedAfter = failedAfter(res.Output)
			}
		}
		out.Failing = r.attributedFailures(k, run, res)
		if unforced && !res.TimedOut {
			r.traced[key] = out
		}
		if len(f.Values) > 0 {
			r.logf("angelic: %s with its own value forced in each fragment, %s: %s", k.name, describeFragments(r.fragmentReports(k, f, guard)), passFail(res))
		} else if !f.Whole() {
			what := angelic.Force{Value: f.Value, Return: f.Return}.Label(guard) + " forced"
			if f.EveryEval() {
				what = "the condition negated"
			}
			r.logf("angelic: %s with %s in %s: %s", k.name, what, describeFragments(r.fragmentReports(k, f, guard)), passFail(res))
		} else {
			hung := fmt.Sprint(res.Hung)
			if res.OverMemory {
				hung += ", past its memory cap" // memLimit
			}
			r.vlogf("forced %s=%s: passed=%v timed out=%v (hung %s) failed after evaluation %d (%s)", k.name, f.Label(guard), res.Passed, res.TimedOut, hung, out.FailedAfter, res.Duration.Round(time.Millisecond))
		}
		return out, nil
	}
	v, err := angelic.Search(ctx, p, run)
	r.surplus += v.Surplus*testWork(false) + v.SurplusHung*hungWork
	return v, err
}

func passFail(res collect.Result) string {
	switch {
	case res.Passed:
		return "passes"
	case res.TimedOut:
		return "times out"
	}
	return "fails"
}

// counts converts collect's per-site counts, indexed by outcome: [0]
// false, [1] true.
func counts(c [2]int) angelic.Counts {
	return angelic.Counts{True: c[1], False: c[0]}
}

// failedAfter is the evaluation of the traced site after which the first
// failure of a run's output was reported, 0 when unknown.
func failedAfter(output string) int {
	if locs := constituent.ParseOutput(output); len(locs) > 0 {
		return locs[0].Eval
	}
	return 0
}

// printedEvals is the last evaluation of site printed in a traced run's
// output (constituent.EvalLine), 0 for none.
func printedEvals(output string, site int) int {
	prefix := strings.TrimSuffix(constituent.EvalLine(site, 0), "0\n")
	n := 0
	for line := range strings.Lines(output) {
		if rest, ok := strings.CutPrefix(line, prefix); ok {
			if k, err := strconv.Atoi(strings.TrimSpace(rest)); err == nil {
				n = max(n, k)
			}
		}
	}
	return n
}

// guessesOf proposes the observed predicates whose value the site is
// forced to at each of its evaluations in failing test k
// (angelic.Problem.Guess): those of guessPredicates, each with its
// negation, by their source (angelic.Force.Guess; r.guessed keeps the
// predicates), at most maxPlainGuesses, then at a condition the
// original joined with a predicate (a clause added: `original || p`,
// `original && p`), at most maxJoinedGuesses. A predicate is left out
// when it reads a value missing in a run of the test recorded unforced,
// or, when that run recorded every evaluation, gives each the outcome it
// had (at a guard, the statement runs wherever it does not hold). At a
// condition, only predicates over what the original reads are guessed
// alone (a condition over other values shares none of its variables);
// joined with the original, any. At a guard, only boolean observed
// expressions, none that leaves at every evaluation, and of two that
// give the recorded evaluations the same outcomes only the first; so
// for the joined ones at a condition.
func (r *repairer) guessesOf(ctx context.Context, site collect.Site, k testKey) ([]string, error) {
	key := siteTest{site.ID, k.id()}
	if g, ok := r.guesses[key]; ok {
		return g, nil // the same for every style of the site
	}
	g, err := r.guess(ctx, site, k)
	if err == nil {
		r.guesses[key] = g
	}
	return g, err
}

// siteTest names a site and a failing test (by id).
type siteTest struct {
	site int
	test string
}

func (r *repairer) guess(ctx context.Context, site collect.Site, k testKey) ([]string, error) {
	run := r.testRun(k, collect.ModeSnapshot)
	run.Sites = []int{site.ID}
	res, err := r.bin.Run(ctx, run)
	r.ran(testWork(res.TimedOut))
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, nil // no guesses; the search goes on
	}
	if res.TimedOut && !r.runaway[site.ID] {
		// An observed call may never end: not every state is recorded.
		// At the entry of a runaway recursion, the test never ends:
		// its first evaluations are what the guesses read.
		return nil, nil
	}
	var evals []collect.Eval
	for _, e := range res.Evals {
		if e.Site == site.ID {
			evals = append(evals, e)
		}
	}
	if len(evals) == 0 {
		return nil, nil
	}
	// The hook records the first RecordCap evaluations: past them, a
	// predicate that agrees with every recorded outcome may not agree
	// with the others.
	c := res.Reached[site.ID]
	complete := len(evals) == c[0]+c[1] && len(evals) < collect.RecordCap
	if r.guessed[site.ID] == nil {
		r.guessed[site.ID] = map[string]collect.Predicate{}
	}
	var out []string
	seen := map[string]bool{}
	plain, joined := 0, 0
	for _, p := range guessPredicates(site) {
		if p.Combine == collect.CombineNone && plain >= maxPlainGuesses || p.Combine != collect.CombineNone && joined >= maxJoinedGuesses {
			continue
		}
		// At a guard, whose exits are searched at many sites, only the
		// boolean observed expressions are guessed, one for each set of
		// outcomes they give the recorded evaluations.
		if site.Kind == collect.Guard && p.Op != collect.PredBool {
			continue
		}
		// At a condition, only predicates over what the original reads:
		// a condition synthesized from the others' values shares none of
		// its variables and is withheld (speculative.go).
		if site.Kind == collect.Cond && p.Combine == collect.CombineNone && !readsOriginal(site, p) {
			continue
		}
		var outcomes []bool
		same, all := true, true
		for _, e := range evals {
			// Unforced, the outcome is the original's.
			o, known := p.Outcome(e.Outcome, e.Values)
			if !known {
				outcomes = nil
				break
			}
			// At a guard the outcome is "the statement runs".
			if site.Kind == collect.Guard {
				o = !o
			}
			outcomes = append(outcomes, o)
			same = same && o == e.Outcome
			all = all && o != e.Outcome
		}
		// At a condition, two predicates that give the recorded
		// evaluations the same outcomes are both kept: after the first
		// evaluation they negate, the run goes elsewhere, where they may
		// differ. At a guard, an exit at every recorded evaluation is
		// the constant exit, already tried.
		key := fmt.Sprint(outcomes)
		once := site.Kind == collect.Guard || p.Combine != collect.CombineNone
		if outcomes == nil || complete && same || once && seen[key] || site.Kind == collect.Guard && complete && all {
			continue
		}
		if once {
			seen[key] = true
		}
		if p.Combine == collect.CombineNone {
			plain++
		} else {
			joined++
		}
		src := predicateSource(site, p)
		r.guessed[site.ID][src] = p
		out = append(out, src)
	}
	r.vlogf("angelic: %s: %d predicates guessed from %s at the site", k.name, len(out), plural(len(evals), "recorded state"))
	return out, nil
}

// readsOriginal reports whether every observed expression p reads
// appears in the site's original condition (or statement).
func readsOriginal(site collect.Site, p collect.Predicate) bool {
	in := func(i int) bool { return mentions(site.Original, site.Observed[i].Expr) }
	return in(p.Index) && (p.Other < 0 || in(p.Other))
}

// guessPredicates are the predicates a guess forces (each also
// negated), first over the expressions the site's original condition
// (or statement) reads, then over the others, and in each part in this
// order: each boolean observed expression b; each integer observed
// expression x against 0 and the integer constants of its type around
// the site (x == c, x < c, x <= c; only == for a value with named
// values, as reflect.Kind, and for a character against a character the
// code only tests for equality; a character is not compared with 0, nor
// a loop counter with any constant);
// each two integer observed expressions of one
// type (x == y, x < y, x <= y). Observed expressions come in the site's
// order, closest first.
func guessPredicates(site collect.Site) []collect.Predicate {
	// [part][0 bools, 1 constants, 2 pairs]
	var parts [2][3][]collect.Predicate
	part := func(i int) int {
		if readsOriginal(site, collect.Predicate{Index: i, Other: -1}) {
			return 0
		}
		return 1
	}
	both := func(out *[]collect.Predicate, p collect.Predicate) {
		q := p
		q.Negate = true
		*out = append(*out, p, q)
	}
	ops := func(enum bool) []collect.PredOp {
		if enum {
			return []collect.PredOp{collect.PredEq}
		}
		return []collect.PredOp{collect.PredEq, collect.PredLess, collect.PredLessEq}
	}
	for i, o := range site.Observed {
		if o.Shadow || o.NoOp {
			continue // a shadow's atom's predicates are guessed; a no-op marker is no input
		}
		pt := &parts[part(i)]
		switch o.Kind {
		case collect.KindBool:
			both(&pt[0], collect.Predicate{Index: i, Op: collect.PredBool, Other: -1})
		case collect.KindInt:
			// A character against the characters the code has: equal to
			// one, or ordered against an end of a range it tests
			// (Constant.Bound); 0 is no character.
			// A loop counter against a constant tests one iteration
			// (antipattern.go); against another value it is a bound, in
			// the pairs below.
			counter := slices.Contains(site.LoopVars, o.Expr)
			var cs []int64
			var bound []bool
			if !o.Char && !counter {
				cs, bound = []int64{0}, []bool{true}
			}
			for _, c := range site.Constants {
				if counter {
					break
				}
				if c.Value.Kind == collect.KindInt && !c.Factor && (c.Type == "" || c.Type == o.Type) && !slices.Contains(cs, c.Value.Int) {
					cs = append(cs, c.Value.Int)
					bound = append(bound, !o.Char || c.Bound)
				}
			}
			for k, c := range cs {
				for _, op := range ops(o.Enum || !bound[k]) {
					both(&pt[1], collect.Predicate{Index: i, Op: op, Other: -1, Const: c})
				}
			}
			for j := i + 1; j < len(site.Observed); j++ {
				o2 := site.Observed[j]
				if o2.Shadow || o2.NoOp || o2.Kind != collect.KindInt || o2.Type != o.Type || o2.Enum != o.Enum {
					continue
				}
				pp := &parts[max(part(i), part(j))][2]
				for _, op := range ops(o.Enum) {
					both(pp, collect.Predicate{Index: i, Op: op, Other: j})
				}
			}
		}
	}
	var out []collect.Predicate
	for _, pt := range parts {
		out = slices.Concat(out, pt[0], pt[1], pt[2])
	}
	if site.Kind == collect.Cond {
		// A clause added to the original: joined with each boolean, the
		// original's operands' first, and each comparison of an operand
		// of the original with a constant.
		for _, p := range slices.Concat(parts[0][0], parts[0][1], parts[1][0]) {
			for _, c := range []collect.PredCombine{collect.CombineOr, collect.CombineAnd} {
				q := p
				q.Combine = c
				out = append(out, q)
			}
		}
	}
	return out
}

// maxPlainGuesses and maxJoinedGuesses bound the predicates guessed alone
// and joined with the original condition (guessesOf); together they are
// angelic.MaxGuesses.
const (
	maxPlainGuesses  = 24
	maxJoinedGuesses = angelic.MaxGuesses - maxPlainGuesses
)

// predicateSource is p as Go source over the site's observed
// expressions ("n.child < 0"), joined with the original condition when
// p.Combine says so ("t.Kind() == reflect.Slice || t.Kind() == 17").
func predicateSource(site collect.Site, p collect.Predicate) string {
	src := plainSource(site, p)
	orig := collect.OneLine(site.Original)
	switch p.Combine {
	case collect.CombineOr:
		return orig + " || " + src
	case collect.CombineAnd:
		if strings.Contains(orig, "||") {
			orig = "(" + orig + ")"
		}
		return orig + " && " + src
	}
	return src
}

// plainSource is predicateSource without the original.
func plainSource(site collect.Site, p collect.Predicate) string {
	x := site.Observed[p.Index].Expr
	if p.Op == collect.PredBool {
		if p.Negate {
			return "!(" + x + ")"
		}
		return x
	}
	y := strconv.FormatInt(p.Const, 10)
	if p.Other >= 0 {
		y = site.Observed[p.Other].Expr
	} else if c, ok := constantNamed(site, site.Observed[p.Index], p.Const); ok {
		y = c
	}
	op := map[collect.PredOp][2]string{collect.PredEq: {"==", "!="}, collect.PredLess: {"<", ">="}, collect.PredLessEq: {"<=", ">"}}[p.Op][boolIndex(p.Negate)]
	return x + " " + op + " " + y
}

// constantNamed is how the code writes the integer v compared with o:
// the constant of o's type with that value (reflect.Array for a Kind, a
// character literal for a rune), when the site has one.
func constantNamed(site collect.Site, o collect.Observed, v int64) (string, bool) {
	for _, c := range site.Constants {
		if c.Value.Kind != collect.KindInt || c.Value.Int != v || c.Factor {
			continue
		}
		if o.Enum && c.Type == o.Type || o.Char && strings.HasPrefix(c.Expr, "'") {
			return c.Expr, true
		}
	}
	return "", false
}

func boolIndex(b bool) int {
	if b {
		return 1
	}
	return 0
}

// negationFirst reorders sites, the Cond sites of the per-evaluation
// tier: first those where every failing test passes with the condition
// negated at every evaluation (angelic.Force.EveryEval), in their order. A
// comparison written the wrong way round in a loop, which no constant
// value repairs, needs a run per failing test to find, where the full
// search of a site evaluated many times costs dozens (the tier orders
// the sites fewest evaluations first, and its effort may end before the
// last). The runs are those the search of each site makes first
// (repairer.negatedRuns keeps their outcomes); they stop when the
// tier's effort is spent.
func (r *repairer) negationFirst(ctx context.Context, sites []angelic.Suspicion) ([]angelic.Suspicion, error) {
	var first, rest []angelic.Suspicion
	for i, s := range sites {
		if !r.ownLeft() {
			return slices.Concat(first, rest, sites[i:]), nil
		}
		site := r.prog.Sites[s.Site]
		passes := true
		for _, k := range r.failing {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			f := angelic.Force{Evals: []int{0}}
			run := r.forcedRun(k, site, style{}, f, collect.ModeCover)
			res, retried, err := r.runForced(ctx, run)
			r.forcedRan(res, retried, k.name)
			if err != nil {
				return nil, fmt.Errorf("running %s with site %d negated: %w", k.name, site.ID, err)
			}
			r.negatedRuns[siteTest{site.ID, k.id()}] = angelic.Outcome{Passed: res.Passed, TimedOut: res.TimedOut, Failing: r.attributedFailures(k, run, res)}
			r.vlogf("forced %s=%s at %s:%d: passed=%v timed out=%v (%s)", k.name, f.Label(false), filepath.Base(site.File), site.Line, res.Passed, res.TimedOut, res.Duration.Round(time.Millisecond))
			if !res.Passed {
				passes = false
				break
			}
		}
		if passes {
			first = append(first, s)
		} else {
			rest = append(rest, s)
		}
	}
	if len(first) > 0 {
		r.logf("per-evaluation: %s where the failing tests pass with the condition negated at every evaluation, first", plural(len(first), "condition"))
	}
	return slices.Concat(first, rest), nil
}
