package nopol

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/nopol-go/nopol/angelic"
	"github.com/nopol-go/nopol/collect"
	"github.com/nopol-go/nopol/internal/diff"
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
	// cover is each test's coverage run.
	cover map[testKey]collect.Result
}

// phaseOrder lists the phases in pipeline order.
var phaseOrder = []string{"load", "baseline", "instrument", "coverage", "localize",
	"angelic", "snapshot", "synthesis", "validation", "verify"}

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
	r.logf("instrumenting %d sites in %d packages", len(r.prog.Sites), len(r.prog.Packages))
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
	r.enter("instrument")
	b := <-done
	if b.err != nil {
		return fmt.Errorf("instrumenting %s: %w", r.prog.Module, b.err)
	}
	r.bin = b.bin
	if err := r.coverage(ctx); err != nil {
		return err
	}
	r.enter("localize")
	ranked := r.localize()
	if len(ranked) == 0 {
		r.res.Reason = "no repair site is reached by the failing tests"
		r.logf("%s", r.res.Reason)
		return nil
	}
	for i, s := range ranked {
		done, err := r.site(ctx, i, len(ranked), s)
		if err != nil || done {
			return err
		}
	}
	r.res.Reason = fmt.Sprintf("no patch at the %d most suspicious sites", len(ranked))
	r.logf("%s", r.res.Reason)
	return nil
}

func (r *repairer) load(ctx context.Context) error {
	r.enter("load")
	what := strings.Join(r.opts.Patterns, " ")
	r.logf("loading %s", what)
	prog, err := r.c.Load(ctx, r.opts.Dir, r.opts.Patterns)
	var le *collect.LoadError
	if errors.As(err, &le) {
		return &InputError{Msg: le.Msg} // it names the operation and what to do
	}
	if err != nil {
		return fmt.Errorf("loading %s: %w", what, err)
	}
	r.prog = prog
	r.res.Module, r.res.Dir = prog.Module, prog.Dir
	if len(prog.Packages) == 0 {
		return &InputError{Msg: fmt.Sprintf("loading %s: no package with tests; nopol needs failing tests to repair", what)}
	}
	return nil
}

func (r *repairer) baseline(ctx context.Context) error {
	r.enter("baseline")
	r.logf("running the tests of %d packages", len(r.prog.Packages))
	results, err := r.c.Baseline(ctx, r.prog, r.opts.Timeout)
	var le *collect.LoadError
	if errors.As(err, &le) {
		return &InputError{Msg: le.Msg}
	}
	if err != nil {
		return fmt.Errorf("testing %s: %w", r.prog.Module, err)
	}
	r.elapsed = map[testKey]time.Duration{}
	r.ignored = map[string]bool{}
	var allFailing []string
	for _, t := range results {
		k := testKey{t.Package, t.Test}
		r.elapsed[k] = t.Elapsed
		rep := TestReport{Package: t.Package, Name: t.Test, Passed: t.Passed}
		switch {
		case t.Skipped:
			continue
		case t.Passed:
			r.passing = append(r.passing, k)
		default:
			allFailing = append(allFailing, t.Test)
			if r.opts.Run == nil || r.opts.Run.MatchString(t.Test) {
				r.failing = append(r.failing, k)
				rep.Repaired = true
			} else {
				r.ignored[t.Test] = true
			}
		}
		r.res.Tests = append(r.res.Tests, rep)
	}
	switch {
	case len(allFailing) == 0:
		return &InputError{Msg: fmt.Sprintf("testing %s: all %d tests pass; nopol repairs a module with failing tests", r.prog.Module, len(r.passing))}
	case len(r.failing) == 0:
		return &InputError{Msg: fmt.Sprintf("testing %s: no failing test matches -run %q (failing: %s)", r.prog.Module, r.opts.Run, strings.Join(allFailing, ", "))}
	}
	r.logf("%d tests, %d failing: %s", len(r.passing)+len(allFailing), len(allFailing), strings.Join(allFailing, ", "))
	return nil
}

// coverage re-runs the failing tests in the instrumented binary (a test
// that passes there is flaky) and runs the passing ones, recording which
// sites each reaches.
func (r *repairer) coverage(ctx context.Context) error {
	r.enter("coverage")
	r.cover = map[testKey]collect.Result{}
	tests := append(slices.Clone(r.failing), r.passing...)
	runs := make([]collect.Run, len(tests))
	for i, k := range tests {
		runs[i] = collect.Run{Package: k.pkg, Test: k.name, Mode: collect.ModeCover, ForceSegment: -1, Timeout: r.timeout(k)}
	}
	r.logf("coverage: running %d tests", len(runs))
	results, err := runAll(ctx, r.bin, runs, r.opts.Parallel)
	r.res.Runs += len(runs)
	if err != nil {
		return fmt.Errorf("running the instrumented tests: %w", err)
	}
	for i, k := range tests {
		res := results[i]
		failing := i < len(r.failing)
		if failing && res.Passed {
			return &InputError{Msg: fmt.Sprintf("checking %s: it failed in the plain run but passed when run again alone: the test is flaky or depends on other tests; make it deterministic or leave it out with -run", k.name)}
		}
		if !failing && !res.Passed {
			r.logf("warning: %s passed in the plain run but failed instrumented; left out of the search", k.name)
			continue
		}
		r.vlogf("coverage %s: passed=%v, %d sites reached", k.name, res.Passed, reachedCount(res))
		r.cover[k] = res
	}
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

// timeout is the limit of one instrumented run of test k.
func (r *repairer) timeout(k testKey) time.Duration {
	return runTimeout(r.elapsed[k])
}

// localize ranks the sites of the selected kinds by suspiciousness and
// keeps the top ones.
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
	ranked := angelic.Localize(spectra, func(id int) int {
		if r.prog.Sites[id].Kind == collect.Cond {
			return 0
		}
		return 1
	})
	r.logf("localize: %d sites reached by the failing tests; searching the top %d", len(ranked), min(len(ranked), r.opts.MaxSites))
	return ranked[:min(len(ranked), r.opts.MaxSites)]
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

// style is one way of repairing a site.
type style struct {
	name  string // "cond", "guard", "return"
	guard collect.GuardStyle
	force angelic.Force
}

func stylesOf(s collect.Site) []style {
	if s.Kind == collect.Cond {
		return []style{{name: "cond"}}
	}
	st := []style{{name: "guard", guard: collect.GuardWrap, force: angelic.Force{Value: false}}}
	if s.CanReturn {
		st = append(st, style{name: "return", guard: collect.GuardReturn, force: angelic.Force{Value: false, Return: true}})
	}
	return st
}

// site searches one ranked site in each of its styles; done reports a
// patch.
func (r *repairer) site(ctx context.Context, i, n int, s angelic.Suspicion) (done bool, err error) {
	site := r.prog.Sites[s.Site]
	for _, st := range stylesOf(site) {
		rep := SiteReport{ID: site.ID, Kind: kindName(site.Kind), File: r.relPath(site.File), Line: site.Line, Col: site.Col,
			Func: site.Func, Original: site.Original, Score: s.Score, Style: st.name}
		r.logf("site %d/%d: %s:%d %s `%s` (%s, score %.2f)", i+1, n, rep.File, rep.Line, site.Func, oneLine(site.Original), st.name, s.Score)
		done, err := r.searchSite(ctx, site, st, &rep)
		r.logf("site %d/%d: %s", i+1, n, rep.Outcome)
		r.res.Sites = append(r.res.Sites, rep)
		if err != nil || done {
			return done, err
		}
	}
	return false, nil
}

func kindName(k collect.SiteKind) string {
	if k == collect.Guard {
		return "guard"
	}
	return "cond"
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

// searchSite runs the angelic search, the snapshots, synthesis and
// validation at one site in one style.
func (r *repairer) searchSite(ctx context.Context, site collect.Site, st style, rep *SiteReport) (bool, error) {
	r.enter("angelic")
	verdict, err := r.angelicSearch(ctx, site, st)
	if err != nil {
		return false, err
	}
	names := map[string]testKey{}
	for _, k := range r.failing {
		names[k.pkg+" "+k.name] = k
	}
	if !verdict.Qualified {
		rep.Outcome = fmt.Sprintf("not angelic: %s %s", names[verdict.RuledOutBy].name, verdict.Reason)
		return false, nil
	}
	for _, nd := range verdict.Needs {
		rep.Needs = append(rep.Needs, names[nd.Test].name+"="+forceName(st, nd.Force))
	}
	r.logf("angelic: %s", strings.Join(rep.Needs, ", "))

	// The needs to specify: the first force of every test, then, if that
	// gives no candidate, the alternatives of the tests that have one.
	sets := [][]angelic.Need{verdict.Needs}
	if alt := alternative(verdict.Needs); alt != nil {
		sets = append(sets, alt)
	}
	for _, needs := range sets {
		done, err := r.specifyAndValidate(ctx, site, st, needs, names, rep)
		if err != nil || done {
			return done, err
		}
	}
	return false, nil
}

// alternative replaces each need that has an alternative force by it; nil
// when none has.
func alternative(needs []angelic.Need) []angelic.Need {
	var out []angelic.Need
	changed := false
	for _, nd := range needs {
		if len(nd.Also) > 0 {
			nd.Force, changed = nd.Also[0], true
		}
		out = append(out, nd)
	}
	if !changed {
		return nil
	}
	return out
}

func forceName(st style, f angelic.Force) string {
	s := fmt.Sprint(f.Value)
	switch {
	case f.Return:
		s = "return"
	case st.name == "guard":
		s = "skip"
	}
	if !f.Whole() {
		s += fmt.Sprintf("@%d.%d", f.Segment, f.Iteration)
	}
	return s
}

// forcedRun is the run of failing test k with site forced as f.
func (r *repairer) forcedRun(k testKey, site collect.Site, f angelic.Force, mode collect.Mode) collect.Run {
	run := collect.Run{Package: k.pkg, Test: k.name, Mode: mode, Timeout: r.timeout(k),
		Force: map[int]bool{site.ID: f.Value}, ForceSegment: f.Segment, ForceIteration: f.Iteration}
	if f.Return {
		run.ForceReturn = map[int]bool{site.ID: true}
	}
	if mode == collect.ModeSnapshot {
		run.Sites = []int{site.ID}
	}
	return run
}

func (r *repairer) angelicSearch(ctx context.Context, site collect.Site, st style) (angelic.Verdict, error) {
	names := map[string]testKey{}
	p := angelic.Problem{}
	if site.Kind == collect.Cond {
		p.Choices = []angelic.Force{{Value: true}, {Value: false}}
	} else {
		p.Choices = []angelic.Force{st.force}
	}
	for _, k := range r.failing {
		id := k.pkg + " " + k.name
		names[id] = k
		res := r.cover[k]
		ft := angelic.FailingTest{Name: id, Counts: counts(res.Reached[site.ID])}
		for _, e := range res.Evals {
			if e.Site != site.ID || e.Segment < 0 {
				continue
			}
			j := slices.IndexFunc(ft.Constituents, func(c angelic.Constituent) bool {
				return c.Segment == e.Segment && c.Iteration == e.Iteration
			})
			if j < 0 {
				ft.Constituents = append(ft.Constituents, angelic.Constituent{Segment: e.Segment, Iteration: e.Iteration})
				j = len(ft.Constituents) - 1
			}
			if e.Outcome {
				ft.Constituents[j].True++
			} else {
				ft.Constituents[j].False++
			}
		}
		p.Tests = append(p.Tests, ft)
	}
	run := func(ctx context.Context, test string, f angelic.Force) (angelic.Outcome, error) {
		k := names[test]
		res, err := r.bin.Run(ctx, r.forcedRun(k, site, f, collect.ModeCover))
		r.res.Runs++
		if err != nil {
			return angelic.Outcome{}, fmt.Errorf("running %s with site %d forced: %w", k.name, site.ID, err)
		}
		r.vlogf("forced %s=%s: passed=%v timed out=%v (%s)", k.name, forceName(st, f), res.Passed, res.TimedOut, res.Duration.Round(time.Millisecond))
		return angelic.Outcome{Passed: res.Passed, TimedOut: res.TimedOut}, nil
	}
	return angelic.Search(ctx, p, run)
}

// counts converts collect's per-site counts, indexed by outcome: [0]
// false, [1] true.
func counts(c [2]int) angelic.Counts {
	return angelic.Counts{True: c[1], False: c[0]}
}

// specifyAndValidate records the examples of the site under needs,
// synthesizes candidates and validates them.
func (r *repairer) specifyAndValidate(ctx context.Context, site collect.Site, st style, needs []angelic.Need, names map[string]testKey, rep *SiteReport) (bool, error) {
	r.enter("snapshot")
	spec, sum, why, err := r.snapshot(ctx, site, st, needs, names)
	if err != nil {
		return false, err
	}
	rep.Examples, rep.Distinct = sum.Examples, sum.Distinct
	if spec == nil {
		rep.Outcome = why
		return false, nil
	}
	// When every state needs the same outcome, any condition constant on
	// them fits: only a change of the original condition, reading all of
	// its operands, has a claim to be the fix.
	var keep []int
	if sum.Constant() {
		ops := originalOperands(spec)
		if len(ops) == 0 {
			rep.Outcome = "no specification: " + why + " and the original's operands are not observed"
			return false, nil
		}
		spec = project(spec, ops)
		for i := range ops {
			keep = append(keep, i)
		}
		r.logf("snapshot: %s; searching over the original's operands only", why)
	}

	r.enter("synthesis")
	opts := synth.Options{Backend: r.opts.Backend, MaxCandidates: r.opts.MaxCandidates, Timeout: synthTimeout}
	cands, err := synth.Solve(ctx, spec, opts)
	if err != nil {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		rep.Outcome = "synthesis: " + err.Error()
		return false, nil
	}
	var srcs, dropped []string
	for _, c := range cands {
		if readsAll(c.Term, keep) {
			srcs = append(srcs, c.Source)
		} else {
			dropped = append(dropped, c.Source)
		}
	}
	if len(srcs) == 0 {
		rep.Outcome = fmt.Sprintf("synthesis: no candidate reads all of the original's operands (%s)", strings.Join(dropped, " | "))
		return false, nil
	}
	r.logf("synthesis: %d examples (%d distinct), %d candidates: %s", rep.Examples, rep.Distinct, len(srcs), strings.Join(srcs, " | "))
	return r.validate(ctx, site, st, srcs, rep)
}

// snapshot runs every test reaching the site in snapshot mode (failing
// tests with their angelic value) and builds the synthesis spec, with a
// summary of the examples. A nil spec comes with the reason; a spec whose
// states all need one outcome (kept only when there is an original
// condition) comes with that remark.
func (r *repairer) snapshot(ctx context.Context, site collect.Site, st style, needs []angelic.Need, names map[string]testKey) (*synth.Spec, angelic.Summary, string, error) {
	var (
		runs []collect.Run
		keys []testKey
	)
	for _, nd := range needs {
		k := names[nd.Test]
		runs = append(runs, r.forcedRun(k, site, nd.Force, collect.ModeSnapshot))
		keys = append(keys, k)
	}
	nFailing := len(runs)
	for _, k := range r.passing {
		res, ok := r.cover[k]
		if !ok {
			continue
		}
		if c := res.Reached[site.ID]; c[0]+c[1] == 0 {
			continue
		}
		runs = append(runs, collect.Run{Package: k.pkg, Test: k.name, Mode: collect.ModeSnapshot, Sites: []int{site.ID}, ForceSegment: -1, Timeout: r.timeout(k)})
		keys = append(keys, k)
	}
	r.logf("snapshot: running %d tests (%d failing with their angelic value)", len(runs), nFailing)
	results, err := runAll(ctx, r.bin, runs, r.opts.Parallel)
	r.res.Runs += len(runs)
	if err != nil {
		return nil, angelic.Summary{}, "", fmt.Errorf("recording states at site %d: %w", site.ID, err)
	}
	inputs, consts, keep := specInputs(site)
	spec := &synth.Spec{Inputs: inputs, Constants: consts}
	if site.Kind == collect.Cond {
		spec.Original = site.Original
	}
	var all []angelic.Example
	// Failing tests' examples come first, so that the cap on examples
	// never drops them.
	seen := map[string]bool{}
	for i, res := range results {
		k := keys[i]
		if !res.Passed {
			if i < nFailing {
				return nil, angelic.Summary{}, fmt.Sprintf("%s failed in its snapshot run with the angelic value (timed out: %v)", k.name, res.TimedOut), nil
			}
			r.vlogf("snapshot %s failed; its states are left out", k.name)
			continue
		}
		for _, e := range res.Evals {
			if e.Site != site.ID || len(e.Values) != len(site.Observed) {
				continue
			}
			vals := make([]synth.Value, len(keep))
			for j, oi := range keep {
				vals[j] = synthValue(e.Values[oi], site.Observed[oi].Kind)
			}
			want := e.Outcome
			if st.name == "return" {
				want = !want
			}
			key := stateKey(vals)
			all = append(all, angelic.Example{State: key, Want: want, Origin: k.name})
			if seen[fmt.Sprint(want)+key] || len(spec.Examples) >= maxExamples {
				continue
			}
			seen[fmt.Sprint(want)+key] = true
			spec.Examples = append(spec.Examples, synth.Example{Values: vals, Want: want, Origin: k.name})
		}
	}
	sum := angelic.Summarize(all)
	if len(inputs) == 0 {
		return nil, sum, "no specification: nothing observable at the site", nil
	}
	why := sum.Trivial()
	if why != "" && !(sum.Constant() && spec.Original != "") {
		return nil, sum, fmt.Sprintf("no specification: %s (%d examples)", why, sum.Examples), nil
	}
	return spec, sum, why, nil
}

// validate runs the suite for each candidate in order and stops at the
// first that passes and survives the patched-source check.
func (r *repairer) validate(ctx context.Context, site collect.Site, st style, srcs []string, rep *SiteReport) (bool, error) {
	r.enter("validation")
	schema, err := r.c.BuildSchema(ctx, r.prog, site, st.guard, srcs, suiteTimeout(r.suiteTime()))
	if err != nil {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		rep.Outcome = "building the candidates: " + err.Error()
		return false, nil
	}
	defer schema.Close()
	for k, src := range srcs {
		r.enter("validation")
		sr, err := schema.RunSuite(ctx, k)
		r.res.Runs++
		if err != nil {
			return false, fmt.Errorf("validating %s at site %d: %w", src, site.ID, err)
		}
		ok := r.acceptable(sr)
		cr := CandidateReport{Site: site.ID, Style: st.name, Condition: src, Passed: ok, Failed: sr.Failed, TimedOut: sr.TimedOut, Duration: sr.Duration}
		r.res.Candidates = append(r.res.Candidates, cr)
		r.logf("candidate %d/%d `%s`: %s", k+1, len(srcs), src, suiteSummary(sr, ok))
		if !ok {
			continue
		}
		r.enter("verify")
		done, why, err := r.finish(ctx, site, st, src, rep)
		if err != nil || done {
			return done, err
		}
		r.res.Candidates[len(r.res.Candidates)-1].Passed = false
		r.logf("candidate %d/%d `%s`: %s", k+1, len(srcs), src, why)
	}
	rep.Outcome = fmt.Sprintf("none of %d candidates passes the suite", len(srcs))
	return false, nil
}

func suiteSummary(sr collect.SuiteResult, ok bool) string {
	switch {
	case ok:
		return "the suite passes"
	case sr.BuildFailed:
		msg, _, _ := strings.Cut(strings.TrimSpace(sr.Output), "\n")
		return "does not compile: " + msg
	case sr.TimedOut:
		return "the suite timed out"
	case len(sr.Failed) == 0:
		return "the suite fails"
	}
	return "fails " + strings.Join(sr.Failed, ", ")
}

// acceptable reports whether a suite run passes, but for the failing tests
// left out with -run.
func (r *repairer) acceptable(sr collect.SuiteResult) bool {
	if sr.Passed {
		return true
	}
	if sr.TimedOut || len(sr.Failed) == 0 || len(r.ignored) == 0 {
		return false
	}
	for _, f := range sr.Failed {
		top, _, _ := strings.Cut(f, "/")
		if !r.ignored[top] {
			return false
		}
	}
	return true
}

// finish writes the candidate into the source, checks the patched file
// through an overlay, and fills in the result.
func (r *repairer) finish(ctx context.Context, site collect.Site, st style, cond string, rep *SiteReport) (bool, string, error) {
	old, err := os.ReadFile(site.File)
	if err != nil {
		return false, "", fmt.Errorf("reading %s: %w", site.File, err)
	}
	src, err := patchSource(old, site, st.guard, cond)
	if err != nil {
		return false, "writing the patch: " + err.Error(), nil
	}
	sr, err := r.c.VerifyPatch(ctx, r.prog, site.File, src, suiteTimeout(r.suiteTime())+time.Minute)
	r.res.Runs++
	if err != nil {
		return false, "", fmt.Errorf("verifying the patch of %s: %w", rep.File, err)
	}
	if !r.acceptable(sr) {
		return false, "the patched file fails the suite: " + suiteSummary(sr, false), nil
	}
	rep.Outcome = "patched"
	r.res.Patched = true
	r.res.Site = rep
	r.res.Style = st.name
	r.res.Condition = cond
	r.res.File = rep.File
	r.res.Source = src
	r.res.Diff = diff.Unified(rep.File, old, src)
	r.logf("patched %s:%d in %s", rep.File, site.Line, time.Since(r.start).Round(time.Millisecond))
	return true, "", nil
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

// readsAll reports whether t reads every input of idx.
func readsAll(t *synth.Term, idx []int) bool {
	read := map[int]bool{}
	var walk func(*synth.Term)
	walk = func(t *synth.Term) {
		if t.Op == synth.OpInput {
			read[t.Index] = true
		}
		for _, a := range t.Args {
			walk(a)
		}
	}
	walk(t)
	for _, i := range idx {
		if !read[i] {
			return false
		}
	}
	return true
}
