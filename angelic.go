package nopol

import (
	"context"
	"fmt"
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
		Force: map[int]bool{site.ID: f.Value}, PrintConstituents: !r.opts.NoPurify && !f.Whole()}
	if f.PerEval() {
		run.Force = nil
		if len(f.Evals) > 0 {
			run.FlipEval = map[int][]int{site.ID: f.Evals}
		}
		if f.Trace && mode == collect.ModeCover {
			run.PrintEvals = []int{site.ID}
		}
	}
	forceFragments(&run, f.Fragments)
	if k, ok := st.guard.Exit(); ok && f.Return {
		run.ForceExit = map[int]int{site.ID: k}
	}
	if mode == collect.ModeSnapshot {
		run.Sites = []int{site.ID}
	}
	return run
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
	for _, k := range r.failing {
		p.Tests = append(p.Tests, angelic.FailingTest{Name: k.id(), Counts: counts(r.cover[k].Reached[site.ID]), Failing: r.failed[k]})
	}
	split := map[string]bool{}
	run := func(ctx context.Context, test string, f angelic.Force) (angelic.Outcome, error) {
		k := r.failingByID[test]
		if !f.Whole() && !split[test] {
			split[test] = true
			r.logf("angelic: %s fails under every value forced in the whole test; split into fragments, failing: %s",
				k.name, describeFragments(r.fragmentReports(k, angelic.Force{Fragments: r.failed[k]}, guard)))
		}
		res, err := r.bin.Run(ctx, r.forcedRun(k, site, st, f, collect.ModeCover))
		r.res.Runs++
		if err != nil {
			return angelic.Outcome{}, fmt.Errorf("running %s with site %d forced: %w", k.name, site.ID, err)
		}
		out := angelic.Outcome{Passed: res.Passed, TimedOut: res.TimedOut}
		if f.Trace && !res.Passed {
			out.FailedAfter = failedAfter(res.Output)
		}
		if !f.Whole() && !res.Passed {
			out.Failing = r.failingFragments(k, res.Output)
		}
		if !f.Whole() {
			r.logf("angelic: %s with %s forced in %s: %s", k.name, angelic.Force{Value: f.Value, Return: f.Return}.Label(guard),
				describeFragments(r.fragmentReports(k, f, guard)), passFail(res))
		} else {
			r.vlogf("forced %s=%s: passed=%v timed out=%v failed after evaluation %d (%s)", k.name, f.Label(guard), res.Passed, res.TimedOut, out.FailedAfter, res.Duration.Round(time.Millisecond))
		}
		return out, nil
	}
	return angelic.Search(ctx, p, run)
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
