package angelic

import (
	"context"
	"fmt"
)

// Force is the outcome forced at the site for one test run.
type Force struct {
	// Value is the forced outcome: a condition's value, or whether a
	// guarded statement runs.
	Value bool
	// Return, with Value false at a guard site, returns early from the
	// function instead of skipping the statement.
	Return bool
	// Segment and Iteration restrict forcing to one constituent of the
	// test; Segment -1 forces during the whole test.
	Segment, Iteration int
}

// Whole reports whether f applies to the whole test.
func (f Force) Whole() bool { return f.Segment < 0 }

// String renders f as "true", "false" or "return", with "@segment.iteration"
// when it applies to one constituent.
func (f Force) String() string { return f.Label(false) }

// Label is String for a site of the given kind: at a guard, a false that
// does not return is "skip".
func (f Force) Label(guard bool) string {
	s := fmt.Sprint(f.Value)
	switch {
	case f.Return:
		s = "return"
	case guard && !f.Value:
		s = "skip"
	}
	if !f.Whole() {
		s += fmt.Sprintf("@%d.%d", f.Segment, f.Iteration)
	}
	return s
}

// Outcome is how a forced run went.
type Outcome struct {
	Passed   bool
	TimedOut bool
}

// Runner runs one test with the site under search forced as f.
type Runner func(ctx context.Context, test string, f Force) (Outcome, error)

// Counts are the outcomes of a site's evaluations in an unforced run.
type Counts struct {
	True, False int
}

// Reached reports whether there was any evaluation.
func (c Counts) Reached() bool { return c.True+c.False > 0 }

// only reports whether every evaluation had outcome v (and there was one).
func (c Counts) only(v bool) bool {
	if v {
		return c.True > 0 && c.False == 0
	}
	return c.False > 0 && c.True == 0
}

// Constituent is a part of a test (a top-level statement of the test
// function, or an iteration of its table loop) that reached the site.
type Constituent struct {
	Segment, Iteration int
	Counts
}

// FailingTest is a failing test as the search sees it.
type FailingTest struct {
	// Name is passed to the Runner.
	Name string
	// Counts are the site's outcomes in the test's unforced run.
	Counts
	// Constituents reached the site in the unforced run, in execution
	// order, each once; empty when the run was not attributed.
	Constituents []Constituent
}

// Problem is the angelic search at one site.
type Problem struct {
	// Choices are the forced outcomes to try, in order of preference
	// (Segment is ignored): true and false at a condition; skip, or
	// return, at a guard.
	Choices []Force
	// Tests are the failing tests to repair.
	Tests []FailingTest
	// MaxConstituents bounds the constituents tried per test; 0 means 16.
	MaxConstituents int
}

// Need is the angelic value of one failing test: the forced outcome under
// which it passes.
type Need struct {
	Test  string
	Force Force
	// Also lists other whole-test forces under which it passes too.
	Also []Force
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
	// Attempts are the runs made, in order.
	Attempts []Attempt
}

// Search looks for an angelic value of every failing test of p, running
// them through run, and stops at the first test without one. A forced
// value equal to every outcome of the test's unforced run is not run: it is
// the failing run itself. Errors of run end the search.
func Search(ctx context.Context, p Problem, run Runner) (Verdict, error) {
	var v Verdict
	max := p.MaxConstituents
	if max == 0 {
		max = 16
	}
	try := func(t FailingTest, f Force) (bool, error) {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		out, err := run(ctx, t.Name, f)
		if err != nil {
			return false, err
		}
		v.Attempts = append(v.Attempts, Attempt{Test: t.Name, Force: f, Outcome: out})
		return out.Passed, nil
	}
	for _, t := range p.Tests {
		if !t.Reached() {
			v.RuledOutBy, v.Reason = t.Name, "does not reach the site"
			return v, nil
		}
		need := Need{Test: t.Name}
		found := false
		for _, c := range p.Choices {
			f := Force{Value: c.Value, Return: c.Return, Segment: -1}
			if !f.Return && t.only(f.Value) {
				continue
			}
			ok, err := try(t, f)
			if err != nil {
				return v, err
			}
			if !ok {
				continue
			}
			if !found {
				need.Force, found = f, true
			} else {
				need.Also = append(need.Also, f)
			}
		}
		// With one constituent reaching the site, forcing it alone is
		// forcing the whole test again.
		for i := 0; !found && len(t.Constituents) > 1 && i < len(t.Constituents) && i < max; i++ {
			k := t.Constituents[i]
			for _, c := range p.Choices {
				f := Force{Value: c.Value, Return: c.Return, Segment: k.Segment, Iteration: k.Iteration}
				if !f.Return && k.only(f.Value) {
					continue
				}
				ok, err := try(t, f)
				if err != nil {
					return v, err
				}
				if ok {
					need.Force, found = f, true
					break
				}
			}
		}
		if !found {
			v.RuledOutBy, v.Reason = t.Name, "fails under every forced value"
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
