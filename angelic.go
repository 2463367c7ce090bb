package nopol

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nopol-go/nopol/angelic"
	"github.com/nopol-go/nopol/collect"
	"github.com/nopol-go/nopol/internal/constituent"
)

// The angelic search at one site: the failing tests re-run with the
// site forced (see package angelic).

// forcedRun is the run of failing test k with site forced as f. Forced
// in fragments, the hook prints the running constituent, for attributing
// further failures to fragments.
func (r *repairer) forcedRun(k testKey, site collect.Site, st style, f angelic.Force, mode collect.Mode) collect.Run {
	run := collect.Run{Package: k.pkg, Test: k.name, Mode: mode, Timeout: r.timeout(k),
		Force: map[int]bool{site.ID: f.Value}, PrintConstituents: !r.opts.NoPurify && !f.Whole(), EvalLimit: r.evalLimit(k)}
	if f.PerEval() {
		run.Force = nil
		if len(f.Evals) > 0 {
			run.FlipEval = map[int][]int{site.ID: f.Evals}
		}
		if f.Trace && mode == collect.ModeCover {
			run.PrintEvals = []int{site.ID}
		}
	}
	forceFragments(&run, f.Fragments, f.Values)
	if k, ok := st.guard.Exit(); ok && f.Return {
		run.ForceExit = map[int]int{site.ID: k}
	}
	if mode == collect.ModeSnapshot {
		run.Sites = []int{site.ID}
	}
	return run
}

// Forced runs are taken as hung past evalLimitBase evaluations of all
// sites, plus evalLimitFactor times the most that the test, or any test
// of its package, evaluated in its coverage run.
const (
	evalLimitBase   = 2_000_000
	evalLimitFactor = 10
)

// evalLimit is the Run.EvalLimit of a forced run of test k. The hook
// makes 25 to 50 million evaluations a second, so a loop made to spin
// reaches it long before the run's timeout (twenty times the test's
// duration, and 1.5s). A failing test often stops at its first failed
// check, so the run that repairs it evaluates far more than its coverage
// run did, about what a passing test of the package does: the bound
// counts the heaviest coverage run of the package (counts are lower
// bounds within a factor of two).
func (r *repairer) evalLimit(k testKey) int64 {
	return evalLimitBase + evalLimitFactor*2*max(evaluations(r.cover[k]), r.coverMax[k.pkg])
}

// evaluations counts the evaluations of all sites in a run.
func evaluations(res collect.Result) int64 {
	var n int64
	for _, c := range res.Reached {
		n += int64(c[0] + c[1])
	}
	return n
}

func (r *repairer) angelicSearch(ctx context.Context, site collect.Site, st style) (angelic.Verdict, error) {
	guard := site.Kind == collect.Guard
	p := angelic.Problem{}
	if site.Kind == collect.Cond {
		p.Choices = []angelic.Force{{Value: true}, {Value: false}}
		if r.perEval {
			p.MaxFlips = maxFlips
		}
	} else {
		p.Choices = []angelic.Force{st.force}
		if st.late && !r.opts.NoPerEval {
			// An exit taken at one evaluation: a nil element of a
			// list, one bad input among good ones in one call.
			p.MaxFlips = maxFlips
		}
	}
	if p.MaxFlips > 0 {
		p.Guess = func(ctx context.Context, test string) ([][]int, error) {
			return r.guessEvals(ctx, site, r.failingByID[test])
		}
	}
	for _, k := range r.failing {
		c := counts(r.cover[k].Reached[site.ID])
		if r.interrupted[k][site.ID] {
			c.Interrupted = 1
		}
		p.Tests = append(p.Tests, angelic.FailingTest{Name: k.id(), Counts: c, Failing: r.failed[k]})
	}
	// The search makes some runs at once (Problem.Parallel): mu guards
	// what they record.
	var mu sync.Mutex
	p.Parallel = r.opts.Parallel
	split := map[string]bool{}
	run := func(ctx context.Context, test string, f angelic.Force) (angelic.Outcome, error) {
		mu.Lock()
		defer mu.Unlock()
		k := r.failingByID[test]
		// A traced run that negates nothing forces nothing: the same run
		// for every style of the site.
		key := siteTest{site.ID, test}
		unforced := f.Trace && len(f.Evals) == 0
		if out, ok := r.traced[key]; ok && unforced {
			return out, nil
		}
		if !f.Whole() && !split[test] {
			split[test] = true
			r.logf("angelic: %s fails under every value forced in the whole test; split into fragments, failing: %s",
				k.name, describeFragments(r.fragmentReports(k, angelic.Force{Fragments: r.failed[k]}, guard)))
		}
		mu.Unlock()
		res, err := r.bin.Run(ctx, r.forcedRun(k, site, st, f, collect.ModeCover))
		mu.Lock()
		r.ran(testWork(res.TimedOut)) // a hung run (Hung) has TimedOut set too
		if err != nil {
			return angelic.Outcome{}, fmt.Errorf("running %s with site %d forced: %w", k.name, site.ID, err)
		}
		out := angelic.Outcome{Passed: res.Passed, TimedOut: res.TimedOut}
		if f.Trace {
			out.Evaluations = printedEvals(res.Output, site.ID)
			if !res.Passed {
				out.FailedAfter = failedAfter(res.Output)
			}
		}
		if !f.Whole() && !res.Passed {
			out.Failing = r.failingFragments(k, res.Output)
		}
		if unforced && !res.TimedOut {
			r.traced[key] = out
		}
		if len(f.Values) > 0 {
			r.logf("angelic: %s with its own value forced in each fragment, %s: %s", k.name, describeFragments(r.fragmentReports(k, f, guard)), passFail(res))
		} else if !f.Whole() {
			r.logf("angelic: %s with %s forced in %s: %s", k.name, angelic.Force{Value: f.Value, Return: f.Return}.Label(guard),
				describeFragments(r.fragmentReports(k, f, guard)), passFail(res))
		} else {
			r.vlogf("forced %s=%s: passed=%v timed out=%v (hung %v) failed after evaluation %d (%s)", k.name, f.Label(guard), res.Passed, res.TimedOut, res.Hung, out.FailedAfter, res.Duration.Round(time.Millisecond))
		}
		return out, nil
	}
	v, err := angelic.Search(ctx, p, run)
	r.surplus += v.Surplus*testWork(false) + v.SurplusHung*hungWork
	return v, err
}

func passFail(res collect.Result) string {
	switch {
	case res.Passed:
		return "passes"
	case res.TimedOut:
		return "times out"
	}
	return "fails"
}

// counts converts collect's per-site counts, indexed by outcome: [0]
// false, [1] true.
func counts(c [2]int) angelic.Counts {
	return angelic.Counts{True: c[1], False: c[0]}
}

// failedAfter is the evaluation of the traced site after which the first
// failure of a run's output was reported, 0 when unknown.
func failedAfter(output string) int {
	if locs := constituent.ParseOutput(output); len(locs) > 0 {
		return locs[0].Eval
	}
	return 0
}

// printedEvals is the last evaluation of site printed in a traced run's
// output (constituent.EvalLine), 0 for none.
func printedEvals(output string, site int) int {
	prefix := strings.TrimSuffix(constituent.EvalLine(site, 0), "0\n")
	n := 0
	for line := range strings.Lines(output) {
		if rest, ok := strings.CutPrefix(line, prefix); ok {
			if k, err := strconv.Atoi(strings.TrimSpace(rest)); err == nil {
				n = max(n, k)
			}
		}
	}
	return n
}

// guessEvals proposes the sets of evaluations of site to negate in
// failing test k (angelic.Problem.Guess): from one snapshot run of the
// test, for each boolean observed expression b, in the site's order,
// the evaluations where negating the outcome makes it b, then those
// where it makes it !b (at a guard, an exit wherever b holds). Sets that
// negate nothing or every evaluation (a constant force, already tried)
// are left out, and so are tests whose evaluations are not all recorded.
func (r *repairer) guessEvals(ctx context.Context, site collect.Site, k testKey) ([][]int, error) {
	key := siteTest{site.ID, k.id()}
	if g, ok := r.guesses[key]; ok {
		return g, nil // the same for every style of the site
	}
	g, err := r.guess(ctx, site, k)
	if err == nil {
		r.guesses[key] = g
	}
	return g, err
}

// siteTest names a site and a failing test (by id).
type siteTest struct {
	site int
	test string
}

func (r *repairer) guess(ctx context.Context, site collect.Site, k testKey) ([][]int, error) {
	run := collect.Run{Package: k.pkg, Test: k.name, Mode: collect.ModeSnapshot, Sites: []int{site.ID}, ForceSegment: -1, Timeout: r.timeout(k)}
	res, err := r.bin.Run(ctx, run)
	r.ran(testWork(res.TimedOut))
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, nil // no guesses; the search goes on
	}
	if res.TimedOut {
		return nil, nil // an observed call may never end: not every state is recorded
	}
	var evals []collect.Eval
	for _, e := range res.Evals {
		if e.Site == site.ID {
			evals = append(evals, e)
		}
	}
	c := res.Reached[site.ID]
	if len(evals) == 0 || len(evals) != c[0]+c[1] || len(evals) >= collect.RecordCap {
		return nil, nil
	}
	var out [][]int
	seen := map[string]bool{}
	for i, o := range site.Observed {
		if o.Kind != collect.KindBool {
			continue
		}
		for _, want := range []bool{true, false} {
			var flip []int
			ok := true
			for n, e := range evals {
				if i >= len(e.Values) || e.Values[i].Missing {
					ok = false
					break
				}
				// At a guard the outcome is "the statement runs": an exit
				// where b holds negates the evaluations where it runs.
				target := e.Values[i].Bool == want
				if site.Kind == collect.Guard {
					target = !target
				}
				if e.Outcome != target {
					flip = append(flip, n+1)
				}
			}
			key := fmt.Sprint(flip)
			if !ok || len(flip) == 0 || len(flip) == len(evals) || seen[key] {
				continue
			}
			seen[key] = true
			out = append(out, flip)
		}
	}
	r.vlogf("angelic: %s: %d sets of evaluations to negate guessed from %s at the site", k.name, len(out), plural(len(evals), "recorded state"))
	return out, nil
}
