package collect

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/nopol-go/nopol/internal/gotest"
)

// defaultSuiteTimeout bounds a plain `go test` run when no timeout is given.
const defaultSuiteTimeout = 10 * time.Minute

// maxRounds bounds the runs of one suite (see runSuite): each round after
// a crash costs a go test, and a bug in a helper many tests call makes
// each of them crash in turn (go-toml's seeded buildHumanContext: 20
// rounds in 13 s, every round it needed in 104 s). The tests still without
// a result are not run (Baseline's NotRun); a patch may not make them fail.
const maxRounds = 20

// goTest runs `go test -json` on pkgs (import paths) in the module, with
// an overlay and a -run pattern when not "". timeout is passed to the test
// binaries; the go command itself gets more, for compiling.
func goTest(ctx context.Context, r *gotest.Runner, prog *Program, pkgs []string, overlay, run string, timeout time.Duration) ([]gotest.PackageSummary, error) {
	return goTestCount(ctx, r, prog, pkgs, overlay, run, timeout, 1)
}

// goTestCount is goTest running each test count times.
func goTestCount(ctx context.Context, r *gotest.Runner, prog *Program, pkgs []string, overlay, run string, timeout time.Duration, count int) ([]gotest.PackageSummary, error) {
	if timeout <= 0 {
		timeout = defaultSuiteTimeout
	}
	extra := []string{"-vet=off", "-timeout=" + timeout.String(), "-count=" + strconv.Itoa(max(count, 1))}
	if overlay != "" {
		extra = append(extra, "-overlay="+overlay)
	}
	if run != "" {
		extra = append(extra, "-run="+run)
	}
	if prog.skip != "" {
		extra = append(extra, "-skip="+prog.skip)
	}
	sums, _, err := r.TestJSON(ctx, prog.Dir, 2*timeout+5*time.Minute, extra, pkgs...)
	if err != nil {
		return nil, err
	}
	return sums, nil
}

// namesPattern returns a -run pattern matching exactly the top-level names.
func namesPattern(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = regexp.QuoteMeta(n)
	}
	return "^(" + strings.Join(q, "|") + ")$"
}

// suiteRun is the outcome of `go test -json` over some packages, with the
// tests that a crash kept from running run again.
type suiteRun struct {
	// tests are the results per package and top-level test; extra the
	// reported tests not in prog.Tests, per package.
	tests map[string]map[string]gotest.TestSummary
	extra map[string][]string
	// buildFailed has the packages whose tests do not compile, with the
	// compiler output; pkgFailed the packages that failed without a
	// failing test (TestMain, init), with their output.
	buildFailed map[string]string
	pkgFailed   map[string]string
	// hung are the tests a package's test timeout named, with the
	// binary's output.
	hung       map[string][]string
	hungOutput map[string]string
	// runaway are the tests a package's test timeout stopped deep in a
	// recursion (gotest.Recursing): they failed, they did not hang.
	runaway map[string][]string
}

// elapsed is how long the tests of package p that have a result took.
func (sr *suiteRun) elapsed(p string) time.Duration {
	var total time.Duration
	for _, t := range sr.tests[p] {
		total += t.Elapsed
	}
	return total
}

// runSuite runs the tests of pkgs with `go test -json`. A test that crashes
// its binary (a panic, os.Exit) keeps the tests after it from running;
// those are run again, without the tests already reported, until every
// test has a result, a round makes no progress or maxRounds rounds ran.
func runSuite(ctx context.Context, prog *Program, pkgs []string, overlay string, timeout time.Duration) (*suiteRun, error) {
	sr := &suiteRun{
		tests:       map[string]map[string]gotest.TestSummary{},
		extra:       map[string][]string{},
		buildFailed: map[string]string{},
		pkgFailed:   map[string]string{},
		hung:        map[string][]string{},
		hungOutput:  map[string]string{},
		runaway:     map[string][]string{},
	}
	for _, p := range pkgs {
		sr.tests[p] = map[string]gotest.TestSummary{}
	}
	pending, run := pkgs, ""
	for round := 0; len(pending) > 0 && round < maxRounds; round++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		sums, err := goTest(ctx, prog.goRunner(), prog, pending, overlay, run, timeout)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, err
		}
		progress := false
		for _, s := range sums {
			m := sr.tests[s.Package]
			if m == nil {
				continue
			}
			if s.BuildFailed {
				sr.buildFailed[s.Package] = strings.TrimSpace(s.Output)
				continue
			}
			failedTest := false
			crashed, hung := crashedIn(s)
			if hung {
				// A test stopped deep in a recursion that repeats
				// one call line is a runaway recursion: it fails
				// (its stack would overflow), it does not hang. On a
				// slow machine, go-toml's addFields recursion met the
				// time limit before the stack limit. A test stopped
				// while busy spins in a loop that does not end: it
				// fails too. A test that waits forever hangs.
				out := crashOutput(s)
				runaway := gotest.Recursing(out)
				for _, t := range gotest.Spinning(out) {
					if !slices.Contains(runaway, t) {
						runaway = append(runaway, t)
					}
				}
				sr.hung[s.Package] = slices.DeleteFunc(slices.Clone(crashed), func(t string) bool { return slices.Contains(runaway, t) })
				sr.hungOutput[s.Package] = out
				sr.runaway[s.Package] = append(sr.runaway[s.Package], runaway...)
			}
			for _, t := range s.Tests {
				if t.Action == "" {
					if !slices.Contains(crashed, t.Test) {
						// Interrupted by another test's crash: run
						// again.
						continue
					}
					// A test whose crash killed the binary (a panic
					// in a goroutine of its own, a stack overflow, the
					// test timeout): it failed.
					t.Action = "fail"
					t.Output = strings.TrimSpace(t.Output + "\n" + s.Output)
					if hung {
						// Its time is the limit's, not its own: the
						// limits of its later runs come from its
						// time (runaway-timeout.txtar).
						t.Elapsed = 0
					}
				}
				if _, ok := m[t.Test]; !ok {
					progress = true
					if !slices.Contains(prog.Tests[s.Package], t.Test) {
						sr.extra[s.Package] = append(sr.extra[s.Package], t.Test)
					}
				}
				m[t.Test] = t
				failedTest = failedTest || t.Action == "fail"
			}
			if s.Action == "fail" && !failedTest {
				sr.pkgFailed[s.Package] = strings.TrimSpace(s.Output)
			}
		}
		var next, left []string
		for _, p := range pending {
			if _, ok := sr.buildFailed[p]; ok {
				continue
			}
			var missing []string
			for _, name := range prog.Tests[p] {
				if _, ok := sr.tests[p][name]; !ok {
					missing = append(missing, name)
				}
			}
			if len(missing) > 0 {
				next = append(next, p)
				left = append(left, missing...)
			}
		}
		if !progress {
			break
		}
		pending, run = next, namesPattern(left)
	}
	return sr, nil
}

// Baseline runs the plain (uninstrumented) suite of prog's packages once with
// `go test -json` and returns one result per top-level test, in package and
// source order. A build failure gives a *LoadError. Tests kept from running
// by a crashing test are run again (see runSuite).
func Baseline(ctx context.Context, prog *Program, timeout time.Duration) ([]TestResult, error) {
	sr, err := runSuite(ctx, prog, prog.Packages, "", timeout)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("running the tests: %w", err)
	}
	for _, p := range prog.Packages {
		if out, ok := sr.buildFailed[p]; ok {
			return nil, &LoadError{Msg: fmt.Sprintf("building the tests of %s: the package does not compile; fix these errors first:\n%s", p, out)}
		}
		if names := sr.hung[p]; len(names) > 0 {
			return nil, &HangError{Package: p, Tests: names, Limit: timeout, Finished: sr.elapsed(p), Output: sr.hungOutput[p]}
		}
		ran := 0
		for _, name := range prog.Tests[p] {
			if _, ok := sr.tests[p][name]; ok {
				ran++
			}
		}
		if out, ok := sr.pkgFailed[p]; ok || (ran == 0 && len(prog.Tests[p]) > 0) {
			return nil, &BinaryError{Package: p, Ran: ran, Output: out}
		}
	}
	var out []TestResult
	if prog.suiteTime == nil {
		prog.suiteTime = map[string]time.Duration{}
	}
	prog.notRun = map[string]map[string]bool{}
	for _, p := range prog.Packages {
		prog.suiteTime[p] = sr.elapsed(p)
		names := append(append([]string(nil), prog.Tests[p]...), sr.extra[p]...)
		for _, name := range names {
			t, ok := sr.tests[p][name]
			if !ok {
				// Other tests' crashes kept it from running for
				// maxRounds rounds, or the rounds made no progress. It
				// is no passing test (once its failure with a patch was
				// taken for flakiness when it fails on the user's code
				// too: mapstructure's seeded decode-logic-l500).
				out = append(out, TestResult{Package: p, Test: name, NotRun: true})
				if prog.notRun[p] == nil {
					prog.notRun[p] = map[string]bool{}
				}
				prog.notRun[p][name] = true
				continue
			}
			out = append(out, TestResult{
				Package: p,
				Test:    name,
				Passed:  t.Action == "pass",
				Skipped: t.Action == "skip",
				Runaway: t.Action == "fail" && slices.Contains(sr.runaway[p], name),
				Elapsed: t.Elapsed,
				Output:  t.Output,

				FailedSubtests: t.FailedSubtests,
				PassedSubtests: t.PassedSubtests,
				SubtestsCut:    t.SubtestsCut,
			})
		}
	}
	return out, nil
}

// crashedIn returns the tests of a failed package whose crash killed the
// binary: those the crash's stack names (gotest.CrashedTests), or else the
// one test that started and never finished; none when there are several
// and the stack names none of them (they are run again). hung reports a
// test timeout.
func crashedIn(s gotest.PackageSummary) (tests []string, hung bool) {
	if s.Action != "fail" {
		return nil, false
	}
	var unfinished []string
	for _, t := range s.Tests {
		if t.Action == "" {
			unfinished = append(unfinished, t.Test)
		}
	}
	out := crashOutput(s)
	hung = strings.Contains(out, "panic: test timed out after ")
	if named := gotest.CrashedTests(out); len(named) > 0 {
		return named, hung
	}
	if len(unfinished) == 1 {
		return unfinished, hung
	}
	return nil, hung
}

// crashOutput is what the unfinished tests of s and the package printed.
func crashOutput(s gotest.PackageSummary) string {
	var b strings.Builder
	for _, t := range s.Tests {
		if t.Action == "" || strings.Contains(t.Output, "panic: ") {
			b.WriteString(t.Output)
		}
	}
	b.WriteString(s.Output)
	return b.String()
}

// dependents returns the packages of prog with tests whose test binaries
// link path, path first when it has tests.
func (prog *Program) dependents(path string) []string {
	var out []string
	for _, p := range prog.Packages {
		if p == path || prog.pkgs[p].deps[path] {
			out = append(out, p)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i] == path && out[j] != path })
	return out
}

// packageOfFile returns the import path of the package holding file.
func (prog *Program) packageOfFile(file string) (string, bool) {
	dir := filepath.Dir(file)
	var paths []string
	for path, d := range prog.pkgs {
		if d.dir == dir {
			paths = append(paths, path)
		}
	}
	sort.Strings(paths)
	if len(paths) == 0 {
		return "", false
	}
	return paths[0], true
}

// VerifyPatch runs the whole suite of the package of file with file's
// content replaced by src (through an overlay, not on disk). The tests of
// the module's packages that link the patched package run too; their
// failures are in FailedElsewhere, qualified by import path
// ("example.com/m/api.TestX"), those of the patched package in Failed, by
// bare name.
func VerifyPatch(ctx context.Context, prog *Program, file string, src []byte, timeout time.Duration) (SuiteResult, error) {
	start := time.Now()
	path, ovPath, cleanup, err := prog.patchOverlay(Patch{File: file, Src: src})
	if err != nil {
		return SuiteResult{}, err
	}
	defer cleanup()
	pkgs := prog.dependents(path)
	if len(pkgs) == 0 {
		return SuiteResult{Passed: true, Duration: time.Since(start)}, nil
	}
	sr, err := runSuite(ctx, prog, pkgs, ovPath, timeout)
	res := SuiteResult{Duration: time.Since(start)}
	if gotest.IsTimeout(err) {
		res.TimedOut = true
		res.Output = err.Error()
		return res, nil
	}
	if err != nil {
		return res, fmt.Errorf("verifying a patch of %s: %w", file, err)
	}
	res.Passed = true
	for _, p := range pkgs {
		if out, ok := sr.buildFailed[p]; ok {
			res.Passed, res.BuildFailed = false, true
			res.Output += out + "\n"
			continue
		}
		if out, ok := sr.pkgFailed[p]; ok {
			res.Passed = false
			res.Output += out + "\n"
		}
		names := append(append([]string(nil), prog.Tests[p]...), sr.extra[p]...)
		for _, name := range names {
			t, ok := sr.tests[p][name]
			if !ok && prog.notRun != nil && slices.Contains(prog.Tests[p], name) && !prog.notRun[p][name] {
				// The baseline ran it; with the patch, a crash kept it
				// from running.
				t, ok = gotest.TestSummary{Test: name, Action: "fail", Output: "--- FAIL: " + name + " did not run: another test's crash kept it from running\n"}, true
			}
			if !ok || t.Action != "fail" {
				continue
			}
			res.Passed = false
			if p != path {
				res.FailedElsewhere = append(res.FailedElsewhere, p+"."+name)
			} else {
				res.Failed = append(res.Failed, name)
			}
			res.Output += t.Output
			if strings.Contains(t.Output, "panic: test timed out") {
				res.TimedOut = true
			}
		}
	}
	return res, nil
}

// SetTestMemory caps the memory of every test process of every later run
// at n bytes (0: no cap): a test binary that `go test` starts gets it as
// its address-space limit (gotest.Runner.TestMemory), and one started
// directly (the instrumented runs) is stopped once its resident memory
// passes it, unless the run sets a lower cap (Run.MaxRSS). A test that
// allocates without end then costs n bytes and the time to reach them,
// not the machine's memory.
func (prog *Program) SetTestMemory(n int64) {
	prog.testMemory = max(n, 0)
	prog.runner = prog.goRunner().WithTestMemory(prog.testMemory)
}

// memoryCap is the resident-memory cap of a run started directly whose
// own cap is own (0: none): the lower of own and the program's.
func (prog *Program) memoryCap(own int64) int64 {
	if own <= 0 || prog.testMemory > 0 && prog.testMemory < own {
		return prog.testMemory
	}
	return own
}

// SkipTests leaves the top-level tests matching re out of every run: they
// are dropped from Tests and passed to `go test -skip` and the binaries'
// -test.skip. It returns the tests left out, per package as
// "path.TestX", sorted.
func (prog *Program) SkipTests(re *regexp.Regexp) []string {
	var skipped []string
	for p, names := range prog.Tests {
		var keep []string
		for _, n := range names {
			if re.MatchString(n) {
				skipped = append(skipped, p+"."+n)
				continue
			}
			keep = append(keep, n)
		}
		prog.Tests[p] = keep
	}
	sort.Strings(skipped)
	prog.skip = re.String()
	return skipped
}

// TestID names a top-level test of a package.
type TestID struct{ Package, Test string }

// Repeats counts the results of a test run several times.
type Repeats struct{ Passes, Fails int }

// Patch is a file's content to test instead of the file on disk (through
// an overlay).
type Patch struct {
	File string
	Src  []byte
}

// patchOverlay writes an overlay that replaces p.File by p.Src and returns
// the import path of p.File's package, the overlay's path and the removal
// of its directory.
func (prog *Program) patchOverlay(p Patch) (path, ovPath string, cleanup func(), err error) {
	abs, err := filepath.Abs(p.File)
	if err != nil {
		return "", "", nil, err
	}
	path, ok := prog.packageOfFile(abs)
	if !ok {
		return "", "", nil, fmt.Errorf("verifying a patch of %s: the file is in no loaded package", p.File)
	}
	dir, err := gotest.TempDir("nopol-verify-")
	if err != nil {
		return "", "", nil, fmt.Errorf("verifying a patch of %s: %w", p.File, err)
	}
	cleanup = func() { os.RemoveAll(dir) }
	ov := newOverlay(dir)
	if err := ov.add(abs, p.Src); err != nil {
		cleanup()
		return "", "", nil, fmt.Errorf("verifying a patch of %s: %w", p.File, err)
	}
	if ovPath, err = ov.write(); err != nil {
		cleanup()
		return "", "", nil, fmt.Errorf("verifying a patch of %s: %w", p.File, err)
	}
	return path, ovPath, cleanup, nil
}

// Rerun runs the given tests count times each in one `go test -count`
// per package, on the user's files (with patch, when not nil, in place of
// its file), and counts their results. A test with neither count did not
// finish (it crashed the binary or timed out). timeout bounds each
// package's test binary.
func Rerun(ctx context.Context, prog *Program, patch *Patch, tests []TestID, count int, timeout time.Duration) (map[TestID]Repeats, error) {
	ovPath := ""
	if patch != nil {
		_, ov, cleanup, err := prog.patchOverlay(*patch)
		if err != nil {
			return nil, err
		}
		defer cleanup()
		ovPath = ov
	}
	byPkg := map[string][]string{}
	var pkgs []string
	for _, t := range tests {
		if _, ok := byPkg[t.Package]; !ok {
			pkgs = append(pkgs, t.Package)
		}
		byPkg[t.Package] = append(byPkg[t.Package], t.Test)
	}
	sort.Strings(pkgs)
	out := map[TestID]Repeats{}
	for _, p := range pkgs {
		sums, err := goTestCount(ctx, prog.goRunner(), prog, []string{p}, ovPath, namesPattern(byPkg[p]), timeout, count)
		if err != nil {
			if ctx.Err() != nil {
				return out, ctx.Err()
			}
			return out, fmt.Errorf("running %s again: %w", strings.Join(byPkg[p], ", "), err)
		}
		for _, s := range sums {
			for _, t := range s.Tests {
				out[TestID{s.Package, t.Test}] = Repeats{Passes: t.Passes, Fails: t.Fails}
			}
		}
	}
	return out, nil
}

// goRunner runs the go command with the program's build tags.
func (prog *Program) goRunner() *gotest.Runner {
	if prog.runner == nil {
		return gotest.Default
	}
	return prog.runner
}
