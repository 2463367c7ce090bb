package nopol

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/nopol-go/nopol/angelic"
	"github.com/nopol-go/nopol/collect"
	"github.com/nopol-go/nopol/internal/constituent"
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
	defaultEffort   = 2
	// maxExamples bounds the distinct examples handed to synthesis.
	maxExamples = 200
	// synthTimeout bounds one synthesis.
	synthTimeout = 15 * time.Second
	// maxFlips bounds the runs of the per-evaluation angelic search of
	// one failing test at one site (angelic.Problem.MaxFlips).
	maxFlips = 8
)

// minLaterWork is the least work the later tiers may do (Options.Effort,
// in units of test runs, see ran), however little the first tier did; a
// variable for the tests.
var minLaterWork = 200

// firstPauseWork is the work (in units of test runs, see ran) after
// which the first tier pauses for the mutants of the top conditions: a
// site starts after them once the tier has done this much. Counted, not
// timed, the pause falls at the same site on every machine and under any
// load. On the training split, every patch of the first tier came from a
// site started within 91 units, and the searches that the wall-clock
// pause before it (a third of the time left) stopped had done 97 to 383
// units; a variable for the tests.
var firstPauseWork = 100

// repairer holds the state of one repair.
type repairer struct {
	opts Options
	// pool says how many instrumented runs go at once (runAll).
	pool  *runPool
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
	// suiteOrder are, per package, the tests the baseline ran, in the
	// order it ran them; suiteFailure is each failing test's output there.
	suiteOrder   map[string][]string
	suiteFailure map[testKey]string
	// narrow are the failing subtests each failing table test's runs are
	// narrowed to; restKeys stand for the passing subtests of some of
	// them (subtests.go).
	narrow   map[testKey][]string
	restKeys []testKey
	// checks are the failing gocheck tests each failing test that runs a
	// gocheck suite is narrowed to (gocheck.go).
	checks map[testKey][]string
	// checkRest are the passing gocheck tests of those tests.
	checkRest map[testKey][]string
	// caseCover are the coverage runs of each failing gocheck test of
	// those tests, alone (coverCases).
	caseCover map[testKey][]collect.Result
	// localized are the sites localize ranked, in rank order.
	localized []angelic.Suspicion
	// constant are the sites where the failing tests' angelic values
	// were the same in every recorded state; around those that
	// aroundNext searched out of turn.
	constant, around map[int]bool
	// files are the files of sites parsed, once each (parsedFile).
	files map[string]parsed
	// restCases are the coverage runs of the passing gocheck tests a
	// restKey stands for, alone or in groups (coverRestCases).
	restCases map[testKey][]restCase
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
	failed map[testKey][]angelic.Constituent
	// before are, per failing test, the sites it ran before its first
	// failure (nil when unknown; see reach.go); sources caches the lines
	// of the test files read to tell a failure from a log message.
	before  map[testKey]map[int]bool
	sources map[string][]string
	// interrupted are, per failing test, the condition sites its panic
	// interrupted (reached, without an outcome; see interruptedConds).
	interrupted map[testKey]map[int]bool
	// outOfRange are the condition sites a failing test's panic
	// interrupted with an index or a slice out of range (bounds.go).
	outOfRange map[int]bool
	// branchBounds are, by condition site, the bounds checks of the
	// indexes of a statement of its then-branch where a failing test
	// panicked out of range (bounds.go branchBoundsOf).
	branchBounds map[int][]string
	// gocheck reports a failing test that runs a gocheck suite
	// (warnGocheck): each of its runs runs the whole suite.
	gocheck bool
	// stacks are, per failing test whose coverage run panicked, the
	// frames of its panic (panicStack).
	stacks map[testKey][]constituent.Location
	// runaway are the entry guard sites of the functions a failing
	// test recursed in without end (see runawayEntries), searched first.
	runaway map[int]bool
	// runawayTests are the failing tests the plain run's time limit
	// stopped deep in a recursion or busy in a loop
	// (collect.TestResult.Runaway): a run of theirs that times out
	// failed, whatever the machine's load.
	runawayTests map[testKey]bool
	// check is the flakiness check of the failing tests, running from
	// the end of the baseline until the first coverage runs are done
	// (settleFailing); baselineResults the plain run's results, reported
	// once it is settled.
	check           *failingCheck
	baselineResults []collect.TestResult
	// needed are the guard sites around a statement where a passing test
	// fails with the statement skipped (relaxedGuardSpec): deleting it
	// does not pass the suite, so a guard there that reads what it
	// assigns is no disguised deletion (antiPatternOf).
	needed map[int]bool
	// skipped are the runs of passing tests with a guard site's statement
	// skipped (relaxedGuardSpec), by site and test.
	skipped map[siteRun]collect.Result
	// traced and guesses are, per site and failing test, the outcome of
	// the traced run that forces nothing and the predicates guessed from
	// a snapshot run (by source): the same for every style of a site.
	traced  map[siteTest]angelic.Outcome
	guesses map[siteTest][]string
	// negatedRuns are, per Cond site and failing test, the outcome of
	// the run with the condition negated at every evaluation
	// (angelic.Force.EveryEval), made by negationFirst.
	negatedRuns map[siteTest]angelic.Outcome
	// guessed are, per site, the predicates of its guesses by source.
	guessed map[int]map[string]collect.Predicate
	// coverMax is, per package, the most evaluations of all sites that a
	// coverage run made (see evalLimit), set with cover.
	coverMax map[string]int64
	// snapWarned is set once the failure of the build with snapshots
	// was reported.
	snapWarned bool
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
	// withheldAt are the sites where a plausible patch was withheld as
	// speculative: a change there passes the suite, so their mutants
	// come first (mutate).
	withheldAt map[int]bool
	// deferring is set while validate checks a site's synthesized
	// candidates; deferred are the plausible ones whose verdict waits
	// for the others (settleDeferred).
	deferring bool
	deferred  []deferredPatch
	// work counts the work of the test runs made (see ran), surplus
	// that of the runs of parallel waves that a search one at a time
	// would not have made (angelic.Verdict.Surplus): searchWork leaves
	// them out. firstWork is the search's work of the first tier and
	// the mutants, laterWork the bound of the later tiers'
	// (Options.Effort); effortSpent is set once a later tier stopped
	// there.
	work, surplus        int
	firstWork, laterWork int
	effortSpent          bool
	// own is the effort of the tier being searched when it has its own
	// (the per-evaluation tier, the deeper sites'), else nil; spent
	// those that stopped there.
	own   *tierEffort
	spent []*tierEffort
	// tier names the tier being searched (Result.Tier).
	tier string
	// instrSensitive are the passing tests that fail instrumented (an
	// allocation count, a stack depth): a schema run, which wraps the
	// candidate in a function literal, may fail them too, so such a
	// failure is settled by a plain run of the patched file.
	instrSensitive map[testKey]bool
	// killed counts, per test, the candidates whose run it failed: the
	// passing tests among them are the likeliest to fail the next one
	// (killers).
	killed map[testKey]int
	// ranked are the candidates of the site being validated, in rank
	// order, for the explanation.
	ranked []candidate
	// spec is the specification they were checked against (nil for the
	// fallback's mutants).
	spec *synth.Spec
	// patchedFrom is the candidate the patch was made from, as the
	// search wrote it (Result.Condition is as it is printed:
	// printedCondition).
	patchedFrom string
}

// The phases of a repair, as Result.Phases names them.
const (
	phaseLoad       = "load"
	phaseBaseline   = "baseline"
	phaseInstrument = "instrument"
	phaseCoverage   = "coverage"
	phaseLocalize   = "localize"
	phaseScreen     = "screen"
	phaseAngelic    = "angelic"
	phaseSnapshot   = "snapshot"
	phaseSynthesis  = "synthesis"
	phaseValidation = "validation"
	phaseVerify     = "verify"
)

// phaseOrder lists the phases in pipeline order.
var phaseOrder = []string{phaseLoad, phaseBaseline, phaseInstrument, phaseCoverage, phaseLocalize,
	phaseScreen, phaseAngelic, phaseSnapshot, phaseSynthesis, phaseValidation, phaseVerify}

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
	if opts.Effort == 0 {
		opts.Effort = defaultEffort
	}
	if opts.Kinds == 0 {
		opts.Kinds = KindAll
	}
	// Options.Parallel left 0 adapts to suites that wait (runPool).
	adaptive := opts.Parallel <= 0
	if adaptive {
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
	r := &repairer{opts: opts, c: c, res: &Result{}, start: time.Now(), phases: map[string]time.Duration{},
		traced: map[siteTest]angelic.Outcome{}, negatedRuns: map[siteTest]angelic.Outcome{}, guesses: map[siteTest][]string{}, guessed: map[int]map[string]collect.Predicate{}, killed: map[testKey]int{}, needed: map[int]bool{}, constant: map[int]bool{}, around: map[int]bool{}, skipped: map[siteRun]collect.Result{},
		pool: &runPool{base: opts.Parallel, adaptive: adaptive}}
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
		r.res.Reason = fmt.Sprintf("the repair timed out after %s (raise -timeout)", opts.Timeout) + r.withheldNote()
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
	if r.opts.Logf == nil {
		return
	}
	r.opts.Logf(format, args...)
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
	err := r.baseline(ctx)
	defer func() { r.check.stop() }()
	if err != nil {
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
	firstAll := r.withStyles(ranked, false)
	r.localized = ranked
	searched := firstAll[:min(len(firstAll), r.opts.MaxSites)]
	deeper := firstAll[len(searched):min(len(firstAll), 2*r.opts.MaxSites)]
	// Only these sites and the exits' may need their states recorded:
	// the binaries that record them are built for those sites alone,
	// in the background.
	lateAll := r.withStyles(ranked, true)
	// The screen may move any of the late list's first screenSites
	// forward (screen.go).
	snap := 3 * r.opts.MaxSites
	if r.opts.Screen {
		snap = max(snap, screenSites)
	}
	r.bin.BuildSnapshots(r.withAround(siteIDs(searched, lateAll[:min(len(lateAll), snap)], deeper)))
	// First, a few runs: the nil check the runtime made joined to the
	// condition a failing test's nil dereference interrupted, and, when
	// a failing test runs a gocheck suite (a search of one site there
	// takes a minute), the nil guards too (nilcheck.go).
	r.tier = "nil-checks"
	nils, found, err := r.nilChecks(ctx, true, r.gocheck)
	if err != nil || found {
		return err
	}
	// Then the conditions that are wrong on their face (smells.go).
	r.tier = "smells"
	if found, err := r.smells(ctx, ranked); err != nil || found {
		return err
	}
	// Then the conditions their sibling functions write otherwise
	// (siblingconds.go).
	r.tier = "siblings"
	if found, err := r.siblings(ctx, ranked); err != nil || found {
		return err
	}
	// Then the guards written like a guard of their function with what
	// a deleted check left behind, functions nothing calls and fields
	// nothing reads (collect's orphans.go).
	r.tier = "orphans"
	if _, _, done, err := r.twins(ctx, ranked, true); err != nil || done {
		return err
	}
	// The first tier, then the mutants of the top conditions. When the
	// first tier has done firstPauseWork without a patch (slow searches:
	// sites evaluated in loops, runs that hang), the mutants come before
	// its remaining sites: they cost a build and a few runs, and a
	// minimal edit of the original is a likelier patch than the last
	// sites' synthesized conditions.
	r.tier = "first"
	from := r.searchWork()
	started, found, err := r.searchWhile(ctx, searched, 0, false, func() bool { return r.opts.NoMutants || r.searchWork()-from < firstPauseWork })
	if err != nil || found {
		return err
	}
	reason := fmt.Sprintf("no patch at the %d most suspicious sites", len(searched))
	if nils > 0 {
		reason = fmt.Sprintf("no patch among %s where a failing test dereferenced nil, nor at the %d most suspicious sites", plural(nils, "nil check"), len(searched))
	}
	if !r.opts.NoMutants {
		if started < len(searched) {
			r.logf("mutation: the first tier did %d units of test runs at %s; the mutants of the top conditions come before the others", r.searchWork()-from, ofSites(started, len(searched), "site"))
		}
		r.tier = "mutants"
		n, k, done, err := r.mutate(ctx, ranked, 0, maxMutationSites)
		if err != nil || done {
			return err
		}
		if n > 0 {
			reason += fmt.Sprintf(", nor among %s of the top %s", plural(n, "mutant"), plural(k, "condition"))
		}
	}
	if started < len(searched) {
		r.tier = "first"
		if _, done, err := r.searchWhile(ctx, searched, started, false, nil); err != nil || done {
			return err
		}
	}
	r.tier = "twins"
	if n, k, done, err := r.twins(ctx, ranked, false); err != nil || done {
		return err
	} else if n > 0 {
		reason += fmt.Sprintf(", nor %s at %s", plural(n, "twin guard"), plural(k, "guard site"))
	}
	r.firstWork = r.searchWork()
	r.laterWork = max(minLaterWork, int(r.opts.Effort*float64(r.firstWork)))
	// Then the mutants of the next conditions (moreMutationSites), whose
	// work does not raise the later tiers' bound: they count from after
	// it.
	if !r.opts.NoMutants {
		r.tier = "mutants"
		n, k, done, err := r.mutate(ctx, ranked, maxMutationSites, moreMutationSites)
		if err != nil || done {
			return err
		}
		if n > 0 {
			reason += fmt.Sprintf(", nor among %s of the next %s", plural(n, "mutant"), plural(k, "condition"))
		}
		r.firstWork = r.searchWork()
	}
	// Then the guards' other exits (continue, a return of the function,
	// an error, ...) at the same sites; with Options.Screen, those where
	// a failing test passes leaving early take turns with them (screen.go).
	if len(lateAll) > 0 && r.opts.Screen {
		r.enter(phaseScreen)
		var err error
		if lateAll, err = r.screen(ctx, lateAll); err != nil {
			return err
		}
	}
	if late := lateAll; len(late) > 0 {
		late = late[:min(len(late), r.opts.MaxSites)]
		r.logf("exits: %s where a guard can leave before the statement", plural(len(late), "site"))
		r.tier = "exits"
		searched, done, err := r.searchWhile(ctx, late, 0, true, r.effortLeft)
		if err != nil || done {
			return err
		}
		if searched > 0 {
			reason += fmt.Sprintf(", nor with other exits at %s", ofSites(searched, len(late), "guard site"))
		}
	}
	// Last tier: per-evaluation angelic values, at the conditions where a
	// failing test failed under every constant value. Last, because a
	// specification from one negated evaluation is thin: a mutant of the
	// original, or a condition from constant values, is preferred.
	// It has an effort of its own, half the later tiers' bound, counted
	// from its start: the guards' exits before it spend theirs on most
	// bugs, and a loop condition's per-evaluation values are the only
	// specification synthesis can get there.
	r.own = r.tierEffort("the per-evaluation tier", 0.5)
	if len(r.noConstant) > 0 && !r.opts.NoPerEval && r.ownLeft() {
		ids := r.noConstant
		r.perEval = true
		r.logf("per-evaluation: %s where a failing test fails under every constant value; negating one evaluation at a time, or where an observed predicate holds", plural(len(ids), "condition"))
		bySite := map[int]angelic.Suspicion{}
		for _, s := range searched {
			bySite[s.Site] = s
		}
		var sites []angelic.Suspicion
		for _, id := range ids {
			sites = append(sites, bySite[id])
		}
		// Fewest evaluations in the failing tests first: the search of a
		// condition evaluated in a loop makes runs that spin until their
		// limit, each costing hungWork more, so that one such condition
		// would spend the effort of several evaluated a few times.
		slices.SortStableFunc(sites, func(a, b angelic.Suspicion) int {
			return cmp.Compare(r.failingEvals(a.Site), r.failingEvals(b.Site))
		})
		sites, err := r.negationFirst(ctx, sites)
		if err != nil {
			return err
		}
		r.tier = "per-evaluation"
		n, done, err := r.searchWhile(ctx, sites, 0, false, r.ownLeft)
		if err != nil || done {
			return err
		}
		reason += fmt.Sprintf(", nor with per-evaluation values at %s", ofSites(n, len(ids), "condition"))
	}
	r.perEval, r.own = false, nil
	// Last, while the first half of the time limit lasts: the exits of
	// up to twice as many guard sites again. A missing guard's site is
	// often run by most passing tests (the first statement of a loop
	// over every field), so its suspiciousness is low; with fast tests
	// its search costs little.
	if more := lateAll[min(len(lateAll), r.opts.MaxSites):min(len(lateAll), 3*r.opts.MaxSites)]; len(more) > 0 && r.effortLeft() && r.halfTimeLeft() {
		r.logf("exits: %s more where a guard can leave, within half the time limit", plural(len(more), "site"))
		r.tier = "more-exits"
		searched, done, err := r.searchWhile(ctx, more, 0, true, func() bool { return r.effortLeft() && r.halfTimeLeft() })
		if err != nil || done {
			return err
		}
		reason += fmt.Sprintf(", nor at %s more", plural(searched, "guard site"))
	}
	// Then, whatever the effort (a few runs): the nil guards where a
	// failing test dereferenced nil. After every other tier: a guard at
	// the dereference tolerates the nil, where the search may find the
	// condition that lets it through, or a guard elsewhere.
	if !r.gocheck {
		r.tier = "nil-guards"
		if n, done, err := r.nilChecks(ctx, false, true); err != nil || done {
			return err
		} else if n > 0 {
			reason += fmt.Sprintf(", nor %s where a failing test dereferenced nil", plural(n, "nil guard"))
		}
	}
	// Last, whatever the effort (a few runs): NpeFix's replacements of
	// a nil that a failing test dereferenced. Last, because they
	// tolerate the nil where it is dereferenced rather than fix where
	// it comes from; a guard or a condition is preferred.
	r.tier = "npefix"
	if n, done, err := r.nilFixes(ctx); err != nil || done {
		return err
	} else if n > 0 {
		reason += fmt.Sprintf(", nor among %s of a nil operand", plural(n, "replacement"))
	}
	// Last, with an effort of its own (the later tiers' bound, counted
	// from its start: as many sites as the first tier, searched the same
	// way), and no bound in time but the time limit (nothing comes
	// after it): the conditions and wraps of the next MaxSites sites in
	// rank order. A fault in code that most passing tests run (the else
	// branch of a route's match) ranks low; a deeper site's patch is
	// validated and screened as any other.
	r.own = r.tierEffort("the deeper sites' tier", 1)
	if len(deeper) > 0 && r.ownLeft() {
		r.logf("deeper: %s ranked after the first %d", plural(len(deeper), "site"), len(searched))
		r.tier = "deeper"
		n, done, err := r.searchWhile(ctx, deeper, 0, false, r.ownLeft)
		if err != nil || done {
			return err
		}
		reason += fmt.Sprintf(", nor at %s", ofSites(n, len(deeper), "deeper site"))
	}
	r.own = nil
	if r.effortSpent || len(r.spent) > 0 {
		reason += fmt.Sprintf("; the later tiers stopped at the effort bound, %d units of test runs (%g × the first tier's %d; half that for the per-evaluation tier, as much again for the deeper sites; raise -effort, or -effort -1 for no bound)",
			r.laterWork, r.opts.Effort, r.firstWork)
	}
	r.res.Reason = reason + r.withheldNote()
	r.logf("%s", r.res.Reason)
	return nil
}

// withheldNote is what the reason for no patch says of the withheld
// patches, "" when there are none.
func (r *repairer) withheldNote() string {
	if len(r.res.Withheld) == 0 {
		return ""
	}
	w := r.res.Withheld[0]
	more := ""
	if n := len(r.res.Withheld) - 1; n > 0 {
		more = fmt.Sprintf(" (and %d more)", n)
	}
	return fmt.Sprintf("; withheld a plausible but speculative patch%s, `%s` at %s:%d: %s (rerun with -speculative to print it)", more, w.Condition, w.File, w.Line, w.Why)
}

// failingEvals counts the evaluations of site id in the failing tests'
// coverage runs (lower bounds within a factor of two).
func (r *repairer) failingEvals(id int) int {
	n := 0
	for _, k := range r.failing {
		c := r.cover[k].Reached[id]
		n += c[0] + c[1]
	}
	return n
}

// searchWhile searches sites in rank order (r.site, with late for the
// guards' late styles), from index from on, while keepOn (nil: always)
// allows another; it returns the index after the last it started, and
// done when one gave a patch.
func (r *repairer) searchWhile(ctx context.Context, sites []angelic.Suspicion, from int, late bool, keepOn func() bool) (started int, done bool, err error) {
	started = from
	for i, s := range sites[from:] {
		if keepOn != nil && !keepOn() {
			break
		}
		started++
		if r.around[s.Site] && !r.perEval {
			continue // searched already, out of turn (aroundNext)
		}
		if done, err := r.site(ctx, from+i, len(sites), s, late); err != nil || done {
			return started, done, err
		}
		if r.perEval {
			continue
		}
		for _, a := range r.aroundNext(s.Site) {
			if keepOn != nil && !keepOn() {
				break
			}
			if done, err := r.site(ctx, from+i, len(sites), a, false); err != nil || done {
				return started, done, err
			}
		}
	}
	return started, false, nil
}

// maxAround bounds the conditions around a site that aroundNext moves
// forward.
const maxAround = 2

// aroundNext returns, when the failing tests' angelic values at site id
// were the same in every recorded state (a statement to skip wherever
// they reach it, a condition to hold constant), the conditions of the ifs
// whose branches hold it (collect.Site.Inside), innermost first, up to
// maxAround, that the failing tests reached and no tier has searched: the
// fault is likelier there, in the condition that let them into the
// branch, than in any site ranked below (yaml.v3's seeded
// yaml_emitter_select_scalar_style: the failing tests pass with the
// assignment under the inner if skipped, in all 16 states; the faulty
// outer condition ranks below the top 60 sites). They are marked, and
// searched once.
func (r *repairer) aroundNext(id int) []angelic.Suspicion {
	if !r.constant[id] {
		return nil
	}
	site := r.prog.Sites[id]
	var out []angelic.Suspicion
	for _, cid := range r.condsAround(id) {
		i := slices.IndexFunc(r.localized, func(s angelic.Suspicion) bool { return s.Site == cid })
		if i < 0 || r.around[cid] || r.searchedSite(cid) {
			continue
		}
		r.around[cid] = true
		c := r.prog.Sites[cid]
		r.logf("around: the failing tests need %s:%d `%s` the same way in every state; the condition around it, %s:%d `%s`, comes next", r.relPath(site.File), site.Line, oneLine(site.Original), r.relPath(c.File), c.Line, oneLine(c.Original))
		out = append(out, r.localized[i])
	}
	return out
}

// condsAround are the Cond sites of the conditions of the ifs whose
// branches hold site id (collect.Site.Inside), innermost first, up to
// maxAround.
func (r *repairer) condsAround(id int) []int {
	site := r.prog.Sites[id]
	var out []int
	for _, pos := range site.Inside[:min(len(site.Inside), maxAround)] {
		// Sites are sorted by file and position: the condition is
		// before the site.
		for cid := id - 1; cid >= 0; cid-- {
			c := r.prog.Sites[cid]
			if c.File != site.File {
				break
			}
			if c.Kind == collect.Cond && c.Line == pos[0] && c.Col == pos[1] {
				out = append(out, cid)
				break
			}
		}
	}
	return out
}

// withAround adds to ids the conditions around each (condsAround): the
// sites aroundNext may search out of turn need their states recorded.
func (r *repairer) withAround(ids []int) []int {
	out := slices.Clone(ids)
	for _, id := range ids {
		for _, c := range r.condsAround(id) {
			if !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	return out
}

// searchedSite reports whether a tier has searched site id in one of its
// styles (Result.Sites).
func (r *repairer) searchedSite(id int) bool {
	return slices.ContainsFunc(r.res.Sites, func(rep SiteReport) bool { return rep.ID == id })
}

// The work of test runs, in units: a run of some tests costs one unit,
// one that hangs (stopped at its time or evaluation limit) hungWork more,
// a run of a package's whole suite (a candidate validated, a flakiness
// check) suiteWork. Counted, not timed, the work is the same on every
// machine and under any load.
const (
	hungWork  = 20
	suiteWork = 10
)

// testWork is the work of a run of some tests, hung or not.
func testWork(hung bool) int {
	if hung {
		return 1 + hungWork
	}
	return 1
}

// ran counts a test run of work units.
func (r *repairer) ran(units int) {
	r.res.Runs++
	r.work += units
}

// searchWork is the work of the test runs made so far as a search one
// at a time would have made them: the same on every machine, whatever
// the width of the waves (see surplus).
func (r *repairer) searchWork() int {
	return r.work - r.surplus
}

// effortLeft reports whether a later tier may start a site: the later
// tiers have done less work than Options.Effort times the first tier's
// (at least minLaterWork). A bound in counted work, not in time, gives
// the same answer on every machine and under any load. The first time it
// may not is logged.
func (r *repairer) effortLeft() bool {
	if r.opts.Effort < 0 || r.searchWork()-r.firstWork < r.laterWork {
		return true
	}
	if !r.effortSpent {
		r.effortSpent = true
		r.logf("effort: the later tiers did %d units of test runs, %g times the first tier's %d (at least %d): they stop here (raise -effort)",
			r.searchWork()-r.firstWork, r.opts.Effort, r.firstWork, minLaterWork)
	}
	return false
}

// laterLeft is the effort check of the later tier being searched: its
// own (tierEffort), or the later tiers' shared one.
func (r *repairer) laterLeft() bool {
	if r.own != nil {
		return r.ownLeft()
	}
	return r.effortLeft()
}

// tierEffort is the effort of a later tier that has its own: it may
// start a site while it has done less work than share of the later
// tiers' bound, counted from its start (from).
type tierEffort struct {
	name  string
	share float64
	from  int
}

// tierEffort starts the effort of the tier name, share of the later
// tiers' bound, from now.
func (r *repairer) tierEffort(name string, share float64) *tierEffort {
	return &tierEffort{name: name, share: share, from: r.searchWork()}
}

// ownLeft is effortLeft for the tier being searched that has its own
// effort (r.own). The first time it may not is logged.
func (r *repairer) ownLeft() bool {
	t := r.own
	if r.opts.Effort < 0 || float64(r.searchWork()-t.from) < t.share*float64(r.laterWork) {
		return true
	}
	if !slices.Contains(r.spent, t) {
		r.spent = append(r.spent, t)
		r.logf("effort: %s did %d units of test runs, %g × the later tiers' bound: it stops here (raise -effort)", t.name, r.searchWork()-t.from, t.share)
	}
	return false
}

// ofSites renders k of n sites ("3 of 20 guard sites"), or n sites when
// k is n.
func ofSites(k, n int, noun string) string {
	if k == n {
		return plural(n, noun)
	}
	return fmt.Sprintf("%d of %s", k, plural(n, noun))
}

// siteIDs are the sites of lists, without repeats.
func siteIDs(lists ...[]angelic.Suspicion) []int {
	var out []int
	seen := map[int]bool{}
	for _, l := range lists {
		for _, s := range l {
			if !seen[s.Site] {
				seen[s.Site] = true
				out = append(out, s.Site)
			}
		}
	}
	return out
}

// until reports whether t is still to come; when not, the bound is
// counted under kind (Result.TimeBounds).
func (r *repairer) until(t time.Time, kind string) bool {
	if time.Now().Before(t) {
		return true
	}
	r.timeBound(kind)
	return false
}

// halfTimeLeft reports whether less than half of the time limit is used;
// when not, the bound is counted (Result.TimeBounds, "tier").
func (r *repairer) halfTimeLeft() bool {
	return r.until(r.start.Add(r.opts.Timeout/2), "tier")
}

// timeBound counts a wall-clock bound of kind that decided something
// (Result.TimeBounds).
func (r *repairer) timeBound(kind string) {
	if r.res.TimeBounds == nil {
		r.res.TimeBounds = map[string]int{}
	}
	r.res.TimeBounds[kind]++
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
		if slices.ContainsFunc(r.stylesAt(r.prog.Sites[s.Site]), func(st style) bool { return st.late == late && r.strategyWanted(st) }) {
			out = append(out, s)
		}
	}
	return out
}

// timeout is the limit of one instrumented run of test k.
func (r *repairer) timeout(k testKey) time.Duration {
	return runTimeout(r.runTime(k))
}

// relPath is file relative to the module root, slash-separated.
func (r *repairer) relPath(file string) string {
	if rel, err := filepath.Rel(r.prog.Dir, file); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(file)
}
