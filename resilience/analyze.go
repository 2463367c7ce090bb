package resilience

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/nopol-go/nopol/internal/gotest"
	"github.com/nopol-go/nopol/internal/qualify"
	"github.com/nopol-go/nopol/purify"
)

// Options configure an analysis.
type Options struct {
	// Dir is the directory of the module (or a directory in it);
	// Patterns the packages analysed ("./..." when empty).
	Dir      string
	Patterns []string
	// Timeout bounds the whole analysis; 0 means 10 minutes.
	Timeout time.Duration
	// Logf receives progress, one line per step; nil is silent.
	Logf func(format string, args ...any)
	// Runner runs the go command and the test binaries; nil is
	// gotest.Default.
	Runner *gotest.Runner
	// Parallel is how many test processes run at once; 0 means
	// GOMAXPROCS, at most 4.
	Parallel int
	// Purify splits impure tests first (B-Refactoring, package purify):
	// the purified test files replace the originals, so that a test
	// fragment that runs a catch is not also one that needs its try to
	// succeed.
	Purify bool
}

// Usage is how a test that passes in the plain run used a pair (the
// thesis' colours).
type Usage string

const (
	// Pink: the try returned no error.
	Pink Usage = "pink"
	// White: the try returned an error and this catch ran.
	White Usage = "white"
	// Blue: the try returned an error and another branch ran.
	Blue Usage = "blue"
)

// Class is the verdict on a pair.
type Class string

const (
	// SourceIndependent: at least one test ran the catch on an error of
	// its own (white), and every such test still passes when the error is
	// injected at the try instead.
	SourceIndependent Class = "source-independent"
	// SourceDependent: a test that ran the catch on an error of its own
	// fails when the error is injected at the try: the catch handles the
	// errors the tests happen to raise, not any error of the try.
	SourceDependent Class = "source-dependent"
	// Unknown: no test ran the catch on an error of its own.
	Unknown Class = "unknown"
	// NotExecuted: no passing test ran the try.
	NotExecuted Class = "not executed"
	// NotInjectable: no error can be injected (Pair.NotInjectable).
	NotInjectable Class = "not injectable"
	// NotAnalysed: the time limit ran out before its injected runs.
	NotAnalysed Class = "not analysed"
)

// TestOutcome is one test that ran a pair's try: its usage in the plain
// run and whether it passed with an error injected at the try.
type TestOutcome struct {
	Test  string `json:"test"`
	Usage Usage  `json:"usage"`
	// Passed reports the injected run passed; Caught that this pair's
	// catch ran in it; Failure is its first failure line.
	Passed  bool   `json:"passed"`
	Caught  bool   `json:"caught"`
	Failure string `json:"failure,omitempty"`
}

// PairResult is the analysis of one pair.
type PairResult struct {
	Pair
	Class Class `json:"class"`
	// PurelyResilient is "yes" when every test that ran the try passes
	// with the error injected, "no" when one fails, "" when unknown.
	PurelyResilient string        `json:"purely_resilient,omitempty"`
	Tests           []TestOutcome `json:"tests,omitempty"`
	// Stretch is the broadened catch offered, for a stretchable pair.
	Stretch *Stretch `json:"stretch,omitempty"`
}

// Report is the outcome of an analysis.
type Report struct {
	Pairs []PairResult `json:"pairs"`
	// Runs counts the test processes: one plain run per package, then one
	// per pair and test that ran its try. Reruns counts the runs again,
	// alone, of tests whose catch ran in the plain run and that failed
	// beside another; StretchRuns the suite runs of the broadened catches.
	Runs        int `json:"runs"`
	Reruns      int `json:"reruns"`
	StretchRuns int `json:"stretch_runs"`
	// Skipped names the packages not analysed, with why.
	Skipped []string `json:"skipped,omitempty"`
	// Purified counts the test files split (Options.Purify).
	Purified int `json:"purified_files,omitempty"`
	// TimedOut reports that Options.Timeout ran out: the pairs left are
	// NotAnalysed.
	TimedOut bool          `json:"timed_out,omitempty"`
	Time     time.Duration `json:"time_ns"`
}

const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports |
	packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedModule | packages.NeedForTest

// Analyze finds the try-catch pairs of the packages, runs their tests once
// to see how each pair is used, then once per pair and test that ran its
// try with an error injected there, and classifies each pair. The
// user's files are never written: the instrumented files reach the
// compiler through an overlay in a temp dir, removed before it returns.
func Analyze(ctx context.Context, opts Options) (*Report, error) {
	start := time.Now()
	if opts.Timeout <= 0 {
		opts.Timeout = 10 * time.Minute
	}
	if len(opts.Patterns) == 0 {
		opts.Patterns = []string{"./..."}
	}
	if opts.Runner == nil {
		opts.Runner = gotest.Default
	}
	if opts.Parallel <= 0 {
		opts.Parallel = min(runtime.GOMAXPROCS(0), 4)
	}
	logf := opts.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	cfg := &packages.Config{Context: ctx, Mode: loadMode, Dir: opts.Dir, Tests: true}
	pkgs, err := packages.Load(cfg, opts.Patterns...)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", strings.Join(opts.Patterns, " "), err)
	}
	var errs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			errs = append(errs, e.Error())
		}
	})
	if len(errs) > 0 {
		return nil, &InputError{Msg: fmt.Sprintf("loading %s: the packages do not compile; fix these errors first:\n%s", strings.Join(opts.Patterns, " "), strings.Join(errs[:min(len(errs), 10)], "\n"))}
	}
	tmp, err := gotest.TempDir("nopol-resilience-")
	if err != nil {
		return nil, fmt.Errorf("making a temp dir: %w; set TMPDIR to a writable directory", err)
	}
	defer os.RemoveAll(tmp)
	rep := &Report{}
	purified := map[string]string{}
	if opts.Purify {
		logf("purify: splitting impure tests")
		res, err := purify.Purify(ctx, purify.Options{Dir: opts.Dir, Patterns: opts.Patterns, Timeout: time.Minute, Write: filepath.Join(tmp, "purified")})
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("purifying the tests: %w", err)
		}
		for _, w := range res.Written {
			purified[w.Source] = w.Path
		}
		logf("purify: %d test files split", len(purified))
		rep.Purified = len(purified)
	}
	nextPair, nextTry := 0, 0
	for _, path := range packagePaths(pkgs) {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			rep.TimedOut = true
		}
		if err := ctx.Err(); err != nil && !rep.TimedOut {
			return rep, err
		}
		a := &pkgAnalysis{opts: opts, logf: logf, path: path, tmp: filepath.Join(tmp, strconv.Itoa(len(rep.Pairs))+"_"+strconv.Itoa(nextTry)), rep: rep, purified: purified}
		if err := os.MkdirAll(a.tmp, 0o755); err != nil {
			return rep, err
		}
		if err := a.run(ctx, pkgs, &nextPair, &nextTry); err != nil {
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				rep.TimedOut = true
				rep.Skipped = append(rep.Skipped, path+": not analysed, the time limit ran out (raise -timeout)")
				continue
			}
			if ctx.Err() != nil {
				return rep, fmt.Errorf("interrupted: %w", ctx.Err())
			}
			return rep, err
		}
	}
	rep.Time = time.Since(start)
	return rep, nil
}

// packagePaths are the import paths of the packages loaded with their
// tests (a test binary exists for them), in order.
func packagePaths(pkgs []*packages.Package) []string {
	var out []string
	for _, p := range pkgs {
		if p.ForTest != "" && !slices.Contains(out, p.ForTest) {
			out = append(out, p.ForTest)
		}
	}
	return out
}

// pkgAnalysis is the analysis of one package.
type pkgAnalysis struct {
	opts Options
	logf func(string, ...any)
	path string
	tmp  string
	rep  *Report
	// root is the module's directory, fset the package's file set.
	root string
	fset *token.FileSet
	// purified maps test files to their purified versions (Options.Purify).
	purified map[string]string
	// mu guards rep.Runs while runs are made at once.
	mu sync.Mutex
}

// markedTestFile is the test file name (parsed as file) with its tests
// marked, or its purified version's; qual is how it names the package
// under test.
func (a *pkgAnalysis) markedTestFile(name string, fset *token.FileSet, file *ast.File, qual string) ([]byte, error) {
	if p, ok := a.purified[name]; ok {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		fset = token.NewFileSet()
		if file, err = parser.ParseFile(fset, p, data, parser.SkipObjectResolution); err != nil {
			return nil, fmt.Errorf("reading the purified %s: %w", name, err)
		}
		if out := markTests(fset, file, data, qual); out != nil {
			return out, nil
		}
		return data, nil
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return markTests(fset, file, data, qual), nil
}

func (a *pkgAnalysis) run(ctx context.Context, pkgs []*packages.Package, nextPair, nextTry *int) error {
	var src, internal, external *packages.Package
	for _, p := range pkgs {
		switch {
		case p.PkgPath == a.path && p.ForTest == a.path:
			internal = p
		case p.PkgPath == a.path && p.ForTest == "":
			src = p
		case p.PkgPath == a.path+"_test" && p.ForTest == a.path:
			external = p
		}
	}
	if internal != nil {
		src = internal // its files are the package's and its in-package tests
	}
	if src == nil || len(src.GoFiles) == 0 {
		return nil // no Go files (cgo only, or none for this platform)
	}
	dir := filepath.Dir(src.GoFiles[0])
	a.fset = src.Fset
	a.root = dir
	if src.Module != nil {
		a.root = src.Module.Dir
	}
	generics := hasGenerics(src)
	overlay := map[string]string{}
	var pairs []Pair
	for i, f := range src.Syntax {
		name := src.CompiledGoFiles[i]
		if !strings.HasSuffix(name, ".go") || filepath.Dir(name) != dir {
			continue // cgo-generated
		}
		var out []byte
		if strings.HasSuffix(name, "_test.go") {
			var err error
			if out, err = a.markedTestFile(name, src.Fset, f, ""); err != nil {
				return err
			}
		} else {
			data, err := os.ReadFile(name)
			if err != nil {
				return err
			}
			var ps []Pair
			ps, out = instrumentFile(src.Fset, f, data, src.TypesInfo, a.path, generics, nextPair, nextTry)
			pairs = append(pairs, ps...)
		}
		if out != nil {
			tmpName, err := writeOverlayFile(a.tmp, name, out, len(overlay))
			if err != nil {
				return err
			}
			overlay[name] = tmpName
		}
	}
	if external != nil {
		for i, f := range external.Syntax {
			name := external.CompiledGoFiles[i]
			qual, ok := qualify.Imports(f, external.TypesInfo)[a.path]
			if !ok || !strings.HasSuffix(name, "_test.go") {
				continue
			}
			out, err := a.markedTestFile(name, external.Fset, f, qual+".")
			if err != nil {
				return err
			}
			if out != nil {
				tmpName, err := writeOverlayFile(a.tmp, name, out, len(overlay))
				if err != nil {
					return err
				}
				overlay[name] = tmpName
			}
		}
	}
	injectable := 0
	for _, p := range pairs {
		if p.NotInjectable == "" {
			injectable++
		}
	}
	a.logf("%s: %d pairs, %d injectable", a.path, len(pairs), injectable)
	if injectable == 0 {
		for _, p := range pairs {
			a.rep.Pairs = append(a.rep.Pairs, PairResult{Pair: p, Class: classOf(p, nil)})
		}
		return nil
	}
	hook, err := writeOverlayFile(a.tmp, hookFileName, hookFile(src.Name, generics), len(overlay))
	if err != nil {
		return err
	}
	overlay[filepath.Join(dir, hookFileName)] = hook
	ovPath := filepath.Join(a.tmp, "overlay.json")
	if err := writeOverlay(ovPath, overlay); err != nil {
		return err
	}
	bin := filepath.Join(a.tmp, "pkg.test")
	if err := a.opts.Runner.BuildTest(ctx, dir, a.path, ovPath, bin); err != nil {
		return fmt.Errorf("instrumenting %s: %w (a nopol bug: please report it)", a.path, err)
	}
	plain, err := a.runTests(ctx, bin, dir, "", nil, a.opts.Timeout, &a.rep.Runs)
	if err != nil {
		return err
	}
	// The injected runs: one per pair and test that ran its try in the
	// plain run, Options.Parallel at once; the outcomes in order.
	type job struct {
		pair  int // index in pairs
		test  string
		usage Usage
		out   TestOutcome
		done  bool
	}
	var jobs []job
	jobsOf := make([][]int, len(pairs)) // per pair, its jobs
	for i, p := range pairs {
		if p.NotInjectable != "" {
			continue
		}
		for _, t := range plain.order {
			if u, ok := usage(p, plain.events[t]); ok && plain.passed[t] {
				jobsOf[i] = append(jobsOf[i], len(jobs))
				jobs = append(jobs, job{pair: i, test: t, usage: u})
			}
		}
	}
	a.logf("%s: %d injected runs", a.path, len(jobs))
	sem := make(chan struct{}, max(a.opts.Parallel, 1))
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		runErr   error
		finished int
	)
	for k := range jobs {
		j := &jobs[k]
		sem <- struct{}{}
		if ctx.Err() != nil {
			<-sem
			break
		}
		wg.Go(func() {
			defer func() { <-sem }()
			p := pairs[j.pair]
			inj, err := a.inject(ctx, bin, dir, p, j.test, plain, &a.rep.Runs)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				if runErr == nil && !errors.Is(err, context.DeadlineExceeded) {
					runErr = err
				}
				return
			}
			j.out = TestOutcome{Test: j.test, Usage: j.usage, Passed: inj.passed[j.test] && !inj.timedOut,
				Caught: slices.Contains(inj.events[j.test], "catch "+strconv.Itoa(p.ID)), Failure: inj.failure}
			j.done = true
			if finished++; finished%50 == 0 {
				a.logf("%s: %d of %d injected runs", a.path, finished, len(jobs))
			}
		})
	}
	wg.Wait()
	if runErr != nil {
		return runErr
	}
	// A white test that failed beside another run may have collided with
	// it (a file of the package directory): it decides source-dependence,
	// so it is run again, alone.
	for k := range jobs {
		j := &jobs[k]
		if !j.done || j.usage != White || j.out.Passed || ctx.Err() != nil {
			continue
		}
		p := pairs[j.pair]
		inj, err := a.inject(ctx, bin, dir, p, j.test, plain, &a.rep.Reruns)
		if err != nil {
			continue // out of time: the first outcome stands
		}
		if inj.passed[j.test] && !inj.timedOut {
			a.logf("%s: pair %d: %s passes alone with the error injected, failed beside another run", a.path, p.ID, j.test)
			j.out.Passed, j.out.Failure = true, ""
		}
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		a.rep.TimedOut = true
	}
	var results []PairResult
	for i, p := range pairs {
		var tests []TestOutcome
		complete := true
		for _, k := range jobsOf[i] {
			tests = append(tests, jobs[k].out)
			complete = complete && jobs[k].done
		}
		if !complete {
			results = append(results, PairResult{Pair: p, Class: NotAnalysed})
			continue
		}
		r := PairResult{Pair: p, Class: classOf(p, tests), Tests: tests}
		r.PurelyResilient = pureOf(tests)
		results = append(results, r)
	}
	if !a.rep.TimedOut {
		if err := a.stretch(ctx, dir, results); err != nil {
			return err
		}
	}
	a.rep.Pairs = append(a.rep.Pairs, results...)
	return nil
}

// runTimeout bounds an injected run of a test that took d in the plain
// run.
func runTimeout(d time.Duration) time.Duration {
	return min(20*d+5*time.Second, 2*time.Minute)
}

// testRun is what one run of the test binary showed.
type testRun struct {
	order    []string // top-level tests, in order
	events   map[string][]string
	passed   map[string]bool
	elapsed  map[string]time.Duration
	timedOut bool
	failure  string // the first line of a failure message
}

var failureLine = regexp.MustCompile(`^\s+\S+\.go:\d+: `)

// inject runs test with the error of pair p injected at its try; count
// is the Report counter of the run (Runs, Reruns).
func (a *pkgAnalysis) inject(ctx context.Context, bin, dir string, p Pair, test string, plain *testRun, count *int) (*testRun, error) {
	env := []string{"NOPOL_RES_TRY=" + strconv.Itoa(p.TryID), "NOPOL_RES_PAIR=" + strconv.Itoa(p.ID)}
	return a.runTests(ctx, bin, dir, test, env, runTimeout(plain.elapsed[test]), count)
}

// runTests runs the binary (the tests matching only, when set) verbosely
// and reads the tests, their results and the hook's events; count is the
// Report counter the run adds to.
func (a *pkgAnalysis) runTests(ctx context.Context, bin, dir, only string, env []string, timeout time.Duration, count *int) (*testRun, error) {
	args := []string{"-test.v", "-test.count=1"}
	if only != "" {
		args = append(args, "-test.run", "^"+regexp.QuoteMeta(only)+"$")
	}
	// The plain run of the suite prints every test's events: a cap that
	// cut its middle would lose usages.
	out, err := a.opts.Runner.Run(ctx, &gotest.Invocation{Path: bin, Args: args, Dir: dir, Env: env, Timeout: timeout, MaxOutput: 256 << 20})
	a.mu.Lock()
	*count++
	a.mu.Unlock()
	if err != nil && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	r := parseRun(string(out.Stdout))
	r.timedOut = out.TimedOut
	return r, nil
}

// parseRun reads the verbose output of a test binary: the top-level
// tests in order, their results and durations, the hook's events of each
// (attributed to the test that last started or resumed), the first
// failure line.
func parseRun(stdout string) *testRun {
	r := &testRun{events: map[string][]string{}, passed: map[string]bool{}, elapsed: map[string]time.Duration{}}
	current := ""
	for line := range strings.Lines(stdout) {
		line = strings.TrimRight(line, "\n")
		if ev, ok := strings.CutPrefix(line, "nopol-res "); ok {
			if current != "" && !slices.Contains(r.events[current], ev) {
				r.events[current] = append(r.events[current], ev)
			}
			continue
		}
		if r.failure == "" && failureLine.MatchString(line) {
			r.failure = strings.TrimSpace(line)
		}
		fr, ok := gotest.ParseFraming(line)
		if !ok || fr.Test == "" {
			continue
		}
		top, _, _ := strings.Cut(fr.Test, "/")
		switch {
		case fr.Verb == "RUN" || fr.Verb == "CONT" || fr.Verb == "NAME":
			current = top
			if !slices.Contains(r.order, top) {
				r.order = append(r.order, top)
			}
		case fr.Result() && !fr.Indented && !strings.Contains(fr.Test, "/"):
			r.passed[fr.Test] = fr.Verb == "PASS"
			if d, err := time.ParseDuration(strings.Trim(fr.Elapsed, "()")); err == nil {
				r.elapsed[fr.Test] = d
			}
		}
	}
	return r
}

// usage is how a test used p in the plain run, from its events; ok is
// false when it did not run p's try.
func usage(p Pair, events []string) (Usage, bool) {
	try := "try " + strconv.Itoa(p.TryID)
	errored := slices.Contains(events, try+" 1")
	clean := slices.Contains(events, try+" 0")
	switch {
	case errored && slices.Contains(events, "catch "+strconv.Itoa(p.ID)):
		return White, true
	case errored:
		return Blue, true
	case clean:
		return Pink, true
	}
	return "", false
}

// classOf classifies a pair from the injected runs of the tests that ran
// its try.
func classOf(p Pair, tests []TestOutcome) Class {
	switch {
	case p.NotInjectable != "":
		return NotInjectable
	case len(tests) == 0:
		return NotExecuted
	}
	white := false
	for _, t := range tests {
		if t.Usage != White {
			continue
		}
		white = true
		if !t.Passed {
			return SourceDependent
		}
	}
	if white {
		return SourceIndependent
	}
	return Unknown
}

// pureOf says whether every test that ran the try passes with the error
// injected ("yes"), one fails ("no"), or none ran it ("").
func pureOf(tests []TestOutcome) string {
	if len(tests) == 0 {
		return ""
	}
	for _, t := range tests {
		if !t.Passed {
			return "no"
		}
	}
	return "yes"
}
