package nopol

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nopol-go/nopol/collect"
	"github.com/nopol-go/nopol/internal/diff"
)

// validate checks the candidates in rank order and stops at the first
// that passes the suite. The first candidate is written into the source and
// checked as the patched file (collect.VerifyPatch): most often it is the
// patch, and this costs one build. The others are compiled together into a
// schema binary, run one by one, and the first that passes is checked as a
// patched file in turn. Where the suite is slow (slowSuite), all of them,
// the first too, run on the failing tests in the schema, and the first
// that passes them is checked as the patched file at once.
//
// A plausible new guard that is ambiguous (guard-ambiguous) while some
// other candidate of its site is not validated yet is deferred, with
// every plausible candidate after it: once the others are
// validated, the first of them that is not speculative is the patch
// (settleDeferred), so that the decision does not depend on the order in
// which the suite saw them.
func (r *repairer) validate(ctx context.Context, site collect.Site, st style, cands []candidate, rep *SiteReport) (bool, error) {
	r.enter(phaseValidation)
	r.deferring, r.deferred = true, nil
	defer func() { r.deferring, r.deferred = false, nil }()
	done, first, err := r.validateSlow(ctx, site, st, cands, rep)
	if err == nil && !done && first {
		done, _, err = r.tryPatch(ctx, site, st, cands[0], fmt.Sprintf("candidate 1/%d", len(cands)), rep)
		if err == nil && !done && len(cands) > 1 {
			done, err = r.validateSchema(ctx, site, st, cands, 1, "candidate", rep)
		}
	}
	if err != nil {
		// Stopped (the time limit): the deferred candidates are
		// reported as withheld, with what is known.
		r.withholdStopped(r.deferred, "stopped before the other candidates were validated")
		return false, err
	}
	if done {
		return true, nil
	}
	if done, err = r.settleDeferred(ctx); !done {
		noneOutcome(rep, plural(len(cands), "candidate"))
	}
	return done, err
}

// slowSuiteFrom is the baseline time of the passing tests from which the
// suite is slow (slowSuite). Below it a build costs about as much as a
// run of the suite, and the first candidate, most often the patch, is
// best checked at once as the patched file (one build, one run); from it
// on, each run of the suite spared is worth more than a build.
var slowSuiteFrom = 10 * time.Second

// slowSuite reports whether the passing tests took slowSuiteFrom or more
// in the baseline (the failing tests do not count: one that ran until the
// time limit says nothing of the suite a patch runs). There every candidate, the first too, runs on the failing tests
// in the schema first (failingFirst), and one that passes them is checked
// as the patched file at once: one run of the suite per candidate that
// passes its failing tests, where the schema's run and the patched file's
// were two for the one that passes the suite, and a run of the suite was
// the price of a first candidate that fails its failing tests (a suite of
// 21 s whose third candidate is the patch: 104 s before, see
// benchmarks/RESULTS.md). The price: a candidate that makes a test other
// than those loop without end runs until the suite's time limit, not the
// schema's evaluation limit.
func (r *repairer) slowSuite() bool {
	return r.passingTime() >= slowSuiteFrom
}

// passingTime is the baseline time of the passing tests.
func (r *repairer) passingTime() time.Duration {
	var total time.Duration
	for _, k := range r.passing {
		total += r.elapsed[k]
	}
	return total
}

// validateSlow validates cands where the suite is slow (slowSuite), all
// of them through one schema; first is true when it did not (a fast
// suite, or a schema that could not be built): validate then checks the
// first candidate as the patched file, and the others in a schema.
func (r *repairer) validateSlow(ctx context.Context, site collect.Site, st style, cands []candidate, rep *SiteReport) (done, first bool, err error) {
	if !r.slowSuite() {
		return false, true, nil
	}
	r.vlogf("validation: the passing tests take %s: each candidate runs on the failing tests first, the first too, and one that passes them is checked as the patched file at once", r.passingTime().Round(time.Millisecond))
	schema, err := r.c.BuildSchemas(ctx, r.prog, []collect.SchemaPart{{Site: site, Style: st.guard, Candidates: sources(cands)}}, suiteTimeout(r.suiteTime()), r.candidateEvalLimit)
	if err != nil {
		if ctx.Err() != nil {
			return false, false, ctx.Err()
		}
		r.vlogf("validation: building the candidates: %v; the first is checked as the patched file", err)
		return false, true, nil
	}
	defer schema.Close()
	done, err = r.runSchema(ctx, schema, 0, site, st, cands, 0, "candidate", rep)
	return done, false, err
}

// deferredPatch is a plausible candidate whose verdict waits for the
// validation of the other candidates of its site (validate).
// The first is checked as a patched file (src, with the original old and
// the suite's result sr); those after it passed the schema's suite only,
// and are checked as patched files if they become the patch (name is
// their name in the progress).
type deferredPatch struct {
	site     collect.Site
	st       style
	c        candidate
	rep      *SiteReport
	old, src []byte
	sr       collect.SuiteResult
	name     string
}

// settleDeferred decides the deferred plausible candidates in rank order,
// now that the others are validated: the first that is not speculative
// (and passes as a patched file) is the patch; the others are withheld.
func (r *repairer) settleDeferred(ctx context.Context) (bool, error) {
	deferred := r.deferred
	r.deferring, r.deferred = false, nil
	for i, d := range deferred {
		why := r.speculativeAt(d.site, d.st, d.c, d.rep)
		if why != "" && !r.opts.Speculative {
			r.withholdDeferred(d, why)
			continue
		}
		if d.src == nil {
			// Its record of the schema's run gives way to the patched
			// file's.
			r.res.Candidates = slices.DeleteFunc(r.res.Candidates, func(v CandidateReport) bool { return v.Site == d.site.ID && v.Condition == d.c.src })
			r.enter(phaseVerify)
			done, _, err := r.tryPatch(ctx, d.site, d.st, d.c, d.name+" as a patched file", d.rep)
			if err != nil || done {
				if err != nil {
					r.withholdStopped(deferred[i+1:], "stopped before it was decided")
				}
				return done, err
			}
			continue
		}
		r.logf("`%s` at %s:%d, the other candidates validated: %s", d.c.src, d.rep.File, d.site.Line, cmp.Or(why, "the first plausible one that is not speculative"))
		r.accept(d.site, d.st, d.c, d.rep, d.old, d.src, d.sr, why)
		return true, nil
	}
	return false, nil
}

// withholdStopped withholds the deferred candidates ds when validation
// stopped before deciding them: for the rule they break, if they break
// one now, for guard-ambiguous and what stopped it otherwise.
func (r *repairer) withholdStopped(ds []deferredPatch, stopped string) {
	for _, d := range ds {
		r.withholdDeferred(d, cmp.Or(r.speculativeAt(d.site, d.st, d.c, d.rep), specAmbiguousGuard+": "+stopped))
	}
}

// withholdDeferred withholds the deferred candidate d for why, writing
// its patched file when the schema alone checked it.
func (r *repairer) withholdDeferred(d deferredPatch, why string) {
	old, src := d.old, d.src
	if src == nil {
		var err error
		if old, err = os.ReadFile(d.site.File); err == nil {
			src, err = patchSource(old, d.site, d.st.guard, d.c.src)
		}
		if err != nil {
			r.logf("withheld `%s` at %s:%d: writing the patch: %v", d.c.src, d.rep.File, d.site.Line, err)
			return
		}
	}
	r.withhold(d.site, d.st, d.c, d.rep, old, src, why)
}

// speculativeAt is speculative for c at site, with the candidates the
// suite rejected so far.
func (r *repairer) speculativeAt(site collect.Site, st style, c candidate, rep *SiteReport) string {
	return speculative(site, st, c, r.ranked, r.spec, rep.Distinct, rep.negatedInFragments(), func(src string) bool {
		return slices.ContainsFunc(r.res.Candidates, func(v CandidateReport) bool { return v.Site == site.ID && v.Condition == src && !v.Passed })
	})
}

// unvalidated reports whether a candidate of site other than c is not
// validated yet.
func (r *repairer) unvalidated(site collect.Site, c candidate) bool {
	return slices.ContainsFunc(r.ranked, func(o candidate) bool {
		return o.src != c.src && !slices.ContainsFunc(r.res.Candidates, func(v CandidateReport) bool { return v.Site == site.ID && v.Condition == o.src })
	})
}

// validateSchema compiles cands[from:] together into a schema binary, runs
// the suite with each in order, and checks the first that passes as a
// patched file; what names the sources in the progress ("candidate",
// "mutant").
func (r *repairer) validateSchema(ctx context.Context, site collect.Site, st style, cands []candidate, from int, what string, rep *SiteReport) (bool, error) {
	r.enter(phaseValidation)
	schema, err := r.c.BuildSchemas(ctx, r.prog, []collect.SchemaPart{{Site: site, Style: st.guard, Candidates: sources(cands[from:])}}, suiteTimeout(r.suiteTime()), r.candidateEvalLimit)
	if err != nil {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		rep.Outcome = "building the candidates: " + err.Error()
		return false, nil
	}
	defer schema.Close()
	return r.runSchema(ctx, schema, 0, site, st, cands, from, what, rep)
}

// sharedSchema builds one schema for parts (one build for several
// sites); nil, logged with what each gets instead, when it cannot be built
// (sites whose sources overlap): each part is then validated with a schema
// of its own (validateShared). The error is the context's only.
func (r *repairer) sharedSchema(ctx context.Context, parts []collect.SchemaPart, what, each string) (suiteRunner, error) {
	r.enter(phaseValidation)
	all, err := r.c.BuildSchemas(ctx, r.prog, parts, suiteTimeout(r.suiteTime()), r.candidateEvalLimit)
	if err != nil && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		r.vlogf("%s: one schema for all: %v; one per %s", what, err, each)
		return nil, nil
	}
	return all, nil
}

// validateShared validates cands at site, candidates off onwards of the
// shared schema, or with a schema of their own when shared is nil.
func (r *repairer) validateShared(ctx context.Context, shared suiteRunner, off int, site collect.Site, st style, cands []candidate, what string, rep *SiteReport) (bool, error) {
	if shared != nil {
		return r.runSchema(ctx, shared, off, site, st, cands, 0, what, rep)
	}
	return r.validateSchema(ctx, site, st, cands, 0, what, rep)
}

// sources are the candidates' Go sources.
func sources(cands []candidate) []string {
	srcs := make([]string, len(cands))
	for i, c := range cands {
		srcs[i] = c.src
	}
	return srcs
}

// runSchema runs the suite with each of cands[from:] in order, candidates
// off to off+len(cands)-from-1 of schema, and checks the first that
// passes as a patched file.
func (r *repairer) runSchema(ctx context.Context, schema suiteRunner, off int, site collect.Site, st style, cands []candidate, from int, what string, rep *SiteReport) (bool, error) {
	rest := cands[from:]
	for k, c := range rest {
		r.enter(phaseValidation)
		name := fmt.Sprintf("%s %d/%d", what, k+from+1, len(cands))
		if sr, quick, killers, err := r.failingFirst(ctx, schema, site, off+k); err != nil {
			return false, fmt.Errorf("validating %s at site %d: %w", c.src, site.ID, err)
		} else if quick {
			r.record(site, st, c, sr, false)
			r.res.Candidates[len(r.res.Candidates)-1].FailingOnly = true
			r.logf("%s `%s`: %s (%s, before the suite)", name, c.src, suiteSummary(sr, false), quickTests(killers))
			continue
		}
		if r.slowSuite() {
			// It passed its failing tests: the patched file's run of
			// the suite decides, without the schema's.
			r.enter(phaseVerify)
			done, _, err := r.tryPatch(ctx, site, st, c, name+" as a patched file", rep)
			if err != nil || done {
				return done, err
			}
			continue
		}
		sr, err := schema.RunSuite(ctx, off+k)
		r.ran(suiteWork)
		if err != nil {
			return false, fmt.Errorf("validating %s at site %d: %w", c.src, site.ID, err)
		}
		ok, err := r.judge(ctx, site.Package, sr)
		if err != nil {
			return false, err
		}
		r.record(site, st, c, sr, ok)
		r.logf("%s `%s`: %s", name, c.src, suiteSummary(sr, ok))
		if !ok && !r.onlyInstrSensitive(site.Package, sr) {
			continue
		}
		if r.deferring && len(r.deferred) > 0 {
			// Checked as a patched file only if it becomes the patch.
			r.deferred = append(r.deferred, deferredPatch{site: site, st: st, c: c, rep: rep, name: name})
			continue
		}
		r.enter(phaseVerify)
		r.res.Candidates = r.res.Candidates[:len(r.res.Candidates)-1]
		done, _, err := r.tryPatch(ctx, site, st, c, name+" as a patched file", rep)
		if err != nil || done {
			return done, err
		}
	}
	noneOutcome(rep, plural(len(cands), what))
	return false, nil
}

// noneOutcome sets the outcome of a site where none of the candidates
// (what) gave a patch: none passed the suite, or the ones that did were
// withheld (speculative.go).
func noneOutcome(rep *SiteReport, what string) {
	if n := rep.withheld; n > 0 {
		rep.Outcome = fmt.Sprintf("%d of %s passed the suite, withheld as speculative; the others fail", n, what)
		return
	}
	rep.Outcome = fmt.Sprintf("none of %s passes the suite", what)
}

// failingFirst runs candidate k of schema on the failing tests of the
// site's package and its killers (up to maxKillers passing tests that
// failed earlier candidates, the most often first), in one process within
// one time limit: when one of them fails or hangs (and not only because it
// is sensitive to instrumentation), the candidate is rejected (quick)
// without running the whole suite. Candidates of a site often fail the
// same tests (mutation testing runs its killers first for this); the
// benchmark shows it pays where many candidates fail one cheap test, and
// costs a little elsewhere (benchmarks/RESULTS.md, final20). Not in
// a package where a passing test fails alone: there a test that passes in
// the suite may fail alone, and the failing tests alone say nothing
// either. killers is how many killers ran.
func (r *repairer) failingFirst(ctx context.Context, schema suiteRunner, site collect.Site, k int) (sr collect.SuiteResult, quick bool, killers int, err error) {
	for k := range r.instrSensitive {
		if k.pkg == site.Package {
			return sr, false, 0, nil
		}
	}
	var names []string
	var total time.Duration
	add := func(t testKey) {
		if !slices.Contains(names, t.name) {
			names = append(names, t.name)
			total += r.elapsed[t]
		}
	}
	for _, t := range r.failing {
		if t.pkg == site.Package {
			add(t)
		}
	}
	if len(names) == 0 {
		return sr, false, 0, nil
	}
	for _, t := range r.killers(site.Package) {
		add(t)
		killers++
	}
	// A test that runs after the tests before it in the suite runs after
	// those of them that pass or are repaired here too (one process runs
	// the names in the suite's order).
	for _, name := range slices.Clone(names) {
		for _, t := range r.prog.RunsAfter(collect.TestID{Package: site.Package, Test: name}) {
			if k := (testKey{site.Package, t}); slices.Contains(r.passing, k) || r.isFailing(k) {
				add(k)
			}
		}
	}
	// One process runs them all: one run's limit for their total time,
	// and half a second more per further test (not the sum of their
	// limits, whose fixed part of 1.5s a candidate that makes the first
	// one hang paid once per test).
	limit := runTimeout(total) + time.Duration(len(names)-1)*500*time.Millisecond
	// The forced runs' memory cap: a candidate that makes a failing test
	// allocate without end is rejected there, not when the machine's
	// memory runs out (ini's seeded parseDelim, whose failing test does
	// so on the user's code: its validation phase took 13 s instead of
	// 32 s under the bench's 8 GiB address-space limit). The whole
	// suite's runs have none: its tests run in one process, which no
	// single test's run measured.
	mem := r.memLimit(site.Package)
	sr, err = schema.RunTests(ctx, k, names, limit, mem)
	r.ran(testWork(sr.TimedOut))
	if err == nil && retryBusy(limit, sr) && !slices.ContainsFunc(names, func(name string) bool { return r.runawayTests[testKey{site.Package, name}] }) && machineBusy() {
		// A busy machine can make a short limit run out: there, a
		// candidate is rejected as hanging only when it hangs twice,
		// the second time with four times as long. Not with a runaway
		// failing test among them: there the time limit's running out
		// is the bug's symptom (ini's seeded parseDelim: a loop that
		// does not end made each mutant cost 12.5s instead of 2.5s).
		r.vlogf("candidate %d timed out on the failing tests after %s; running them again with %s", k, limit.Round(time.Millisecond), (4 * limit).Round(time.Millisecond))
		sr, err = schema.RunTests(ctx, k, names, 4*limit, mem)
		r.ran(testWork(sr.TimedOut))
	}
	if err != nil || sr.Passed || (!sr.TimedOut && r.onlyInstrSensitive(site.Package, sr)) {
		return sr, false, killers, err
	}
	return sr, true, killers, nil
}

// busyRetryBelow is the longest limit whose running out on a busy
// machine failingFirst puts down to the load: a limit is twenty times
// the tests' baseline time plus 1.5s (runTimeout), and the load of a
// machine with a process more per CPU slows a run by a few times, not
// twenty, but it can double the cost of starting a process, the floor
// of a short limit. Past it, a run that timed out hung: running it
// again with four times as long cost toml v0.4.1's lexer bugs 80s of
// their two minutes per mutant that loops (a failing table test that
// runs after the 35 tests before it, a limit of 20s).
const busyRetryBelow = 10 * time.Second

// retryBusy reports whether a run of the failing tests with limit that
// gave sr runs again on a busy machine: it timed out under a limit short
// enough for the load to explain it, and did not reach the evaluation
// limit (a run that did spun, busy or not).
func retryBusy(limit time.Duration, sr collect.SuiteResult) bool {
	return sr.TimedOut && !sr.Hung && limit < busyRetryBelow
}

// machineBusy is busy, but in tests.
var machineBusy = busy

// busy reports whether the machine runs more than one process per CPU
// (the load average of the last minute, on Linux; false elsewhere): a
// time limit that ran out there may be the load's doing.
func busy() bool {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return false
	}
	first, _, _ := strings.Cut(string(data), " ")
	load, err := strconv.ParseFloat(first, 64)
	return err == nil && load > float64(runtime.NumCPU())
}

// maxKillers bounds the passing tests failingFirst runs beside the
// failing ones.
const maxKillers = 5

// killers are the passing tests of package pkg that failed the most
// earlier candidates (repairer.killed), at most maxKillers, the most
// often first, then in baseline order; together they take at most a
// killerShare of the package's baseline time: a test that takes most of
// the suite's time (a table of hundreds of files) costs nearly a suite
// run to every candidate it does not fail.
func (r *repairer) killers(pkg string) []testKey {
	var cands []testKey
	var suite time.Duration
	for _, t := range r.passing {
		if t.pkg != pkg {
			continue
		}
		suite += r.elapsed[t]
		if r.killed[t] > 0 && !r.instrSensitive[t] {
			cands = append(cands, t)
		}
	}
	for _, t := range r.failing {
		if t.pkg == pkg {
			suite += r.elapsed[t]
		}
	}
	slices.SortStableFunc(cands, func(a, b testKey) int { return r.killed[b] - r.killed[a] })
	var out []testKey
	var spent time.Duration
	for _, t := range cands {
		if len(out) == maxKillers {
			break
		}
		if spent+r.elapsed[t] <= suite/killerShare {
			out = append(out, t)
			spent += r.elapsed[t]
		}
	}
	return out
}

// killerShare is the share of the package's baseline time the killers
// may take together (one in killerShare).
const killerShare = 4

// quickTests says which tests a quick rejection ran.
func quickTests(killers int) string {
	if killers == 0 {
		return "the failing tests"
	}
	return fmt.Sprintf("the failing tests and %s that failed earlier candidates", plural(killers, "test"))
}

// record adds a validated candidate to the result, and counts the tests
// of the site's package it failed (killers reads the passing tests' counts
// only).
func (r *repairer) record(site collect.Site, st style, c candidate, sr collect.SuiteResult, ok bool) {
	if !ok {
		for _, name := range sr.Failed {
			r.killed[testKey{site.Package, name}]++
		}
	}
	r.res.Candidates = append(r.res.Candidates, CandidateReport{Site: site.ID, Style: st.name, Method: c.method, Condition: c.src,
		Passed: ok, Failed: append(slices.Clip(sr.Failed), sr.FailedElsewhere...), TimedOut: sr.TimedOut, Duration: sr.Duration})
}

func suiteSummary(sr collect.SuiteResult, ok bool) string {
	switch {
	case ok:
		return "the suite passes"
	case sr.BuildFailed:
		msg, _, _ := strings.Cut(strings.TrimSpace(sr.Output), "\n")
		return "does not compile: " + msg
	case sr.OverMemory:
		return "the failing tests allocated past the memory cap"
	case sr.Hung:
		return "a loop spun: the evaluation limit was reached"
	case sr.TimedOut:
		return "the suite timed out"
	case len(sr.Failed)+len(sr.FailedElsewhere) == 0:
		return "the suite fails"
	}
	return "fails " + strings.Join(append(slices.Clip(sr.Failed), sr.FailedElsewhere...), ", ")
}

// tryPatch writes cond into the source, runs the suite with the patched
// file through an overlay, and when it passes fills in the result; sr is
// the suite's result (BuildFailed also when the patch cannot be written).
func (r *repairer) tryPatch(ctx context.Context, site collect.Site, st style, c candidate, name string, rep *SiteReport) (ok bool, sr collect.SuiteResult, err error) {
	cond := printedCondition(site, c)
	old, err := os.ReadFile(site.File)
	if err != nil {
		return false, sr, fmt.Errorf("reading %s: %w", site.File, err)
	}
	src, err := patchSource(old, site, st.guard, cond)
	if err != nil {
		sr = collect.SuiteResult{BuildFailed: true, Output: err.Error()}
		r.record(site, st, c, sr, false)
		r.logf("%s `%s`: writing the patch: %v", name, cond, err)
		return false, sr, nil
	}
	sr, err = r.c.VerifyPatch(ctx, r.prog, site.File, src, suiteTimeout(r.suiteTime())+time.Minute)
	r.ran(suiteWork)
	if err != nil {
		return false, sr, fmt.Errorf("checking the patch of %s: %w", rep.File, err)
	}
	ok, err = r.judge(ctx, site.Package, sr)
	if err != nil {
		return false, sr, err
	}
	broken := ""
	if ok && !sr.Passed {
		if broken, err = r.brokenFlaky(ctx, site, src, sr); err != nil {
			return false, sr, err
		}
		ok = broken == ""
	}
	r.record(site, st, c, sr, ok)
	if broken != "" {
		r.logf("%s `%s`: %s", name, cond, broken)
		return false, sr, nil
	}
	r.logf("%s `%s`: %s", name, cond, suiteSummary(sr, ok))
	if !ok {
		return false, sr, nil
	}
	why := r.speculativeAt(site, st, c, rep)
	if r.deferring && (len(r.deferred) > 0 || strings.HasPrefix(why, specAmbiguousGuard+":") && r.unvalidated(site, c)) {
		if len(r.deferred) == 0 {
			r.logf("%s `%s`: %s; deciding once the other candidates are validated", name, cond, why)
		}
		r.deferred = append(r.deferred, deferredPatch{site: site, st: st, c: c, rep: rep, old: old, src: src, sr: sr, name: name})
		return false, sr, nil
	}
	if why != "" && !r.opts.Speculative {
		r.withhold(site, st, c, rep, old, src, why)
		return false, sr, nil
	}
	r.accept(site, st, c, rep, old, src, sr, why)
	return true, sr, nil
}

// accept makes the plausible candidate c at site the patch: src is the
// patched file, old the original, sr the suite's result; why, when not
// empty, is why it is speculative (printed with Options.Speculative).
func (r *repairer) accept(site collect.Site, st style, c candidate, rep *SiteReport, old, src []byte, sr collect.SuiteResult, why string) {
	cond := printedCondition(site, c)
	r.patchedFrom = c.src
	rep.Outcome = "patched"
	r.res.StillFailing = nil
	for _, k := range r.failedKeys(site.Package, sr) {
		if r.fl.suiteOnly[k] && !slices.Contains(r.res.StillFailing, k.name) {
			r.res.StillFailing = append(r.res.StillFailing, k.name)
		}
	}
	if c.method == "mutation" || c.method == "bounds" {
		rep.Method = c.method
	}
	r.res.Patched = true
	r.res.Tier = r.tier
	r.res.Site = rep
	r.res.Style = st.name
	st.exit = patchedExit(site, st, cond) // the explanation names it too
	r.res.Strategy, r.res.Exit = st.strategy, st.exit
	r.res.Condition = cond
	r.res.File = rep.File
	r.res.Source = src
	r.res.Diff = diff.Unified(rep.File, old, src)
	if e, ok := lineEdit(rep.File, old, src); ok {
		r.res.Edit = &e
	}
	r.res.Explanation = r.explain(site, st, c, rep, r.ranked, r.spec)
	if why != "" {
		// Printed with Options.Speculative: the explanation says so.
		e := r.res.Explanation
		e.Confidence = ConfidenceLow
		e.Reasons = append([]string{"speculative, printed because -speculative was given: " + why}, e.Reasons...)
	}
	r.logf("patched %s:%d in %s", rep.File, site.Line, time.Since(r.start).Round(time.Millisecond))
}

// withhold records the plausible patch src of site as withheld, for why
// (speculative.go), and lets the search go on.
func (r *repairer) withhold(site collect.Site, st style, c candidate, rep *SiteReport, old, src []byte, why string) {
	rep.withheld++
	if r.withheldAt == nil {
		r.withheldAt = map[int]bool{}
	}
	r.withheldAt[site.ID] = true
	r.res.Withheld = append(r.res.Withheld, WithheldPatch{File: rep.File, Line: site.Line, Original: site.Original,
		Style: st.name, Strategy: st.strategy, Exit: patchedExit(site, st, c.src), Condition: printedCondition(site, c), Diff: diff.Unified(rep.File, old, src), Why: why})
	r.logf("withheld `%s` at %s:%d, plausible but speculative: %s (-speculative prints it); searching on", c.src, rep.File, site.Line, why)
}

// patchedExit is the exit of a guard of style st with condition cond as
// patched: a reused return made analogous.
func patchedExit(site collect.Site, st style, cond string) string {
	if body := exitBody(site, st.guard, cond); body != "" && st.name == "return" {
		return body
	}
	return st.exit
}

// onlyInstrSensitive reports whether every failure of a schema run is of
// a test that fails instrumented too (repairer.instrSensitive): the
// patched file decides.
func (r *repairer) onlyInstrSensitive(pkg string, sr collect.SuiteResult) bool {
	if sr.TimedOut || sr.BuildFailed {
		return false
	}
	failed := r.failedKeys(pkg, sr)
	for _, k := range failed {
		if !r.instrSensitive[k] {
			return false
		}
	}
	return len(failed) > 0
}
