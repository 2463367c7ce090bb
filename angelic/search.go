package angelic

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"sync"
)

// Constituent is a constituent of a test (see internal/constituent): Segment is
// the index of a top-level statement of the test function, Iteration the
// iteration of a top-level table loop (from 1; 0 outside loops). A set of
// them, where a value is forced, is a fragment (Force.Fragments).
type Constituent struct {
	Segment, Iteration int
}

// String renders f as "segment.iteration".
func (f Constituent) String() string { return fmt.Sprintf("%d.%d", f.Segment, f.Iteration) }

// Force is the outcome forced at the site for one test run.
type Force struct {
	// Value is the forced outcome: a condition's value, or whether a
	// guarded statement runs.
	Value bool
	// Return, with Value false at a guard site, returns early from the
	// function instead of skipping the statement.
	Return bool
	// Fragments restrict forcing to these constituents of the test (the
	// failing ones of a purified test); empty forces during the whole
	// test.
	Fragments []Constituent
	// Values, when not empty, is parallel to Fragments: the value forced
	// in each, instead of Value (a test whose failing fragments need
	// different values: a table whose failing cases lie on both sides of
	// the condition). Only at a condition.
	Values []bool
	// Evals, when not empty, negate the outcome of these evaluations of
	// the site (from 1, in the test's order) and force nothing else;
	// Value is then ignored (at a guard, Value and Return say how the
	// flipped evaluations leave). See Problem.MaxFlips. Evaluation 0
	// stands for every one (EveryEval): the condition negated, in
	// Fragments only when there are some.
	Evals []int
	// Trace asks the Runner to report after which evaluation of the site
	// the test failed (Outcome.FailedAfter); with Evals empty nothing is
	// forced.
	Trace bool
	// Guess, when not empty, names an observed predicate (from
	// Problem.Guess) whose value is the outcome at every evaluation of
	// the site (at a guard, the exit is taken where it holds); Value
	// and Evals are then ignored.
	Guess string
}

// PerEval reports whether f forces single evaluations (Evals, Trace)
// rather than a constant value.
func (f Force) PerEval() bool { return len(f.Evals) > 0 || f.Trace || f.Guess != "" }

// EveryEval reports whether f negates every evaluation of the site
// (Evals is [0]).
func (f Force) EveryEval() bool { return len(f.Evals) == 1 && f.Evals[0] == 0 }

// Whole reports whether f applies to the whole test.
func (f Force) Whole() bool { return len(f.Fragments) == 0 }

// String renders f as "true", "false" or "return", with
// "@segment.iteration+..." when it applies to some fragments.
func (f Force) String() string { return f.Label(false) }

// Label is String for a site of the given kind: at a guard, a false that
// does not return is "skip".
func (f Force) Label(guard bool) string {
	if f.Guess != "" {
		if guard {
			return "leave@" + f.Guess
		}
		return "value@" + f.Guess
	}
	if f.EveryEval() {
		s := "flip@every"
		for _, fr := range f.Fragments {
			s += "@" + fr.String()
		}
		return s
	}
	if f.PerEval() {
		s := "flip@eval"
		for i, k := range f.Evals {
			if i > 0 {
				s += "+"
			}
			s += strconv.Itoa(k)
		}
		return s
	}
	if len(f.Values) > 0 {
		s := ""
		for i, fr := range f.Fragments {
			if i > 0 {
				s += "+"
			}
			s += fmt.Sprint(f.Values[i]) + "@" + fr.String()
		}
		return s
	}
	s := fmt.Sprint(f.Value)
	switch {
	case f.Return:
		s = "return"
	case guard && !f.Value:
		s = "skip"
	}
	for i, fr := range f.Fragments {
		if i == 0 {
			s += "@"
		} else {
			s += "+"
		}
		s += fr.String()
	}
	return s
}

// Outcome is how a forced run went.
type Outcome struct {
	Passed   bool
	TimedOut bool
	// Failing are the fragments the run's failures were attributed to, in
	// order of report, when the Runner attributes failures (purification
	// on; a run forced in fragments, or negated at every evaluation);
	// empty otherwise or when no failure could be attributed.
	Failing []Constituent
	// FailedAfter is, for a run with Force.Trace, the evaluation of the
	// site after which the first failure was reported; 0 when unknown.
	FailedAfter int
	// Evaluations is, for a run with Force.Trace, the number of
	// evaluations of the site the run printed (at most MaxEvaluations);
	// 0 when unknown.
	Evaluations int
}

// Runner runs one test with the site under search forced as f.
type Runner func(ctx context.Context, test string, f Force) (Outcome, error)

// Counts are the outcomes of a site's evaluations in an unforced run.
// Interrupted counts those without one: the evaluation panicked.
type Counts struct {
	True, False, Interrupted int
}

// Reached reports whether there was any evaluation.
func (c Counts) Reached() bool { return c.True+c.False+c.Interrupted > 0 }

// only reports whether every evaluation had outcome v (and there was one).
func (c Counts) only(v bool) bool {
	if c.Interrupted > 0 {
		return false
	}
	if v {
		return c.True > 0 && c.False == 0
	}
	return c.False > 0 && c.True == 0
}

// FailingTest is a failing test as the search sees it.
type FailingTest struct {
	// Name is passed to the Runner.
	Name string
	// Counts are the site's outcomes in the test's unforced run.
	Counts
	// Failing are the fragments the unforced run's failures were
	// attributed to; empty when the test is not purified. A test that
	// fails under every whole-test force is then forced per fragment.
	Failing []Constituent
}

// Problem is the angelic search at one site.
type Problem struct {
	// Choices are the forced outcomes to try, in order of preference
	// (Fragments is ignored): true and false at a condition; skip, or
	// return, at a guard.
	Choices []Force
	// Tests are the failing tests to repair.
	Tests []FailingTest
	// MaxFragments bounds the fragments forced at once in a test; 0 means
	// 16.
	MaxFragments int
	// MaxFlips, when > 0, allows per-evaluation angelic values: a test
	// that fails under every constant force (whole and per fragment) is
	// run, at a condition, with every evaluation negated (then, when it
	// was purified and that run's failures lie in other fragments only,
	// with those in its failing fragments negated); then traced,
	// and the evaluation after which it failed is negated; while it
	// fails after a new evaluation, that one is negated too (a
	// nil pointer met in several calls needs a guard's exit at each),
	// at most MaxDirected runs. Then the sets of Guess; then one evaluation's
	// outcome is negated at a time, the last evaluation first, then
	// earlier ones, at most MaxFlips runs. A condition in a loop that
	// must be true on some iterations and false on others (an off-by-one
	// exit) has no constant angelic value but has such a sequence (SPR,
	// Long & Rinard FSE 2015, search sequences of branch outcomes). The
	// negations by number only for tests that evaluate the site at most
	// MaxEvaluations times; the guesses for any test.
	MaxFlips int
	// Guess, when not nil, proposes for a failing test (by name)
	// observed predicates (Force.Guess) whose value, at every evaluation
	// of the site, is its outcome (at a guard: the exit is taken where
	// it holds): tried after the failure-directed search, before single
	// evaluations, at most MaxGuesses. A failure reported only at the
	// end of a test (one comparison of a whole output) says nothing about
	// which evaluations to negate; the states do.
	Guess func(ctx context.Context, test string) ([]string, error)
	// PerEvalOnly skips the constant forces (whole, per fragment): only
	// the per-evaluation search runs (MaxFlips > 0). A guard whose exit,
	// taken at every evaluation, makes a test pass by leaving at the
	// first one may need it at some only: the constant's states, every
	// one marked "leave", then contradict the passing tests'.
	PerEvalOnly bool
	// Parallel is how many runs of one test may be made at once, where
	// the search would make them anyway (the choices of a test) or
	// stops at the first that passes (guessed sets, single evaluations):
	// those runs go in waves of Parallel, and the first passing one in
	// the search's order is taken, as if they had run one by one. 0 or
	// 1 runs them one at a time. The Runner must then be safe for
	// concurrent use.
	Parallel int
}

// MaxGuesses bounds the evaluation sets of Problem.Guess tried per test.
const MaxGuesses = 40

// MaxHung ends the guesses, or the single negations, of one test after
// that many runs in a row timed out: a forced outcome that keeps a loop
// from ending makes the predicates over the same state hang alike (a
// byte scan forced on by each of c < 32, c != 127, c <= 128, …), and a
// run that times out costs as much as a score of runs that do not.
const MaxHung = 3

// MaxDirected bounds the runs of the failure-directed per-evaluation
// search of one test (see Problem.MaxFlips).
const MaxDirected = 32

// MaxEvaluations bounds the evaluations of a site in a test for the
// per-evaluation search.
const MaxEvaluations = 1000

// Need is the angelic value of one failing test: the forced outcome under
// which it passes.
type Need struct {
	Test  string
	Force Force
	// Also lists other whole-test forces under which it passes too.
	Also []Force
	// Split reports that the test failed under every whole-test force
	// and was split into fragments: Force names the failing ones.
	Split bool
}

// Attempt is one forced run made by the search.
type Attempt struct {
	Test  string
	Force Force
	Outcome
}

// Verdict is the result of a search.
type Verdict struct {
	// Qualified reports whether every failing test has an angelic value.
	Qualified bool
	// Needs are the failing tests' angelic values, parallel to
	// Problem.Tests, when Qualified.
	Needs []Need
	// RuledOutBy names the failing test that no forced value repaired, or
	// that does not reach the site; Reason says which.
	RuledOutBy, Reason string
	// Attempts are the runs of the search, in order: those it would
	// have made one at a time.
	Attempts []Attempt
	// Surplus counts the runs made in a wave after the first that
	// passed (Problem.Parallel), SurplusHung those of them that timed
	// out: not in Attempts, and none without a wave. Attempts count the
	// same on every machine; the surplus does not.
	Surplus, SurplusHung int
}

// Search looks for an angelic value of every failing test of p, running
// them through run, and stops at the first test without one. A forced
// value equal to every outcome of the test's unforced run is not run: it is
// the failing run itself. Errors of run end the search.
//
// A test that fails under every whole-test force and whose failures were
// attributed to fragments (FailingTest.Failing) is purified: each choice
// is forced only in the failing fragments, all at once. When that run
// still fails, the fragments its failures are attributed to (a failure
// that an earlier one hid, such as a panic stopping the test) join the
// forced ones and the test is run again, until it passes, no new fragment
// fails, or MaxFragments is reached. Then the fragments get values of their
// own: read off those runs (mixed), or found one fragment at a time in the
// order they fail (sequential).
func Search(ctx context.Context, p Problem, run Runner) (Verdict, error) {
	var v Verdict
	maxFragments := p.MaxFragments
	if maxFragments == 0 {
		maxFragments = 16
	}
	try := func(t FailingTest, f Force) (Outcome, error) {
		if err := ctx.Err(); err != nil {
			return Outcome{}, err
		}
		out, err := run(ctx, t.Name, f)
		if err != nil {
			return Outcome{}, err
		}
		v.Attempts = append(v.Attempts, Attempt{Test: t.Name, Force: f, Outcome: out})
		return out, nil
	}
	// tryAll runs fs in waves of p.Parallel and returns their outcomes
	// in order; with first, it stops after the wave where one passed, or
	// where MaxHung runs in a row timed out (the outcomes of the forces
	// not run are zero, and none is after that wave).
	tryAll := func(t FailingTest, fs []Force, first bool) ([]Outcome, error) {
		outs := make([]Outcome, len(fs))
		wave := max(p.Parallel, 1)
		hung := 0 // the runs in a row that timed out
		for i := 0; i < len(fs); i += wave {
			if err := ctx.Err(); err != nil {
				return outs, err
			}
			j := min(i+wave, len(fs))
			errs := make([]error, j-i)
			var wg sync.WaitGroup
			for k := i; k < j; k++ {
				if k == j-1 {
					outs[k], errs[k-i] = run(ctx, t.Name, fs[k]) // this goroutine's share
					continue
				}
				wg.Go(func() { outs[k], errs[k-i] = run(ctx, t.Name, fs[k]) })
			}
			wg.Wait()
			for k := i; k < j; k++ {
				if err := errs[k-i]; err != nil {
					return outs, err
				}
			}
			for k := i; k < j; k++ {
				v.Attempts = append(v.Attempts, Attempt{Test: t.Name, Force: fs[k], Outcome: outs[k]})
				if outs[k].TimedOut {
					hung++
				} else {
					hung = 0
				}
				if first && (outs[k].Passed || hung >= MaxHung) {
					// The runs after it in its wave are not the
					// search's: their outcomes are dropped.
					v.Surplus += j - 1 - k
					for _, o := range outs[k+1 : j] {
						if o.TimedOut {
							v.SurplusHung++
						}
					}
					clear(outs[k+1 : j])
					return outs, nil
				}
			}
		}
		return outs, nil
	}
	// The constant forces (whole, per fragment) are tried with these
	// choices: none with PerEvalOnly.
	constants := p.Choices
	if p.PerEvalOnly {
		constants = nil
	}
	for _, t := range p.Tests {
		if !t.Reached() {
			v.RuledOutBy, v.Reason = t.Name, "does not reach the site"
			return v, nil
		}
		need := Need{Test: t.Name}
		found := false
		var choices []Force
		for _, c := range constants {
			f := Force{Value: c.Value, Return: c.Return}
			if !f.Return && t.only(f.Value) {
				continue
			}
			choices = append(choices, f)
		}
		outs, err := tryAll(t, choices, false)
		if err != nil {
			return v, err
		}
		for i, f := range choices {
			if !outs[i].Passed {
				continue
			}
			if !found {
				need.Force, found = f, true
			} else {
				need.Also = append(need.Also, f)
			}
		}
		for _, c := range constants {
			if found || len(t.Failing) == 0 {
				break
			}
			f, ok, err := purified(t, c, maxFragments, try)
			if err != nil {
				return v, err
			}
			if ok {
				need.Force, need.Split, found = f, true, true
			}
		}
		if !found && len(t.Failing) > 1 {
			f, ok, err := mixed(t, constants, v.Attempts, try)
			if err != nil {
				return v, err
			}
			if ok {
				need.Force, need.Split, found = f, true, true
			}
		}
		if !found && len(t.Failing) > 0 {
			// A run the search made already is not made again (a
			// test with one failing fragment: purified's runs).
			tryOnce := func(t FailingTest, f Force) (Outcome, error) {
				label := f.String()
				for _, a := range v.Attempts {
					if a.Test == t.Name && !a.Force.PerEval() && a.Force.String() == label {
						return a.Outcome, nil
					}
				}
				return try(t, f)
			}
			f, ok, err := sequential(t, constants, maxFragments, tryOnce)
			if err != nil {
				return v, err
			}
			if ok {
				need.Force, need.Split, found = f, true, true
			}
		}
		perEval := func(evals []int, trace bool) Force {
			f := Force{Evals: evals, Trace: trace}
			if len(p.Choices) == 1 {
				// A guard's exit, taken at those evaluations only.
				f.Value, f.Return = p.Choices[0].Value, p.Choices[0].Return
			}
			return f
		}
		// Negating evaluations by number needs few of them; a guess is
		// forced at every evaluation, however many.
		n := t.True + t.False
		few := n <= MaxEvaluations
		// At a condition, first the condition negated at every
		// evaluation: one run, and the likeliest sequence (a comparison
		// written the wrong way round, in a loop whose passing tests
		// never reach the case). At a guard that is the constant exit.
		if !found && p.MaxFlips > 0 && len(p.Choices) > 1 {
			f := perEval([]int{0}, false)
			out, err := try(t, f)
			if err != nil {
				return v, err
			}
			if out.Passed {
				need.Force, found = f, true
			}
			// Then negated in the failing fragments only, when the
			// negation everywhere repaired them and broke others: a
			// table whose other cases need the condition as written
			// (an index compared with the wrong length, wrong at both
			// fields of one case).
			if !found && len(t.Failing) > 0 && len(out.Failing) > 0 && !slices.ContainsFunc(out.Failing, func(c Constituent) bool { return slices.Contains(t.Failing, c) }) {
				f.Fragments = t.Failing
				out, err := try(t, f)
				if err != nil {
					return v, err
				}
				if out.Passed {
					need.Force, need.Split, found = f, true, true
				}
			}
		}
		if !found && p.MaxFlips > 0 && few {
			f, ok, err := directed(perEval, func(f Force) (Outcome, error) { return try(t, f) })
			if err != nil {
				return v, err
			}
			if ok {
				need.Force, found = f, true
			}
		}
		if !found && p.MaxFlips > 0 && p.Guess != nil {
			guesses, err := p.Guess(ctx, t.Name)
			if err != nil {
				return v, err
			}
			var fs []Force
			for _, g := range guesses[:min(len(guesses), MaxGuesses)] {
				f := perEval(nil, false)
				f.Guess = g
				fs = append(fs, f)
			}
			outs, err := tryAll(t, fs, true)
			if err != nil {
				return v, err
			}
			if i := slices.IndexFunc(outs, func(o Outcome) bool { return o.Passed }); i >= 0 {
				need.Force, found = fs[i], true
			}
		}
		if !found && p.MaxFlips > 0 && few {
			// One evaluation at a time, the last first: the last
			// evaluation the traced run printed when the counts of the
			// unforced run stop at the hook's cap (counts are written at
			// powers of two past it). Evaluations the directed search
			// negated alone are not run again.
			last, tried := n, map[int]bool{}
			for _, a := range v.Attempts {
				if a.Test != t.Name || !a.Force.PerEval() {
					continue
				}
				if a.Force.Trace && len(a.Force.Evals) == 0 {
					if a.Evaluations > last && a.Evaluations < MaxEvaluations {
						last = a.Evaluations
					}
				}
				if len(a.Force.Evals) == 1 {
					tried[a.Force.Evals[0]] = true
				}
			}
			var flips []Force
			for k := last; !found && k >= 1 && len(flips) < p.MaxFlips; k-- {
				if !tried[k] {
					flips = append(flips, perEval([]int{k}, false))
				}
			}
			outs, err := tryAll(t, flips, true)
			if err != nil {
				return v, err
			}
			if i := slices.IndexFunc(outs, func(o Outcome) bool { return o.Passed }); i >= 0 {
				need.Force, found = flips[i], true
			}
		}
		if !found {
			v.RuledOutBy, v.Reason = t.Name, "fails under every forced value"
			if len(t.Failing) > 0 {
				v.Reason += ", also per failing fragment"
			}
			if p.MaxFlips > 0 {
				v.Reason += ", and with any of its last evaluations negated"
			}
			return v, nil
		}
		v.Needs = append(v.Needs, need)
	}
	v.Qualified = len(p.Tests) > 0
	if !v.Qualified {
		v.Reason = "no failing test"
	}
	return v, nil
}

// purified forces c in t's failing fragments, adding the fragments that
// fail next until the test passes (ok) or no new fragment fails.
func purified(t FailingTest, c Force, max int, try func(FailingTest, Force) (Outcome, error)) (Force, bool, error) {
	f := Force{Value: c.Value, Return: c.Return}
	add := func(frs []Constituent) int {
		n := 0
		for _, fr := range frs {
			if !slices.Contains(f.Fragments, fr) && len(f.Fragments) < max {
				f.Fragments = append(f.Fragments, fr)
				n++
			}
		}
		return n
	}
	add(t.Failing)
	for {
		out, err := try(t, f)
		if err != nil || out.Passed {
			return f, err == nil, err
		}
		if add(out.Failing) == 0 {
			return f, false, nil
		}
	}
}

// mixed forces each of t's failing fragments with its own value, when no
// one value forced in them all made the test pass: at a condition (the
// choices true and false), a fragment needs the value under which the run
// forcing it in every failing fragment (purified's first run, in
// attempts) no longer reported it failing. Every fragment must have one,
// and the values must differ; the test must then pass with each fragment
// forced to its own.
func mixed(t FailingTest, choices []Force, attempts []Attempt, try func(FailingTest, Force) (Outcome, error)) (Force, bool, error) {
	if len(choices) != 2 || slices.ContainsFunc(choices, func(c Force) bool { return c.Return }) {
		return Force{}, false, nil
	}
	// passes[i][b]: fragment i did not fail with value b forced in every
	// failing fragment.
	passes := make([][2]bool, len(t.Failing))
	runs := 0
	for _, a := range attempts {
		if a.Test != t.Name || a.Force.PerEval() || len(a.Force.Values) > 0 || !slices.Equal(a.Force.Fragments, t.Failing) || a.TimedOut {
			continue
		}
		runs++
		for i, fr := range t.Failing {
			if !slices.Contains(a.Failing, fr) && len(a.Failing) > 0 {
				passes[i][boolIndex(a.Force.Value)] = true
			}
		}
	}
	if runs < 2 {
		return Force{}, false, nil
	}
	f := Force{Fragments: t.Failing}
	some := [2]bool{}
	for i := range t.Failing {
		switch {
		case passes[i][1] && passes[i][0]:
			return Force{}, false, nil // either value: the fragment does not say
		case passes[i][1]:
			f.Values = append(f.Values, true)
		case passes[i][0]:
			f.Values = append(f.Values, false)
		default:
			return Force{}, false, nil
		}
		some[boolIndex(f.Values[i])] = true
	}
	if !some[0] || !some[1] {
		return Force{}, false, nil
	}
	out, err := try(t, f)
	if err != nil || !out.Passed {
		return Force{}, false, err
	}
	return f, true, nil
}

// sequential gives t's failing fragments their own values one at a time,
// in the order they fail, when neither one value in them all (purified)
// nor the values read off those runs (mixed) made the test pass: the first
// failing fragment not yet forced gets the first choice under which the run
// no longer reports it failing, and the run's failing fragments are the
// next to handle, until the test passes. A table whose rows lie on both
// sides of the condition, where the buggy outcome panics on the first row,
// hides the rows after it from every run that forces one value: each row
// is reached only once the rows before it pass. At a condition only; at
// most two runs per fragment, and max fragments.
func sequential(t FailingTest, choices []Force, max int, try func(FailingTest, Force) (Outcome, error)) (Force, bool, error) {
	if len(choices) != 2 || slices.ContainsFunc(choices, func(c Force) bool { return c.Return }) {
		return Force{}, false, nil
	}
	var f Force
	failing := t.Failing
	for len(f.Fragments) < max {
		i := slices.IndexFunc(failing, func(fr Constituent) bool { return !slices.Contains(f.Fragments, fr) })
		if i < 0 {
			return Force{}, false, nil // a forced fragment fails whatever its value
		}
		fr := failing[i]
		moved := false
		for _, c := range choices {
			g := Force{Fragments: append(slices.Clone(f.Fragments), fr), Values: append(slices.Clone(f.Values), c.Value)}
			out, err := try(t, g)
			if err != nil {
				return Force{}, false, err
			}
			if out.Passed {
				return g, true, nil
			}
			if len(out.Failing) > 0 && !slices.Contains(out.Failing, fr) && !out.TimedOut {
				f, failing, moved = g, out.Failing, true
				break
			}
		}
		if !moved {
			return Force{}, false, nil
		}
	}
	return Force{}, false, nil
}

func boolIndex(b bool) int {
	if b {
		return 1
	}
	return 0
}

// directed is the failure-directed per-evaluation search of one test: run
// it traced, negate the evaluation after which it failed, and again while
// it fails after an evaluation not yet negated, at most MaxDirected runs.
func directed(perEval func(evals []int, trace bool) Force, try func(Force) (Outcome, error)) (Force, bool, error) {
	var evals []int
	for range MaxDirected {
		f := perEval(evals, true)
		out, err := try(f)
		if err != nil || out.Passed {
			return f, err == nil && len(evals) > 0, err
		}
		// In a deterministic test, negating an evaluation moves the
		// failure later; an earlier one means the evaluations are not
		// numbered the same from run to run (a map's order).
		if len(evals) > 0 && out.FailedAfter <= evals[len(evals)-1] || out.FailedAfter <= 0 {
			break
		}
		evals = append(slices.Clone(evals), out.FailedAfter)
	}
	return Force{}, false, nil
}
