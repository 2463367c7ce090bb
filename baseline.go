package nopol

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/nopol-go/nopol/collect"
	"github.com/nopol-go/nopol/internal/gotest"
)

// Load and baseline: the module loaded, its tests run plain, the failing
// ones confirmed (flaky tests found), and what cannot be instrumented named.

func (r *repairer) load(ctx context.Context) error {
	r.enter(phaseLoad)
	dir, err := gotest.TempDir("nopol-check-")
	if err != nil {
		return &EnvError{Msg: fmt.Sprintf("making a temp dir: %v; set TMPDIR to a writable directory", err)}
	}
	os.RemoveAll(dir)
	if why := lowDisk(); why != "" {
		return &EnvError{Msg: why}
	}
	what := strings.Join(r.opts.Patterns, " ")
	r.logf("load: %s", what)
	prog, err := r.c.Load(ctx, r.opts.Dir, r.opts.Patterns, r.opts.Tags)
	var le *collect.LoadError
	if errors.As(err, &le) {
		if le.Env {
			return &EnvError{Msg: le.Msg}
		}
		return &InputError{Msg: le.Msg} // it names the operation and what to do
	}
	if err != nil {
		return fmt.Errorf("loading %s: %w", what, err)
	}
	r.prog = prog
	prog.SetTestMemory(testMemory(r.opts.TestMemory))
	r.res.Module, r.res.Dir = prog.Module, prog.Dir
	if ex := r.excluded(); ex != "" {
		r.logf("load: not instrumented: %s", ex)
	}
	if r.opts.Skip != nil {
		r.res.Skipped = prog.SkipTests(r.opts.Skip)
		r.logf("load: %s left out with -skip", plural(len(r.res.Skipped), "test"))
	}
	if len(prog.Packages) == 0 {
		return &InputError{Msg: fmt.Sprintf("loading %s: no package with tests; nopol needs failing tests to repair", what)}
	}
	return nil
}

// minFree is the least free space a repair starts with on the disks of
// the temp dir and of Go's build cache: it builds instrumented copies of
// the packages and their test binaries there, and a build that finds the
// disk full fails with errors that look like the module's (a go.sum
// entry that could not be written is "missing"). A variable for the
// tests.
var minFree uint64 = 1 << 30

// lowDisk says which disk has less than minFree left, "" when none does
// (or the space cannot be told).
func lowDisk() string {
	cache := os.Getenv("GOCACHE")
	if cache == "" {
		if d, err := os.UserCacheDir(); err == nil {
			cache = filepath.Join(d, "go-build")
		}
	}
	for _, p := range []struct{ dir, what string }{{os.TempDir(), "the temp dir"}, {cache, "Go's build cache"}} {
		if p.dir == "" || p.dir == "off" {
			continue
		}
		dir := p.dir // or its closest existing parent
		for {
			if _, err := os.Stat(dir); err == nil || filepath.Dir(dir) == dir {
				break
			}
			dir = filepath.Dir(dir)
		}
		if free, ok := gotest.FreeBytes(dir); ok && free < minFree {
			return fmt.Sprintf("only %d MiB free on the disk of %s (%s): nopol builds instrumented copies of the packages and their tests there and needs %d MiB; free some space (`go clean -cache` empties Go's build cache, which every instrumented build grows) and run again", free>>20, p.dir, p.what, minFree>>20)
		}
	}
	return ""
}

// baselineLimit bounds each test binary of the plain runs: a third of
// the repair's time limit, at least 10s (or the whole limit when shorter).
// A test still running then hangs, or is too slow to repair within
// Options.Timeout.
func (r *repairer) baselineLimit() time.Duration {
	return max(r.opts.Timeout/3, min(10*time.Second, r.opts.Timeout))
}

func (r *repairer) baseline(ctx context.Context) error {
	r.enter(phaseBaseline)
	r.logf("baseline: running the tests of %s", plural(len(r.prog.Packages), "package"))
	limit := r.baselineLimit()
	results, err := r.c.Baseline(ctx, r.prog, limit)
	if err != nil {
		return r.baselineError(ctx, err)
	}
	r.elapsed = map[testKey]time.Duration{}
	r.runawayTests = map[testKey]bool{}
	r.suiteOrder = map[string][]string{}
	r.suiteFailure = map[testKey]string{}
	r.ignored = map[string]bool{}
	r.failingByID = map[string]testKey{}
	r.narrow = map[testKey][]string{}
	r.checks = map[testKey][]string{}
	var allFailing, notRun []string
	// The failing tests the time limit stopped deep in a recursion or
	// busy in a loop (r.runawayTests) fail on every run, and each run
	// takes the whole limit, so they are not run again (again are the
	// others).
	var failing, again []testKey
	for _, t := range results {
		k := testKey{t.Package, t.Test}
		r.elapsed[k] = t.Elapsed
		if !t.NotRun {
			r.suiteOrder[t.Package] = append(r.suiteOrder[t.Package], t.Test)
		}
		if !t.NotRun && !t.Passed && !t.Skipped {
			r.suiteFailure[k] = t.Output
			if subs := narrowedTo(t); subs != nil {
				r.narrow[k] = subs
			}
			if names := failedGocheck(t.Output); names != nil {
				r.checks[k] = names
			}
		}
		switch {
		case t.Skipped:
			continue
		case t.NotRun:
			notRun = append(notRun, t.Test)
			continue
		case t.Passed:
			r.passing = append(r.passing, k)
		default:
			allFailing = append(allFailing, t.Test)
			if r.opts.Run == nil || r.opts.Run.MatchString(t.Test) {
				failing = append(failing, k)
				if t.Runaway {
					r.runawayTests[k] = true
				} else {
					again = append(again, k)
				}
			} else {
				r.ignored[t.Test] = true
			}
		}
	}
	switch {
	case len(allFailing) == 0:
		return &InputError{Msg: fmt.Sprintf("testing %s: all %d tests pass; nopol repairs a module with failing tests", r.prog.Module, len(r.passing))}
	case len(failing) == 0:
		return &InputError{Msg: fmt.Sprintf("testing %s: no failing test matches -run %q (failing: %s)", r.prog.Module, r.opts.Run, strings.Join(allFailing, ", "))}
	}
	r.logf("baseline: %s, %d failing: %s", plural(len(r.passing)+len(allFailing), "test"), len(allFailing), strings.Join(allFailing, ", "))
	if len(notRun) > 0 {
		r.logf("baseline: %s did not run: other tests' crashes kept them from running (%s); a patch must not make them fail", plural(len(notRun), "test"), strings.Join(notRun, ", "))
	}
	if oom := outOfMemory(results); len(oom) > 0 {
		r.logf("baseline: %s ran out of memory at the cap of each test process, %d MiB (-mem): %s; a test that needs more fails as it did here, raise -mem for it",
			plural(len(oom), "test"), testMemory(r.opts.TestMemory)>>20, strings.Join(oom, ", "))
	}
	for _, k := range failing {
		r.warnGocheck(k)
	}
	if runaway := slices.DeleteFunc(slices.Clone(failing), func(k testKey) bool { return !r.runawayTests[k] }); len(runaway) > 0 {
		r.logf("baseline: %s recursed or looped until the time limit: not run again for flakiness", strings.Join(testNames(runaway), ", "))
	}
	r.failing = failing
	r.check = r.startCheck(ctx, again, limit)
	r.baselineResults = results
	return nil
}

// settleFailing waits for the flakiness check of the failing tests
// (started by baseline, it runs beside the first coverage runs), moves
// those that passed once to the flaky tests and reports every test.
func (r *repairer) settleFailing(ctx context.Context) error {
	chk := r.check
	r.check = nil
	confirmed, err := r.confirmFailing(ctx, chk)
	if err != nil {
		return err
	}
	r.failing = slices.DeleteFunc(r.failing, func(k testKey) bool { return !slices.Contains(confirmed, k) && !r.runawayTests[k] })
	for _, k := range r.failing {
		r.failingByID[k.id()] = k
	}
	for _, t := range r.baselineResults {
		k := testKey{t.Package, t.Test}
		if t.Skipped {
			continue
		}
		tr := TestReport{Package: t.Package, Name: t.Test, Passed: t.Passed, Repaired: r.isFailing(k), Flaky: r.isFlaky(k), NotRun: t.NotRun}
		if file, line, ok := r.prog.TestLocation(t.Package, t.Test); ok {
			tr.File, tr.Line = r.relPath(file), line
		}
		r.res.Tests = append(r.res.Tests, tr)
	}
	r.baselineResults = nil
	if len(r.failing) == 0 {
		return &InputError{Msg: fmt.Sprintf("testing %s: every failing test is flaky (%s): it passes on some runs and fails on others; make it deterministic, or leave it out with -skip", r.prog.Module, strings.Join(r.flakyNames(), ", "))}
	}
	return nil
}

// baselineError explains a failed baseline run.
func (r *repairer) baselineError(ctx context.Context, err error) error {
	var (
		le *collect.LoadError
		he *collect.HangError
		be *collect.BinaryError
	)
	switch {
	case errors.As(err, &le):
		return &InputError{Msg: le.Msg}
	case errors.As(err, &he) && he.SlowSuite():
		// Raising the limit is the fix; skipping the test running when
		// time ran out would only move the timeout to the next one.
		return &InputError{Msg: fmt.Sprintf("%v (the plain run may take a third of -timeout %s); raise -timeout to more than three times the suite's time, or leave slow tests out with -skip", he, r.opts.Timeout)}
	case errors.As(err, &he):
		quoted := make([]string, len(he.Tests))
		for i, t := range he.Tests {
			quoted[i] = regexp.QuoteMeta(t)
		}
		return &InputError{Msg: fmt.Sprintf("%v (the plain run may take a third of -timeout %s); fix it, leave it out with -skip '^(%s)$', or raise -timeout\n%s",
			he, r.opts.Timeout, strings.Join(quoted, "|"), goroutinesOf(he.Output, he.Tests))}
	case errors.As(err, &be):
		msg := be.Error()
		if out := firstLines(be.Output, 30); out != "" {
			msg += "; its output:\n" + out
		}
		return &InputError{Msg: msg}
	case ctx.Err() == nil && gotest.IsTimeout(err):
		return &InputError{Msg: fmt.Sprintf("testing %s: the plain run did not end: %v", r.prog.Module, err)}
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return &EnvError{Msg: fmt.Sprintf("testing %s: %v", r.prog.Module, err)}
}

// excluded lists the files without sites, with why, grouped by reason:
// "a.go, b.go (imports "C" ...)".
func (r *repairer) excluded() string {
	byWhy := map[string][]string{}
	var whys []string
	for _, e := range r.prog.Excluded {
		if strings.HasPrefix(e.Why, "generated") {
			continue // expected, and often many
		}
		if _, ok := byWhy[e.Why]; !ok {
			whys = append(whys, e.Why)
		}
		byWhy[e.Why] = append(byWhy[e.Why], r.relPath(e.File))
	}
	var parts []string
	for _, why := range whys {
		files := byWhy[why]
		if len(files) > 5 {
			files = append(files[:5:5], fmt.Sprintf("%d more", len(files)-5))
		}
		parts = append(parts, strings.Join(files, ", ")+" ("+why+")")
	}
	return strings.Join(parts, "; ")
}
