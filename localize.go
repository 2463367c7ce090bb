package nopol

import (
	"cmp"
	"context"
	"fmt"
	"go/parser"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/nopol-go/nopol/angelic"
	"github.com/nopol-go/nopol/collect"
	"github.com/nopol-go/nopol/internal/constituent"
	"github.com/nopol-go/nopol/internal/gotest"
)

// Coverage and localisation: the tests run instrumented, the sites each
// reaches, ranked by suspiciousness (Ochiai), panicking frames first.

// coverage re-runs the failing tests in the instrumented binary (a test
// that passes there is flaky) and runs the passing ones, recording which
// sites each reaches.
func (r *repairer) coverage(ctx context.Context) error {
	r.enter(phaseCoverage)
	r.cover = map[testKey]collect.Result{}
	r.failed = map[testKey][]angelic.Constituent{}
	r.serial = map[testKey]bool{}
	r.instrSensitive = map[testKey]bool{}
	r.before = map[testKey]map[int]bool{}
	r.interrupted = map[testKey]map[int]bool{}
	r.outOfRange = map[int]bool{}
	r.branchBounds = map[int][]string{}
	r.stacks = map[testKey][]constituent.Location{}
	r.runaway = map[int]bool{}
	if err := r.renarrowMapTables(ctx); err != nil {
		return err
	}
	tests := append(slices.Clone(r.failing), r.passing...)
	runs := make([]collect.Run, len(tests))
	for i, k := range tests {
		runs[i] = r.testRun(k, collect.ModeCover)
		runs[i].PrintConstituents = !r.opts.NoPurify && i < len(r.failing)
		runs[i].PrintReach, runs[i].StackOnTimeout = i < len(r.failing), i < len(r.failing)
	}
	r.logf("coverage: running %s", plural(len(runs), "test"))
	r.logNarrowed()
	results, err := r.runAll(ctx, runs)
	r.res.Runs += len(runs)
	if err != nil {
		return fmt.Errorf("running the instrumented tests: %w", err)
	}
	if n := r.pool.limit(); n > r.opts.Parallel {
		share, _ := r.pool.share()
		r.logf("coverage: the tests mostly wait (they kept %.0f%% of a processor busy): %d runs at once from now on", 100*share, n)
	}
	// The flakiness check of the failing tests ran beside these runs:
	// the runs of the tests it found flaky are dropped.
	tentative := len(r.failing)
	if err := r.settleFailing(ctx); err != nil {
		return err
	}
	if len(r.failing) < tentative {
		var keep []int
		for i, k := range tests {
			if i >= tentative || r.isFailing(k) {
				keep = append(keep, i)
			}
		}
		tests, runs, results = pick(tests, keep), pick(runs, keep), pick(results, keep)
	}
	if err := r.widenPassing(ctx, tests, runs, results); err != nil {
		return err
	}
	if err := r.coverRest(ctx); err != nil {
		return err
	}
	if err := r.coverCases(ctx); err != nil {
		return err
	}
	if err := r.coverRestCases(ctx); err != nil {
		return err
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
		r.ran(testWork(res.TimedOut))
		if err != nil {
			return fmt.Errorf("running the instrumented tests: %w", err)
		}
		if res.Passed != (i < len(r.failing)) {
			results[i] = res
			r.serial[tests[i]] = true
			r.logf("coverage: %s gives its plain result when run alone; it runs alone from now on", tests[i].name)
		}
	}
	if err := r.runAfterOthers(ctx, tests, runs, results); err != nil {
		return err
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
			r.logf("warning: %s passed in the plain run but failed instrumented, alone too (it may need the tests that run before it, or count allocations or time that instrumenting changes); left out of the search", k.name)
			r.instrSensitive[k] = true
			continue
		}
		if isFailing {
			failing = append(failing, k)
		}
		r.vlogf("coverage %s: passed=%v, %d sites reached, in %.1fs (plain %.1fs)", k.name, res.Passed, reachedCount(res), res.Duration.Seconds(), r.elapsed[k].Seconds())
		r.cover[k] = res
		if isFailing {
			if before := r.runBeforeFailure(k, res.Output); before != nil {
				r.before[k] = before
				r.vlogf("coverage %s: %d sites run before the first failure", k.name, len(before))
			}
		}
		if stack := r.panicStack(k, res); isFailing && stack != nil {
			r.stacks[k] = stack
			if ids := r.interruptedConds(stack); len(ids) > 0 {
				r.interrupted[k] = ids
				if outOfRange(res.Output) {
					for id := range ids {
						r.outOfRange[id] = true
					}
				}
				r.vlogf("coverage %s: its panic interrupted the condition of %s", k.name, plural(len(ids), "site"))
			} else if outOfRange(res.Output) {
				if id, checks := r.branchBoundsOf(stack); len(checks) > 0 {
					r.branchBounds[id] = checks
					r.vlogf("coverage %s: it panicked out of range in the branch of `%s`", k.name, oneLine(r.prog.Sites[id].Original))
				}
			}
		}
		if isFailing {
			if entries := r.runawayEntries(k, res); len(entries) > 0 {
				var funcs []string
				for _, id := range entries {
					r.runaway[id] = true
					if f := r.prog.Sites[id].Func; !slices.Contains(funcs, f) {
						funcs = append(funcs, f)
					}
				}
				its := map[bool]string{true: "its", false: "their"}[len(funcs) == 1]
				r.logf("coverage: %s recursed without end in %s; the guards at %s entry and the conditions around %s calls are searched first", k.name, strings.Join(funcs, ", "), its, its)
			}
		}
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
	r.coverMax = heaviest(r.cover)
	return nil
}

// pick returns the elements of s at the indexes idx, in their order.
func pick[T any](s []T, idx []int) []T {
	out := make([]T, len(idx))
	for j, i := range idx {
		out[j] = s[i]
	}
	return out
}

// heaviest is, per package, the most evaluations of all sites one of the
// coverage runs made (coverEvaluations: runs that timed out do not count).
func heaviest(cover map[testKey]collect.Result) map[string]int64 {
	out := map[string]int64{}
	for t, res := range cover {
		out[t.pkg] = max(out[t.pkg], coverEvaluations(res))
	}
	return out
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

// localize ranks the sites of the selected kinds by suspiciousness; the
// search takes the top Options.MaxSites of them.
func (r *repairer) localize() []angelic.Suspicion {
	var spectra []angelic.Spectrum
	for _, k := range append(slices.Clone(r.failing), r.passing...) {
		res, ok := r.cover[k]
		if !ok {
			continue
		}
		if cases := r.caseCover[k]; !res.Passed && len(cases) > 0 {
			for i, c := range cases {
				spectra = append(spectra, r.spectrum(k.name+" ("+r.checks[k][i]+")", c))
			}
			continue
		}
		sp := r.spectrum(k.name, res)
		if !res.Passed {
			split := splitIterations(sp, res, r.failed[k])
			for id := range r.interrupted[k] {
				if r.wanted(r.prog.Sites[id]) {
					split[0].Reached = append(split[0].Reached, id)
				}
			}
			spectra = append(spectra, split...)
			continue
		}
		spectra = append(spectra, sp)
	}
	spectra = append(spectra, r.restSpectra()...)
	stacks := r.panicStacks()
	printed := r.printedSites()
	if len(printed) > 0 {
		r.logf("localize: %s first: the condition of a branch whose message a failing test printed, and the functions it calls", plural(len(printed), "site"))
	}
	// Among equal scores: by the failing tests' panic stacks, then
	// conditions, then statements, then the conditions scored by an
	// outcome. Such a condition ties with the statements its outcome
	// leads to, and these come first: a flag only the failing test sets
	// makes every condition on it score 1 when true, and a missing guard
	// after `if skip(x) { continue }` ties with skip(x) when false
	// (go-toml's encodeTableInline), where a condition synthesized in
	// place of skip(x) would be searched before the guard.
	ranked := angelic.Localize(spectra, func(s angelic.Suspicion) int {
		site := r.prog.Sites[s.Site]
		tier := 3 * stackRank(stacks, site)
		switch {
		case site.Kind != collect.Cond:
			tier++
		case s.Outcome != "":
			tier += 2
		}
		return tier
	})
	ranked = r.runAfterFailure(ranked)
	ranked = sitesFirst(ranked, printed)   // messages.go
	ranked = sitesFirst(ranked, r.runaway) // before them
	r.logf("localize: %s reached by the failing tests; searching the top %d", plural(len(ranked), "site"), min(len(ranked), r.opts.MaxSites))
	for i, s := range ranked[:min(len(ranked), 3*r.opts.MaxSites)] {
		site := r.prog.Sites[s.Site]
		took := ""
		if s.Outcome != "" {
			took = " when " + s.Outcome
		}
		r.vlogf("localize: #%d %s:%d %s %s `%s`: score %.3f (%d failing, %d passing%s), tier %d", i+1, r.relPath(site.File), site.Line, site.Func,
			kindName(site.Kind), oneLine(site.Original), s.Score, s.Failed, s.Passed, took, s.Tier)
	}
	return ranked
}

// spectrum is the spectrum of the run res of test: the wanted sites it
// reached, and the outcomes a condition took.
func (r *repairer) spectrum(test string, res collect.Result) angelic.Spectrum {
	sp := angelic.Spectrum{Test: test, Passed: res.Passed, Took: map[int][2]bool{}}
	for id, c := range res.Reached {
		if c[0]+c[1] > 0 && id >= 0 && id < len(r.prog.Sites) && r.wanted(r.prog.Sites[id]) {
			sp.Reached = append(sp.Reached, id)
			if r.prog.Sites[id].Kind == collect.Cond {
				sp.Took[id] = [2]bool{c[0] > 0, c[1] > 0}
			}
		}
	}
	return sp
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

// panicStacks are, per failing test whose coverage run panicked, the
// frames of its panic (see panicStack; read once, in coverage).
func (r *repairer) panicStacks() [][]constituent.Location {
	var out [][]constituent.Location
	for _, k := range r.failing {
		if stack := r.stacks[k]; len(stack) > 0 {
			out = append(out, stack)
		}
	}
	return out
}

// panicStack is the stack of the panic in res, the coverage run of
// failing test k: its module frames (moduleFrames), a line repeated (the
// hook's function literal around a condition) once. nil when res did not
// panic (nor a test of a gocheck suite: "... Panic: "), nor printed the
// stack of a panic it recovered (a frame of runtime/panic.go: goldmark's
// testutil prints debug.Stack() for a case that panicked).
func (r *repairer) panicStack(k testKey, res collect.Result) []constituent.Location {
	if !strings.Contains(res.Output, "panic: ") && !strings.Contains(res.Output, "\n... Panic: ") && !strings.Contains(res.Output, "runtime/panic.go:") {
		return nil
	}
	var stack []constituent.Location
	for _, loc := range r.moduleFrames(k, res.Output) {
		if n := len(stack); n > 0 && stack[n-1].File == loc.File && stack[n-1].Line == loc.Line {
			continue
		}
		stack = append(stack, loc)
	}
	return stack
}

// moduleFrames are the stack frames (file:line) in output, of failing
// test k's package, outside the runtime, package testing, test files and
// nopol's hook, innermost first, their files absolute.
func (r *repairer) moduleFrames(k testKey, output string) []constituent.Location {
	dir := r.prog.PackageDir(k.pkg)
	var out []constituent.Location
	for _, loc := range constituent.ParseOutput(output) {
		if !loc.Panic || strings.HasSuffix(loc.File, "_test.go") || collect.IsHook(loc.File) {
			continue
		}
		if !filepath.IsAbs(loc.File) {
			loc.File = filepath.Join(dir, loc.File)
		}
		out = append(out, loc)
	}
	return out
}

// runawayEntries are the entry guard sites (the guard before the first
// statement) of the functions failing test k recursed in without end, and
// the condition sites of the ifs around its repeated calls: its
// coverage run res ended by a stack overflow, by the runtime running out
// of memory (under an address-space limit, ulimit -v or a container's, a
// recursion that allocates at each call exhausts it before the stack
// limit: go-toml's addFields under nopol bench's 8 GiB), or by a test
// timeout (Run.StackOnTimeout), whose stacks repeat a call line of the
// module's code at least gotest.RunawayDepth times. The fix of a runaway recursion is most
// often a base case at the recursive function's entry (a visited set, a
// depth bound, a nil check: go-toml's addFields recursed over a
// self-embedding struct until `if visited[t] { return }`); the spectrum
// cannot say so, since the passing tests run the same statements.
func (r *repairer) runawayEntries(k testKey, res collect.Result) []int {
	if !res.TimedOut && !strings.Contains(res.Output, "fatal error: stack overflow") && !strings.Contains(res.Output, outOfMemoryLine) {
		return nil
	}
	count := map[constituent.Location]int{}
	for _, loc := range r.moduleFrames(k, res.Output) {
		count[constituent.Location{File: loc.File, Line: loc.Line}]++
	}
	type fn struct {
		file  string
		lines [2]int
	}
	recursive := map[fn]bool{}
	for loc, n := range count {
		if n < gotest.RunawayDepth {
			continue
		}
		for _, site := range r.prog.Sites {
			if site.File == loc.File && loc.Line >= site.FuncLines[0] && loc.Line <= site.FuncLines[1] {
				recursive[fn{site.File, site.FuncLines}] = true
				break
			}
		}
	}
	entry := map[fn]int{}
	for id, site := range r.prog.Sites {
		f := fn{site.File, site.FuncLines}
		if site.Kind != collect.Guard || !recursive[f] || !r.wanted(site) {
			continue
		}
		if prev, ok := entry[f]; !ok || site.Line < r.prog.Sites[prev].Line {
			entry[f] = id
		}
	}
	out := slices.Sorted(maps.Values(entry))
	// The conditions that let the recursive calls run: those of the ifs
	// around the statements whose lines repeat (go-toml's
	// handleKeyValuePart called itself again and again under
	// `!f.CanSet()`, which had to be `!f.CanAddr()`).
	for loc, n := range count {
		if n < gotest.RunawayDepth {
			continue
		}
		call := -1 // the guard site of the statement on loc's line
		for id, site := range r.prog.Sites {
			if site.Kind == collect.Guard && site.File == loc.File && site.Line <= loc.Line && loc.Line <= site.FuncLines[1] &&
				recursive[fn{site.File, site.FuncLines}] && (call < 0 || site.Line > r.prog.Sites[call].Line) {
				call = id
			}
		}
		if call < 0 {
			continue
		}
		stmt := r.prog.Sites[call]
		for id, site := range r.prog.Sites {
			if site.Kind == collect.Cond && site.File == stmt.File && site.FuncLines == stmt.FuncLines && site.Line < stmt.Line &&
				r.wanted(site) && heldAll(stmt.Holds, site.Original) && !slices.Contains(out, id) {
				out = append(out, id)
			}
		}
	}
	slices.Sort(out)
	return out
}

// heldAll reports whether every conjunct of cond, the source of a
// condition, is among holds (as allIn compares them).
func heldAll(holds []string, cond string) bool {
	e, err := parser.ParseExpr(cond)
	return err == nil && allIn(holds, e) != ""
}

// sitesFirst moves the sites of first to the front of ranked, keeping
// the order otherwise: the entries of a runaway recursion
// (runawayEntries), the branches whose messages a failing test printed
// and their conditions' callees (printedSites), the fallback's withheld
// sites (mutate).
func sitesFirst(ranked []angelic.Suspicion, first map[int]bool) []angelic.Suspicion {
	if len(first) == 0 {
		return ranked
	}
	out := make([]angelic.Suspicion, 0, len(ranked))
	for _, s := range ranked {
		if first[s.Site] {
			out = append(out, s)
		}
	}
	for _, s := range ranked {
		if !first[s.Site] {
			out = append(out, s)
		}
	}
	return out
}

// interruptedConds are the condition sites whose evaluation a failing
// test's panic, of stack (panicStack), interrupted: the innermost frame
// of the module's code is on one of the condition's lines. The hook
// records an evaluation with its outcome, and the panic left none: without
// this, the condition a failing test panics in is not among the sites it
// reaches, or (reached in the iterations of a table that passed) not
// among those of its failing iteration. go-toml's `cleaned[start] == '0'
// && isDigit(cleaned[start+1])` indexes out of range where the developer
// added a clause.
func (r *repairer) interruptedConds(stack []constituent.Location) map[int]bool {
	if len(stack) == 0 {
		return nil
	}
	top := stack[0]
	var out map[int]bool
	for id, site := range r.prog.Sites {
		if site.Kind != collect.Cond || site.File != top.File || top.Line < site.Line || top.Line > site.Line+strings.Count(site.Original, "\n") {
			continue
		}
		if out == nil {
			out = map[int]bool{}
		}
		out[id] = true
	}
	return out
}

// stackRank ranks a site by the panics of the failing tests (see
// localize): 0 when its function is a panicking frame's (the innermost
// frame of the module's code), 1 when it is a caller's, 2 when it is on
// no failing test's stack. Among equally suspicious sites, those of the
// panicking function come first, then those of its callers.
func stackRank(stacks [][]constituent.Location, site collect.Site) int {
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

// splitIterations purifies the spectrum of a failing table-driven test
// for localisation (B-Refactoring): when its failures lie in some
// iterations of a table loop (frs), the other iterations of that loop are
// passing executions of their own, and the failing spectrum keeps the
// sites reached in the failing iterations and outside the loop (the
// loop's setup may hold the fault). A site whose coverage records reached
// the hook's cap may have lost the failing iterations' records: it stays
// in the failing spectrum.
func splitIterations(sp angelic.Spectrum, res collect.Result, frs []angelic.Constituent) []angelic.Spectrum {
	failingIter := map[[2]int]bool{}
	loops := map[int]bool{}
	for _, fr := range frs {
		if fr.Iteration <= 0 {
			return []angelic.Spectrum{sp} // a failure outside table iterations
		}
		failingIter[[2]int{fr.Segment, fr.Iteration}] = true
		loops[fr.Segment] = true
	}
	inFailing := map[int][2]bool{}
	records := map[int]int{}
	passing := map[[2]int]map[int][2]bool{} // other iteration (segment, iteration) -> sites and outcomes seen
	for _, e := range res.Evals {
		records[e.Site]++
		it := [2]int{e.Segment, e.Iteration}
		seen := inFailing
		if loops[e.Segment] && e.Iteration > 0 && !failingIter[it] {
			if passing[it] == nil {
				passing[it] = map[int][2]bool{}
			}
			seen = passing[it]
		}
		t := seen[e.Site]
		t[b2i(e.Outcome)] = true
		seen[e.Site] = t
	}
	// took keeps the outcomes of the conditions among reached.
	took := func(seen map[int][2]bool, reached []int) map[int][2]bool {
		out := map[int][2]bool{}
		for _, id := range reached {
			if _, ok := sp.Took[id]; ok {
				out[id] = seen[id]
			}
		}
		return out
	}
	failing := angelic.Spectrum{Test: sp.Test, Passed: false}
	for _, id := range sp.Reached {
		if _, ok := inFailing[id]; ok {
			failing.Reached = append(failing.Reached, id)
		} else if records[id] >= collect.RecordCap {
			// Past the cap: the whole test's outcomes stand for the
			// failing iterations'.
			failing.Reached = append(failing.Reached, id)
			if t, ok := sp.Took[id]; ok {
				inFailing[id] = t
			}
		}
	}
	failing.Took = took(inFailing, failing.Reached)
	out := []angelic.Spectrum{failing}
	iters := slices.SortedFunc(maps.Keys(passing), func(a, b [2]int) int { return cmp.Or(a[0]-b[0], a[1]-b[1]) })
	for _, it := range iters {
		p := angelic.Spectrum{Test: fmt.Sprintf("%s (iteration %d)", sp.Test, it[1]), Passed: true}
		for _, id := range sp.Reached {
			if _, ok := passing[it][id]; ok {
				p.Reached = append(p.Reached, id)
			}
		}
		p.Took = took(passing[it], p.Reached)
		out = append(out, p)
	}
	return out
}
