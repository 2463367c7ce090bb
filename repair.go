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

	"github.com/nopol-go/nopol/angelic"
	"github.com/nopol-go/nopol/collect"
	"github.com/nopol-go/nopol/internal/gotest"
	"github.com/nopol-go/nopol/internal/purify"
	"github.com/nopol-go/nopol/synth"
)

// Repair looks for a one-condition patch that makes the failing tests of
// the module at opts.Dir pass without breaking the passing ones. It returns
// a Result with Patched false (and a Reason) when the search ends without
// one, including when opts.Timeout expires; an *InputError when the module
// cannot be repaired as given; other errors when nopol itself fails or ctx
// is cancelled. The user's files are never written.
func Repair(ctx context.Context, opts Options) (*Result, error) {
	return repair(ctx, opts, realCollector{})
}

// Limits of the search.
const (
	defaultTimeout  = 10 * time.Minute
	defaultMaxSites = 20
	defaultMaxCands = 10
	// maxExamples bounds the distinct examples handed to synthesis.
	maxExamples = 200
	// synthTimeout bounds one synthesis.
	synthTimeout = 15 * time.Second
	// maxFlips bounds the runs of the per-evaluation angelic search of
	// one failing test at one site (angelic.Problem.MaxFlips).
	maxFlips = 8
)

// repairer holds the state of one repair.
type repairer struct {
	opts  Options
	c     collector
	res   *Result
	start time.Time
	// phase is the current phase; phases the time per phase.
	phase  string
	phases map[string]time.Duration

	prog *collect.Program
	bin  testBinary
	// elapsed is each test's baseline duration.
	elapsed map[testKey]time.Duration
	// failing are the failing tests to repair, ignored the other failing
	// tests (by name), passing the passing tests, in baseline order.
	failing, passing []testKey
	ignored          map[string]bool
	// failingByID maps the failing tests' ids to them.
	failingByID map[string]testKey
	// cover is each test's coverage run.
	cover map[testKey]collect.Result
	// failed are the fragments each failing test's failures are
	// attributed to in its coverage run, unless Options.NoPurify.
	failed map[testKey][]angelic.Fragment
	// fl is what is known of flaky tests; serial the tests that fail
	// when run beside others and pass alone (they share a file, a port):
	// they run alone.
	fl     flakiness
	serial map[testKey]bool
	// perEval turns on per-evaluation angelic values (the last tier);
	// noConstant are the Cond sites where a failing test failed under
	// every constant value, in rank order.
	perEval    bool
	noConstant []int
	// instrSensitive are the passing tests that fail instrumented (an
	// allocation count, a stack depth): a schema run, which wraps the
	// candidate in a function literal, may fail them too, so such a
	// failure is settled by a plain run of the patched file.
	instrSensitive map[testKey]bool
	// ranked are the candidates of the site being validated, in rank
	// order, for the explanation.
	ranked []candidate
	// spec is the specification they were checked against (nil for the
	// fallback's mutants).
	spec *synth.Spec
}

// The phases of a repair, as Result.Phases names them.
const (
	phaseLoad       = "load"
	phaseBaseline   = "baseline"
	phaseInstrument = "instrument"
	phaseCoverage   = "coverage"
	phaseLocalize   = "localize"
	phaseAngelic    = "angelic"
	phaseSnapshot   = "snapshot"
	phaseSynthesis  = "synthesis"
	phaseValidation = "validation"
	phaseVerify     = "verify"
)

// phaseOrder lists the phases in pipeline order.
var phaseOrder = []string{phaseLoad, phaseBaseline, phaseInstrument, phaseCoverage, phaseLocalize,
	phaseAngelic, phaseSnapshot, phaseSynthesis, phaseValidation, phaseVerify}

func repair(ctx context.Context, opts Options, c collector) (*Result, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = defaultTimeout
	}
	if opts.MaxSites <= 0 {
		opts.MaxSites = defaultMaxSites
	}
	if opts.MaxCandidates <= 0 {
		opts.MaxCandidates = defaultMaxCands
	}
	if opts.Kinds == 0 {
		opts.Kinds = KindAll
	}
	if opts.Parallel <= 0 {
		opts.Parallel = defaultParallel()
	}
	if len(opts.Patterns) == 0 {
		opts.Patterns = []string{"./..."}
	}
	if opts.Backend != "" && !slices.Contains(synth.Backends(), opts.Backend) {
		return nil, &InputError{Msg: fmt.Sprintf("synthesis backend %q is not available (have %s)", opts.Backend, strings.Join(synth.Backends(), ", "))}
	}
	if opts.Dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		opts.Dir = wd
	}
	r := &repairer{opts: opts, c: c, res: &Result{}, start: time.Now(), phases: map[string]time.Duration{}}
	tctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	err := r.run(tctx)
	if r.bin != nil {
		if cerr := r.bin.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("removing the instrumented build: %w", cerr)
		}
	}
	r.enter("")
	for _, name := range phaseOrder {
		if d, ok := r.phases[name]; ok {
			r.res.Phases = append(r.res.Phases, Phase{Name: name, Duration: d})
		}
	}
	r.res.Total = time.Since(r.start)
	r.res.Flaky = r.flakyNames()
	r.res.FillLists()
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return r.res, fmt.Errorf("interrupted: %w", ctx.Err())
	case tctx.Err() != nil:
		r.res.Reason = fmt.Sprintf("the repair timed out after %s (raise -timeout)", opts.Timeout)
		r.logf("%s", r.res.Reason)
		return r.res, nil
	default:
		return r.res, err
	}
	return r.res, nil
}

// enter starts phase name, ending the current one.
func (r *repairer) enter(name string) {
	now := time.Since(r.start)
	if r.phase != "" {
		r.phases[r.phase] += now - r.phases["@"+r.phase]
	}
	delete(r.phases, "@"+r.phase)
	r.phase = name
	if name != "" {
		r.phases["@"+name] = now
	}
}

func (r *repairer) logf(format string, args ...any) {
	if r.opts.Progress == nil {
		return
	}
	fmt.Fprintf(r.opts.Progress, "nopol: "+format+"\n", args...)
}

func (r *repairer) vlogf(format string, args ...any) {
	if r.opts.Verbose {
		r.logf(format, args...)
	}
}

func (r *repairer) run(ctx context.Context) error {
	if err := r.load(ctx); err != nil {
		return err
	}
	// Instrumenting needs only the loaded program: it compiles while the
	// baseline runs, and its phase counts the wait after the baseline.
	type built struct {
		bin testBinary
		err error
	}
	ictx, icancel := context.WithCancel(ctx)
	defer icancel()
	done := make(chan built, 1)
	r.logf("instrument: %s in %s, while the baseline runs", plural(len(r.prog.Sites), "site"), plural(len(r.prog.Packages), "package"))
	go func() {
		bin, err := r.c.Instrument(ictx, r.prog)
		done <- built{bin, err}
	}()
	if err := r.baseline(ctx); err != nil {
		icancel()
		if b := <-done; b.err == nil {
			b.bin.Close()
		}
		return err
	}
	r.enter(phaseInstrument)
	b := <-done
	if b.err != nil {
		return b.err // collect names the operation
	}
	r.bin = b.bin
	if d := b.bin.DroppedExits(); len(d) > 0 {
		r.logf("instrument: the exits of %s did not compile and are left out (a nopol bug, please report it): %s", plural(len(d), "guard site"), strings.Join(d[:min(len(d), 5)], ", "))
	}
	if err := r.coverage(ctx); err != nil {
		return err
	}
	r.enter(phaseLocalize)
	ranked := r.localize()
	if len(ranked) == 0 {
		r.res.Reason = "no repair site is reached by the failing tests"
		if ex := r.excluded(); ex != "" {
			r.res.Reason += "; not instrumented: " + ex
		}
		r.logf("%s", r.res.Reason)
		return nil
	}
	// The top MaxSites of the sites with conditions or the guards'
	// first styles; their exits later (see withStyles).
	searched := r.withStyles(ranked, false)
	searched = searched[:min(len(searched), r.opts.MaxSites)]
	for i, s := range searched {
		done, err := r.site(ctx, i, len(searched), s, false)
		if err != nil || done {
			return err
		}
	}
	reason := fmt.Sprintf("no patch at the %d most suspicious sites", len(searched))
	if !r.opts.NoMutants {
		n, k, done, err := r.mutate(ctx, ranked)
		if err != nil || done {
			return err
		}
		if n > 0 {
			reason += fmt.Sprintf(", nor among %s of the top %s", plural(n, "mutant"), plural(k, "condition"))
		}
	}
	// Then the guards' other exits (continue, a return of the function,
	// an error, ...) at the same sites.
	if late := r.withStyles(ranked, true); len(late) > 0 {
		late = late[:min(len(late), r.opts.MaxSites)]
		r.logf("exits: %s where a guard can leave before the statement", plural(len(late), "site"))
		for i, s := range late {
			done, err := r.site(ctx, i, len(late), s, true)
			if err != nil || done {
				return err
			}
		}
		reason += fmt.Sprintf(", nor with other exits at %s", plural(len(late), "guard site"))
	}
	// Last tier: per-evaluation angelic values, at the conditions where a
	// failing test failed under every constant value. Last, because a
	// specification from one negated evaluation is thin: a mutant of the
	// original, or a condition from constant values, is preferred.
	if len(r.noConstant) > 0 && !r.opts.NoPerEval {
		ids := r.noConstant
		r.perEval = true
		r.logf("per-evaluation: %s where a failing test fails under every constant value; negating one evaluation at a time", plural(len(ids), "condition"))
		bySite := map[int]angelic.Suspicion{}
		for _, s := range searched {
			bySite[s.Site] = s
		}
		for i, id := range ids {
			done, err := r.site(ctx, i, len(ids), bySite[id], false)
			if err != nil || done {
				return err
			}
		}
		reason += fmt.Sprintf(", nor with per-evaluation values at %s", plural(len(ids), "condition"))
	}
	r.res.Reason = reason
	r.logf("%s", r.res.Reason)
	return nil
}

func (r *repairer) load(ctx context.Context) error {
	r.enter(phaseLoad)
	dir, err := gotest.TempDir("nopol-check-")
	if err != nil {
		return &EnvError{Msg: fmt.Sprintf("making a temp dir: %v; set TMPDIR to a writable directory", err)}
	}
	os.RemoveAll(dir)
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
	r.ignored = map[string]bool{}
	r.failingByID = map[string]testKey{}
	var allFailing []string
	var failing []testKey
	for _, t := range results {
		k := testKey{t.Package, t.Test}
		r.elapsed[k] = t.Elapsed
		switch {
		case t.Skipped:
			continue
		case t.Passed:
			r.passing = append(r.passing, k)
		default:
			allFailing = append(allFailing, t.Test)
			if r.opts.Run == nil || r.opts.Run.MatchString(t.Test) {
				failing = append(failing, k)
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
	if r.failing, err = r.confirmFailing(ctx, failing, limit); err != nil {
		return err
	}
	for _, k := range r.failing {
		r.failingByID[k.id()] = k
	}
	for _, t := range results {
		k := testKey{t.Package, t.Test}
		if t.Skipped {
			continue
		}
		tr := TestReport{Package: t.Package, Name: t.Test, Passed: t.Passed, Repaired: r.isFailing(k), Flaky: r.isFlaky(k)}
		if file, line, ok := r.prog.TestLocation(t.Package, t.Test); ok {
			tr.File, tr.Line = r.relPath(file), line
		}
		r.res.Tests = append(r.res.Tests, tr)
	}
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

// coverage re-runs the failing tests in the instrumented binary (a test
// that passes there is flaky) and runs the passing ones, recording which
// sites each reaches.
func (r *repairer) coverage(ctx context.Context) error {
	r.enter(phaseCoverage)
	r.cover = map[testKey]collect.Result{}
	r.failed = map[testKey][]angelic.Fragment{}
	r.serial = map[testKey]bool{}
	r.instrSensitive = map[testKey]bool{}
	tests := append(slices.Clone(r.failing), r.passing...)
	runs := make([]collect.Run, len(tests))
	for i, k := range tests {
		runs[i] = collect.Run{Package: k.pkg, Test: k.name, Mode: collect.ModeCover, ForceSegment: -1, Timeout: r.timeout(k),
			PrintConstituents: !r.opts.NoPurify && i < len(r.failing)}
	}
	r.logf("coverage: running %s", plural(len(runs), "test"))
	results, err := r.runAll(ctx, runs)
	r.res.Runs += len(runs)
	if err != nil {
		return fmt.Errorf("running the instrumented tests: %w", err)
	}
	// A result that differs from the plain run's is checked by running
	// the test again alone: tests that share a file or a port collide
	// under parallel runs; those run alone from then on.
	var again []int
	for i := range tests {
		if results[i].Passed == (i < len(r.failing)) {
			again = append(again, i)
		}
	}
	if len(again) > 0 {
		r.logf("coverage: running %s again, one at a time", plural(len(again), "test"))
	}
	for _, i := range again {
		res, err := r.bin.Run(ctx, runs[i])
		r.res.Runs++
		if err != nil {
			return fmt.Errorf("running the instrumented tests: %w", err)
		}
		if res.Passed != (i < len(r.failing)) {
			results[i] = res
			r.serial[tests[i]] = true
			r.logf("coverage: %s gives its plain result when run alone; it runs alone from now on", tests[i].name)
		}
	}
	var failing []testKey
	for i, k := range tests {
		res := results[i]
		isFailing := i < len(r.failing)
		if isFailing && res.Passed {
			r.logf("warning: %s failed on every plain run but passes instrumented; left out of the search (a nopol bug: please report it)", k.name)
			continue
		}
		if !isFailing && !res.Passed {
			r.logf("warning: %s passed in the plain run but failed instrumented, alone too (instrumenting changes inlining, and so allocations); left out of the search", k.name)
			r.instrSensitive[k] = true
			continue
		}
		if isFailing {
			failing = append(failing, k)
		}
		r.vlogf("coverage %s: passed=%v, %d sites reached", k.name, res.Passed, reachedCount(res))
		r.cover[k] = res
		if isFailing && !r.opts.NoPurify {
			frs := r.failingFragments(k, res.Output)
			r.vlogf("coverage %s: failures in %s", k.name, describeFragments(r.fragmentReports(k, angelic.Force{Fragments: frs}, false)))
			if !r.wholeTest(k, frs) {
				r.failed[k] = frs
			}
		}
	}
	if len(failing) == 0 {
		return &InputError{Msg: fmt.Sprintf("checking %s: the failing tests pass when instrumented; nothing is left to repair", strings.Join(testNames(r.failing), ", "))}
	}
	r.failing = failing
	return nil
}

func reachedCount(res collect.Result) int {
	n := 0
	for _, c := range res.Reached {
		if c[0]+c[1] > 0 {
			n++
		}
	}
	return n
}

// suiteTime is the baseline time of all tests.
func (r *repairer) suiteTime() time.Duration {
	var total time.Duration
	for _, d := range r.elapsed {
		total += d
	}
	return total
}

// plural renders n and noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// withStyles keeps the sites that have styles searched early (late
// false) or late.
func (r *repairer) withStyles(sites []angelic.Suspicion, late bool) []angelic.Suspicion {
	var out []angelic.Suspicion
	for _, s := range sites {
		if slices.ContainsFunc(stylesOf(r.prog.Sites[s.Site]), func(st style) bool { return st.late == late && r.strategyWanted(st) }) {
			out = append(out, s)
		}
	}
	return out
}

// timeout is the limit of one instrumented run of test k.
func (r *repairer) timeout(k testKey) time.Duration {
	return runTimeout(r.elapsed[k])
}

// localize ranks the sites of the selected kinds by suspiciousness; the
// search takes the top Options.MaxSites of them.
func (r *repairer) localize() []angelic.Suspicion {
	var spectra []angelic.Spectrum
	for _, k := range append(slices.Clone(r.failing), r.passing...) {
		res, ok := r.cover[k]
		if !ok {
			continue
		}
		sp := angelic.Spectrum{Test: k.name, Passed: res.Passed}
		for id, c := range res.Reached {
			if c[0]+c[1] > 0 && id >= 0 && id < len(r.prog.Sites) && r.wanted(r.prog.Sites[id]) {
				sp.Reached = append(sp.Reached, id)
			}
		}
		spectra = append(spectra, sp)
	}
	stacks := r.panicStacks()
	ranked := angelic.Localize(spectra, func(id int) int {
		site := r.prog.Sites[id]
		tier := 2 * stackRank(stacks, site)
		if site.Kind != collect.Cond {
			tier++
		}
		return tier
	})
	r.logf("localize: %s reached by the failing tests; searching the top %d", plural(len(ranked), "site"), min(len(ranked), r.opts.MaxSites))
	return ranked
}

func (r *repairer) wanted(s collect.Site) bool {
	switch s.Kind {
	case collect.Cond:
		return r.opts.Kinds&KindCond != 0
	case collect.Guard:
		return r.opts.Kinds&KindGuard != 0
	}
	return false
}

// relPath is file relative to the module root, slash-separated.
func (r *repairer) relPath(file string) string {
	if rel, err := filepath.Rel(r.prog.Dir, file); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(file)
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

// panicStacks are, per failing test whose coverage run panicked, the
// frames (file:line) of the panic outside the runtime, package testing
// and test files, innermost first.
func (r *repairer) panicStacks() [][]purify.Location {
	var out [][]purify.Location
	for _, k := range r.failing {
		res, ok := r.cover[k]
		if !ok || !strings.Contains(res.Output, "panic: ") {
			continue
		}
		dir := r.prog.PackageDir(k.pkg)
		var stack []purify.Location
		for _, loc := range purify.ParseOutput(res.Output) {
			if !loc.Panic || strings.HasSuffix(loc.File, "_test.go") {
				continue
			}
			if !filepath.IsAbs(loc.File) {
				loc.File = filepath.Join(dir, loc.File)
			}
			stack = append(stack, loc)
		}
		if len(stack) > 0 {
			out = append(out, stack)
		}
	}
	return out
}

// stackRank ranks a site by the panics of the failing tests (see
// localize): 0 when its function is a panicking frame's (the innermost
// frame of the module's code), 1 when it is a caller's, 2 when it is on
// no failing test's stack. Among equally suspicious sites, those of the
// panicking function come first, then those of its callers.
func stackRank(stacks [][]purify.Location, site collect.Site) int {
	rank := 2
	for _, stack := range stacks {
		for i, f := range stack {
			if f.File == site.File && f.Line >= site.FuncLines[0] && f.Line <= site.FuncLines[1] {
				if i == 0 {
					return 0
				}
				rank = 1
			}
		}
	}
	return rank
}
