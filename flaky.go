package nopol

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/nopol-go/nopol/collect"
)

// Flaky tests.
//
// A test whose result differs between identical runs is flaky. It is left
// out of every verdict: it is not repaired, a patch is never credited with
// it, and its failures do not reject a candidate. Two checks find them, so
// that the same input gives the same answer:
//
//   - each failing test of the baseline runs failRepeats more times on the
//     user's code, beside the first coverage runs (failingCheck); one pass
//     makes it flaky (passing every run alone, it is
//     not random but depends on the tests before it in the suite, and is
//     said so: a patch printed may leave it failing there);
//   - a test that passed in the baseline and fails with a candidate (or
//     instrumented) runs stableRepeats more times on the user's code, once
//     per repair; one failure makes it flaky, unless it fails every run
//     (it passes only after the tests before it in the suite). Otherwise
//     the failure is the candidate's.
//
// Left out of a verdict is not ignored: a flaky test that fails with the
// patched file runs again with the patch (as many times as on the user's
// code), and a patch it passes much less often with breaks it
// (brokenFlaky). A flaky test's recorded
// states are not part of the specification either, so a candidate is
// free to break it: without this check, a patch that makes a mostly
// passing test fail every time was printed as validated.
//
// A 50%-flaky test escapes the first check with probability 1/1024 and
// the second with 1/4096. Slow tests run fewer times: the repeats of one check
// take at most recheckBudget (by the tests' baseline durations), and at
// least one run.
const (
	recheckBudget = 10 * time.Second
	failRepeats   = 10
	stableRepeats = 12
	// maxSuspects is the most unexpected failures of one candidate that
	// are checked for flakiness; a candidate that breaks more is rejected.
	maxSuspects = 3
)

// flakiness is what is known of the tests' stability.
type flakiness struct {
	// flaky are the tests seen passing and failing on identical runs,
	// with how; checked the tests that passed stableRepeats runs.
	flaky   map[testKey]string
	checked map[testKey]bool
	// suiteOnly are the failing tests that passed every run alone: they
	// fail after the tests before them in the suite, not at random.
	suiteOnly map[testKey]bool
	// original are the results on the user's code of the flaky tests
	// that passed in the baseline, the baseline's run included.
	original map[testKey]collect.Repeats
}

// isFlaky reports whether k is known to be flaky.
func (r *repairer) isFlaky(k testKey) bool { _, ok := r.fl.flaky[k]; return ok }

// markFlaky records k as flaky and says so.
func (r *repairer) markFlaky(k testKey, how string) {
	if r.fl.flaky == nil {
		r.fl.flaky = map[testKey]string{}
	}
	if r.isFlaky(k) {
		return
	}
	r.fl.flaky[k] = how
	r.logf("flaky: %s %s; left out of every verdict", k.name, how)
}

// failingCheck is the flakiness check of the baseline's failing tests:
// they run failRepeats more times (fewer when slow) in the background,
// beside the first coverage runs, which do not depend on its verdict.
type failingCheck struct {
	tests  []testKey
	limit  time.Duration
	cancel context.CancelFunc
	done   chan struct{}
	counts map[collect.TestID]collect.Repeats
	err    error
}

// startCheck starts the flakiness check of the failing tests; nil when
// there are none to check.
func (r *repairer) startCheck(ctx context.Context, failing []testKey, limit time.Duration) *failingCheck {
	if len(failing) == 0 {
		return nil
	}
	n := r.repeats(failing, failRepeats)
	r.logf("baseline: running %s again %s (flakiness check, beside the coverage runs)", plural(len(failing), "failing test"), plural(n, "time"))
	cctx, cancel := context.WithCancel(ctx)
	chk := &failingCheck{tests: failing, limit: limit, cancel: cancel, done: make(chan struct{})}
	prog, c := r.prog, r.c
	go func() {
		defer close(chk.done)
		chk.counts, chk.err = c.Rerun(cctx, prog, nil, testIDs(failing), n, limit)
	}()
	return chk
}

// stop cancels the check and waits for its processes to end; a no-op on
// a nil or finished check.
func (chk *failingCheck) stop() {
	if chk == nil {
		return
	}
	chk.cancel()
	<-chk.done
}

// confirmFailing waits for the check of the failing tests, moves those
// that passed once to the flaky tests and returns those that failed on
// every run.
func (r *repairer) confirmFailing(ctx context.Context, chk *failingCheck) ([]testKey, error) {
	if chk == nil {
		return nil, nil
	}
	<-chk.done
	chk.cancel()
	r.ran(suiteWork)
	failing, counts, err, limit := chk.tests, chk.counts, chk.err, chk.limit
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("checking the failing tests: %w", err)
	}
	after, err := r.failAfterOthers(ctx, failing, counts, limit)
	if err != nil {
		return nil, err
	}
	var out []testKey
	for _, k := range failing {
		c := counts[collect.TestID{Package: k.pkg, Test: k.name}]
		switch {
		case after[k]:
		case c.Passes > 0 && c.Fails == 0:
			// Not random: the test fails after the tests before it in
			// the suite (a global they set), and nopol runs it alone.
			r.markFlaky(k, fmt.Sprintf("failed in the whole suite, then passed all %d runs alone: it depends on the tests run before it, which nopol does not repeat, so a patch may leave it failing in the suite", c.Passes))
			if r.fl.suiteOnly == nil {
				r.fl.suiteOnly = map[testKey]bool{}
			}
			r.fl.suiteOnly[k] = true
			continue
		case c.Passes > 0:
			r.markFlaky(k, fmt.Sprintf("failed in the plain run, then passed %d of %d runs", c.Passes, c.Passes+c.Fails))
			continue
		}
		out = append(out, k)
	}
	return out, nil
}

// checkStable runs the tests among ks that passed in the baseline and have
// not been checked yet stableRepeats times on the user's code; those that
// fail once are marked flaky. A test without a result in the baseline
// (another test's crash kept it from running) is not checked: it may fail
// on the user's code every time, and its failure with a candidate is the
// candidate's.
func (r *repairer) checkStable(ctx context.Context, ks []testKey) error {
	var todo []testKey
	for _, k := range ks {
		if !r.fl.checked[k] && !r.isFlaky(k) && slices.Contains(r.passing, k) && !slices.Contains(todo, k) {
			todo = append(todo, k)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	if r.fl.checked == nil {
		r.fl.checked = map[testKey]bool{}
	}
	n := r.repeats(todo, stableRepeats)
	r.vlogf("flakiness check: running %s %s on the original code", strings.Join(testNames(todo), ", "), plural(n, "time"))
	counts, err := r.c.Rerun(ctx, r.prog, nil, testIDs(todo), n, r.baselineLimit())
	r.ran(suiteWork)
	if err != nil {
		return fmt.Errorf("checking %s for flakiness: %w", strings.Join(testNames(todo), ", "), err)
	}
	for _, k := range todo {
		r.fl.checked[k] = true
		c := counts[collect.TestID{Package: k.pkg, Test: k.name}]
		if c.Passes == 0 && c.Fails >= n {
			// Not random either: it passed in the suite and fails every
			// run alone, so it needs the tests before it (a global they
			// set). The suite runs it after them with the candidate as
			// in the baseline, and there the failure is the candidate's.
			r.vlogf("flakiness check: %s passed in the suite and failed all %d runs alone: it depends on the tests before it; its failure with the candidate counts", k.name, n)
			continue
		}
		// A run that stopped short (the binary crashed) counts as a
		// failure; a test that did not run at all is not judged.
		if c.Fails > 0 || (c.Passes > 0 && c.Passes < n) {
			r.markFlaky(k, fmt.Sprintf("passed in the plain run, then failed %d of %d runs on the original code", n-c.Passes, n))
			if r.fl.original == nil {
				r.fl.original = map[testKey]collect.Repeats{}
			}
			r.fl.original[k] = collect.Repeats{Passes: c.Passes + 1, Fails: n - c.Passes}
		}
	}
	return nil
}

// failAfterOthers runs the tests among failing that passed a run of the
// check again, after the tests the baseline ran before them, as many
// times: those that then fail on every run fail on identical runs, and
// depend on the tests before them (see after.go), so they are not flaky.
func (r *repairer) failAfterOthers(ctx context.Context, failing []testKey, counts map[collect.TestID]collect.Repeats, limit time.Duration) (map[testKey]bool, error) {
	var suspects []testKey
	names := map[string][]string{} // per package, the tests to run
	// A test that passed every run fails only after the tests before
	// it: it is repaired so when no failing test fails every run, for a
	// failure that shows without them is the one to repair, and a patch
	// cannot do both when they differ (the tests before may just leave
	// behind a state that they should not). One that failed some runs
	// may fail after another failing test the check ran before it.
	ordinary := slices.ContainsFunc(failing, func(k testKey) bool {
		return counts[collect.TestID{Package: k.pkg, Test: k.name}].Passes == 0
	})
	for _, k := range failing {
		c := counts[collect.TestID{Package: k.pkg, Test: k.name}]
		if c.Passes == 0 || (c.Fails == 0 && ordinary) {
			continue
		}
		before := r.suiteBefore(k)
		if len(before) == 0 {
			continue
		}
		suspects = append(suspects, k)
		for _, t := range append(before, k.name) {
			if !slices.Contains(names[k.pkg], t) {
				names[k.pkg] = append(names[k.pkg], t)
			}
		}
	}
	if len(suspects) == 0 {
		return nil, nil
	}
	var ids []collect.TestID
	var keys []testKey
	for _, pkg := range slices.Sorted(maps.Keys(names)) {
		for _, t := range names[pkg] {
			ids = append(ids, collect.TestID{Package: pkg, Test: t})
			keys = append(keys, testKey{pkg, t})
		}
	}
	n := r.repeats(keys, failRepeats)
	r.logf("baseline: running %s again %s after the tests before them in the suite", strings.Join(testNames(suspects), ", "), plural(n, "time"))
	again, err := r.c.Rerun(ctx, r.prog, nil, ids, n, limit)
	r.ran(suiteWork)
	if err != nil {
		return nil, fmt.Errorf("checking the failing tests after the tests before them: %w", err)
	}
	out := map[testKey]bool{}
	for _, k := range suspects {
		if c := again[collect.TestID{Package: k.pkg, Test: k.name}]; c.Passes == 0 && c.Fails == n {
			out[k] = true
			r.logf("baseline: %s fails on every run after the tests before it, as in the suite: it depends on them, and is repaired as it runs after them", k.name)
		}
	}
	return out, nil
}

// repeats is how many times the tests ks run in one flakiness check: at
// most most, as many as fit in recheckBudget by their baseline durations,
// at least one.
func (r *repairer) repeats(ks []testKey, most int) int {
	var total time.Duration
	for _, k := range ks {
		total += r.elapsed[k]
	}
	if total <= 0 {
		return most
	}
	return max(1, min(most, int(recheckBudget/total)))
}

// isFailing reports whether k is one of the failing tests to repair.
func (r *repairer) isFailing(k testKey) bool { return slices.Contains(r.failing, k) }

// failedKeys maps a suite run's failures to tests: Failed are tests of
// the site's package ("TestX/sub"), FailedElsewhere qualified by import
// path ("example.com/m/api.TestX").
func (r *repairer) failedKeys(pkg string, sr collect.SuiteResult) []testKey {
	var out []testKey
	for _, f := range sr.Failed {
		top, _, _ := strings.Cut(f, "/")
		out = append(out, testKey{pkg, top})
	}
	for _, q := range sr.FailedElsewhere {
		best := ""
		for _, p := range r.prog.Packages {
			if strings.HasPrefix(q, p+".") && len(p) > len(best) {
				best = p
			}
		}
		if best == "" {
			out = append(out, testKey{"", q})
			continue
		}
		top, _, _ := strings.Cut(q[len(best)+1:], "/")
		out = append(out, testKey{best, top})
	}
	return out
}

// judge reports whether a suite run of a candidate at a site of package
// pkg passes, but for the failing tests left out with -run and the flaky
// tests. A passing test of the baseline that fails is checked for
// flakiness first.
func (r *repairer) judge(ctx context.Context, pkg string, sr collect.SuiteResult) (bool, error) {
	if sr.Passed {
		return true, nil
	}
	if sr.TimedOut || sr.BuildFailed || len(sr.Failed)+len(sr.FailedElsewhere) == 0 {
		return false, nil
	}
	failed := r.failedKeys(pkg, sr)
	var suspects []testKey
	for _, k := range failed {
		if k.pkg == "" || r.isFailing(k) {
			return false, nil // a test to repair still fails
		}
		if !r.ignored[k.name] && !r.isFlaky(k) {
			suspects = append(suspects, k)
		}
	}
	if len(suspects) > maxSuspects {
		return false, nil // not flakiness: the candidate breaks them
	}
	if err := r.checkStable(ctx, suspects); err != nil {
		return false, err
	}
	for _, k := range suspects {
		if !r.isFlaky(k) {
			return false, nil
		}
	}
	return true, nil
}

// brokenFlaky returns why the patched file src of site breaks a flaky test
// that fails in sr, the suite's run with it, or "": the test runs again
// with the patch as many times as on the user's code, and the patch breaks
// it when it passes none of them after passing at least half its runs on
// the user's code (a 50%-flaky test fails all of 12 runs with probability
// 1/4096), or when it passes so much less often that chance explains it
// with probability under brokenLevel (Fisher's exact test, one-sided: 12
// of 13 runs before and 3 of 12 with the patch, 10 of 13 and 1 of 12).
func (r *repairer) brokenFlaky(ctx context.Context, site collect.Site, src []byte, sr collect.SuiteResult) (string, error) {
	var todo []testKey
	for _, k := range r.failedKeys(site.Package, sr) {
		orig, ok := r.fl.original[k]
		if ok && !r.ignored[k.name] && orig.Passes > 0 && !slices.Contains(todo, k) {
			todo = append(todo, k)
		}
	}
	if len(todo) == 0 {
		return "", nil
	}
	n := r.repeats(todo, stableRepeats)
	r.vlogf("flakiness check: running %s %s with the patch", strings.Join(testNames(todo), ", "), plural(n, "time"))
	counts, err := r.c.Rerun(ctx, r.prog, &collect.Patch{File: site.File, Src: src}, testIDs(todo), n, r.baselineLimit())
	r.ran(suiteWork)
	if err != nil {
		return "", fmt.Errorf("checking %s with the patch: %w", strings.Join(testNames(todo), ", "), err)
	}
	var broken []string
	for _, k := range todo {
		c, orig := counts[collect.TestID{Package: k.pkg, Test: k.name}], r.fl.original[k]
		origRuns, runs := orig.Passes+orig.Fails, c.Passes+c.Fails
		if runs == 0 {
			continue // it did not run: nothing to compare
		}
		if (c.Passes == 0 && 2*orig.Passes >= origRuns) || fewerPasses(orig.Passes, origRuns, c.Passes, runs) < brokenLevel {
			broken = append(broken, fmt.Sprintf("%s (flaky: passed %d of %d runs on the original code, %d of %d with the patch)", k.name, orig.Passes, origRuns, c.Passes, runs))
		}
	}
	if len(broken) == 0 {
		return "", nil
	}
	return "breaks " + strings.Join(broken, ", "), nil
}

// brokenLevel is the chance below which a flaky test's fewer passes with
// a patch are not luck (brokenFlaky).
const brokenLevel = 1e-3

// fewerPasses is the one-sided p-value of Fisher's exact test that a test
// passing a of n runs on the user's code and b of m with a patch passes
// less often with the patch: the chance that, the a+b passes of the n+m
// runs falling at random, the patch's m runs get b of them or fewer.
func fewerPasses(a, n, b, m int) float64 {
	passes, total := a+b, n+m
	p := 0.0
	for x := 0; x <= b; x++ {
		if m-x <= total-passes {
			p += math.Exp(logChoose(passes, x) + logChoose(total-passes, m-x) - logChoose(total, m))
		}
	}
	return p
}

// logChoose is the logarithm of the binomial coefficient (n k).
func logChoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}

// flakyNames lists the flaky tests, sorted.
func (r *repairer) flakyNames() []string {
	var out []string
	for k := range r.fl.flaky {
		out = append(out, k.name)
	}
	sort.Strings(out)
	return out
}

func testIDs(ks []testKey) []collect.TestID {
	out := make([]collect.TestID, len(ks))
	for i, k := range ks {
		out[i] = collect.TestID{Package: k.pkg, Test: k.name}
	}
	return out
}

func testNames(ks []testKey) []string {
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = k.name
	}
	return out
}

// goroutinesOf returns the goroutine stacks of output that run one of
// tests (a test timeout prints every goroutine), at most 40 lines.
func goroutinesOf(output string, tests []string) string {
	var keep []string
	for _, block := range strings.Split(output, "\n\n") {
		if !strings.HasPrefix(strings.TrimSpace(block), "goroutine ") {
			continue
		}
		for _, t := range tests {
			if strings.Contains(block, "."+t+"(") || strings.Contains(block, "."+t+".func") {
				keep = append(keep, strings.TrimSpace(block))
				break
			}
		}
	}
	return lastLines(strings.Join(keep, "\n\n"), 40)
}

// lastLines returns the last n lines of s, trimmed, with a first line
// saying how many were left out.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) <= n {
		return strings.TrimSpace(s)
	}
	return fmt.Sprintf("[%d lines before]\n", len(lines)-n) + strings.Join(lines[len(lines)-n:], "\n")
}

// firstLines returns the first n lines of s, trimmed, with a last line
// saying how many were left out.
func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) <= n {
		return strings.TrimSpace(s)
	}
	return strings.Join(lines[:n], "\n") + fmt.Sprintf("\n[%d lines more]", len(lines)-n)
}
