package nopol

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/nopol-go/nopol/collect"
	"github.com/nopol-go/nopol/internal/gotest"
)

// Cases: a failing test narrowed to its failing subtests (subtests.go)
// or gocheck tests (gocheck.go) is one test to go test, but its cases
// are many tests to localization. One spectrum for the failing cases and
// one for the passing ones made every site both reach tie: BurntSushi/
// toml's TestToml, 6 failing subtests of its toml-test suite and some
// 700 passing, gave 1050 sites the same score, the faulty
// numHasLeadingZero not among the first 60; yaml.v3's gocheck suite,
// 2952 sites at score 1. So the failing cases run again in coverage one
// at a time (coverCases), the passing ones in up to maxRestGroups groups
// (coverRestCases), and their spectra stand for the test's.

// maxCaseRuns bounds the failing cases of one test that coverCases runs
// apart.
const maxCaseRuns = 16

// caseNames are the failing cases test k is narrowed to, and whether
// they are subtests (else gocheck tests).
func (r *repairer) caseNames(k testKey) ([]string, bool) {
	if names := r.checks[k]; len(names) > 0 {
		return names, false
	}
	return r.narrow[k], true
}

// restNames are the passing cases of failing test k, which its restKey
// stands for, and whether they are subtests (else gocheck tests).
func (r *repairer) restNames(k testKey) ([]string, bool) {
	if names := r.checkRest[k]; len(names) > 0 {
		return names, false
	}
	return r.subRest[k], true
}

// coverCases runs, in coverage, each failing case of a failing test
// narrowed to two or more of them (up to maxCaseRuns), alone. When each
// fails alone, their spectra stand for the test's in localization: a site
// every failing case reaches is more suspicious than one a single one
// reaches.
func (r *repairer) coverCases(ctx context.Context) error {
	r.caseCover = map[testKey][]restCase{}
	for _, k := range r.failing {
		cases, subtests := r.caseNames(k)
		if len(cases) < 2 || len(cases) > maxCaseRuns {
			continue
		}
		var groups [][]string
		for _, c := range cases {
			groups = append(groups, []string{c})
		}
		r.logf("coverage: running the %s of %s one at a time", plural(len(cases), "failing "+caseKind(subtests)), k.name)
		results, err := r.runApart(ctx, k, groups, subtests, false)
		if err != nil {
			return err
		}
		if results == nil {
			r.logf("coverage: a failing %s of %s passes alone (or timed out); the test's spectrum stays whole", caseKind(subtests), k.name)
			continue
		}
		for i, res := range results {
			r.caseCover[k] = append(r.caseCover[k], restCase{groups[i], res, subtests})
		}
	}
	return nil
}

// caseKind names a case: a subtest or a gocheck test.
func caseKind(subtests bool) string {
	if subtests {
		return "subtest"
	}
	return "gocheck test"
}

// maxRestGroups bounds the coverage runs coverRestCases makes for the
// passing cases of one failing test: more cases than that are run in
// that many groups.
const maxRestGroups = 48

// restCase is the coverage run of some cases of a test (its subtests or
// gocheck tests) without the others.
type restCase struct {
	names []string
	res   collect.Result
	// subtests tells the kind of the cases: subtests, or gocheck tests.
	subtests bool
}

// coverRestCases runs, in coverage, the passing cases of each failing
// test that its rest run stands for (coverRest), each alone, or in up to
// maxRestGroups groups. When each passes, their spectra stand for the
// rest run's in localization: a site only some passing cases reach is
// less suspicious than one none reaches, where the rest run's one
// spectrum made every site a passing case reaches count once. The
// snapshots keep the rest run, narrowed to the cases that reach the site
// (narrowRest).
func (r *repairer) coverRestCases(ctx context.Context) error {
	r.restCases = map[testKey][]restCase{}
	for _, k := range r.failing {
		rest := restKey(k)
		names, subtests := r.restNames(k)
		if len(names) < 2 || !slices.Contains(r.restKeys, rest) {
			continue
		}
		groups := inGroups(names, maxRestGroups)
		r.logf("coverage: running the %s of %s in %s", plural(len(names), "passing "+caseKind(subtests)), k.name, plural(len(groups), "run"))
		results, err := r.runApart(ctx, rest, groups, subtests, true)
		if err != nil {
			return err
		}
		if results == nil {
			r.logf("coverage: a passing %s of %s fails alone (or timed out); the passing spectrum stays whole", caseKind(subtests), k.name)
			continue
		}
		for i, res := range results {
			r.restCases[rest] = append(r.restCases[rest], restCase{groups[i], res, subtests})
		}
	}
	return nil
}

// runApart runs test k (a failing test narrowed to its cases, or a
// restKey) in coverage once per group of its cases, and returns the
// results when each run passed (pass) or failed (not pass) without timing
// out; nil otherwise.
func (r *repairer) runApart(ctx context.Context, k testKey, groups [][]string, subtests, pass bool) ([]collect.Result, error) {
	runs := make([]collect.Run, len(groups))
	for i, g := range groups {
		runs[i] = r.testRun(k, collect.ModeCover)
		setCases(&runs[i], g, subtests)
	}
	results, err := r.runAll(ctx, runs)
	if err != nil {
		return nil, fmt.Errorf("running the instrumented tests: %w", err)
	}
	ok := true
	for i, res := range results {
		r.ran(testWork(res.TimedOut))
		good := res.Passed == pass
		if subtests {
			// Their results are the subtests' own.
			good = ended(res.Output, groups[i], pass)
			results[i].Passed = pass
		}
		if !good || res.TimedOut {
			r.vlogf("coverage: %s with %s only: passed=%v, timed out=%v", k.name, strings.Join(groups[i], ", "), res.Passed, res.TimedOut)
			ok = false
		}
	}
	if !ok {
		return nil, nil
	}
	return results, nil
}

// setCases narrows run to the cases names: subtests, or gocheck tests.
// A run of a restKey keeps skipping the failing subtests, which a
// pattern of several subtests at depth 2 or more may match too.
func setCases(run *collect.Run, names []string, subtests bool) {
	if subtests {
		run.Subtests = names
		return
	}
	run.Gocheck = names
}

// ended reports whether each subtest of names passed (or failed, when
// not passed) in output, a verbose run. A subtest's result is its own: a
// table test may fail when run with only some of its subtests
// (BurntSushi/toml's TestToml checks that each case its list names ran).
func ended(output string, names []string, passed bool) bool {
	verb := map[bool]string{true: "PASS", false: "FAIL"}[passed]
	seen := map[string]bool{}
	for line := range strings.Lines(output) {
		if f, ok := gotest.ParseFraming(strings.TrimRight(line, "\r\n")); ok && f.Verb == verb {
			seen[f.Test] = true
		}
	}
	for _, n := range names {
		if !seen[n] {
			return false
		}
	}
	return true
}

// narrowRest narrows run, a run of restKey k, to the passing gocheck
// tests whose coverage runs (coverRestCases) reached site: the others cannot tell
// anything about it, and a suite's recorded states or negated evaluations
// then cost the runs of those cases only. Every run of k at site is
// narrowed alike, so an evaluation's order is the same in all of them.
func (r *repairer) narrowRest(run *collect.Run, k testKey, site int) {
	cases := r.restCases[k]
	if len(cases) == 0 || cases[0].subtests {
		return // a table test may fail when run with only some of its subtests (ended)
	}
	var names []string
	for _, c := range cases {
		if n := c.res.Reached[site]; n[0]+n[1] > 0 {
			names = append(names, c.names...)
		}
	}
	if len(names) > 0 {
		run.Gocheck = names
	}
}

// passedSubtests lists the subtests that passed in output, a verbose run
// of test's passing subtests, at depth (the number of slashes in a path
// "TestX/a/b"), each once, in the order they ended; nil when the output
// was cut (a list known to be partial would leave some cases out of every
// spectrum).
func passedSubtests(output, test string, depth int) []string {
	if strings.Contains(output, gotest.CutMarker) {
		return nil
	}
	var names []string
	seen := map[string]bool{}
	for line := range strings.Lines(output) {
		f, ok := gotest.ParseFraming(strings.TrimRight(line, "\r\n"))
		if !ok || f.Verb != "PASS" || !strings.HasPrefix(f.Test, test+"/") || strings.Count(f.Test, "/") != depth || seen[f.Test] {
			continue
		}
		seen[f.Test] = true
		names = append(names, f.Test)
	}
	return names
}

// inGroups splits names into at most n groups of consecutive names, as
// even as can be: one name each when there are n or fewer.
func inGroups(names []string, n int) [][]string {
	k := min(len(names), n)
	out := make([][]string, 0, k)
	for i := range k {
		out = append(out, names[i*len(names)/k:(i+1)*len(names)/k])
	}
	return out
}
