package nopol

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/types"
	"slices"
	"strings"
	"time"

	"github.com/nopol-go/nopol/angelic"
	"github.com/nopol-go/nopol/collect"
	"github.com/nopol-go/nopol/synth"
)

// style is one way of repairing a site.
type style struct {
	name  string // "cond", "guard" (wrapping), "return" (an exit before the statement)
	guard collect.GuardStyle
	// strategy is the guard's strategy (collect.Strategies), "" for
	// conditions; exit the exit's body.
	strategy, exit string
	// late marks the exits searched after the mutation fallback (see
	// Repair's order): a new guard is a bigger change than a condition
	// changed, and an exit before a site the failing tests reach more
	// often than the condition above it passes as often as it is wrong.
	late  bool
	force angelic.Force
}

func stylesOf(s collect.Site) []style {
	if s.Kind == collect.Cond {
		return []style{{name: "cond"}}
	}
	// Skipping the statement first, then the exits in strategy order; of
	// those, only the zero values before a statement that can be
	// wrapped are searched early.
	var st []style
	if s.CanWrap {
		st = append(st, style{name: "guard", guard: collect.GuardWrap, strategy: collect.StrategySkip, force: angelic.Force{Value: false}})
	}
	for k, e := range s.Exits {
		st = append(st, style{name: "return", guard: collect.GuardExit(k), strategy: e.Strategy, exit: e.Body,
			force: angelic.Force{Value: false, Return: true}, late: !s.CanWrap || e.Strategy != collect.StrategyZero})
	}
	if s.CanWrap {
		// Skipping again late, where the statement may be skipped at one
		// evaluation only (per-evaluation values are for late styles).
		st = append(st, style{name: "guard", guard: collect.GuardWrap, strategy: collect.StrategySkip, force: angelic.Force{Value: false}, late: true})
	}
	return st
}

// site searches one ranked site in each of its styles; done reports a
// patch.
func (r *repairer) site(ctx context.Context, i, n int, s angelic.Suspicion, late bool) (done bool, err error) {
	site := r.prog.Sites[s.Site]
	for _, st := range stylesOf(site) {
		if st.late != late || !r.strategyWanted(st) {
			continue
		}
		rep := SiteReport{ID: site.ID, Kind: kindName(site.Kind), File: r.relPath(site.File), Line: site.Line, Col: site.Col,
			Func: site.Func, Original: site.Original, Score: s.Score, Style: st.name, Strategy: st.strategy, Exit: st.exit, Method: "synthesis"}
		if r.perEval {
			rep.Method = "per-evaluation"
		}
		how := st.name
		if st.exit != "" {
			how += " `" + st.exit + "`"
		}
		r.logf("site %d/%d: %s:%d %s `%s` (%s, score %.2f)", i+1, n, rep.File, rep.Line, site.Func, oneLine(site.Original), how, s.Score)
		done, err := r.searchSite(ctx, site, st, &rep)
		r.logf("site %d/%d: %s", i+1, n, rep.Outcome)
		r.res.Sites = append(r.res.Sites, rep)
		if err != nil || done {
			return done, err
		}
	}
	return false, nil
}

// strategyWanted reports whether Options.Strategies allows st.
func (r *repairer) strategyWanted(st style) bool {
	return st.strategy == "" || len(r.opts.Strategies) == 0 || slices.Contains(r.opts.Strategies, st.strategy)
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
	r.enter(phaseAngelic)
	verdict, err := r.angelicSearch(ctx, site, st)
	if err != nil {
		return false, err
	}
	rep.Purified = slices.ContainsFunc(verdict.Attempts, func(a angelic.Attempt) bool { return !a.Force.Whole() })
	if !verdict.Qualified {
		rep.Outcome = fmt.Sprintf("not angelic: %s %s", r.failingByID[verdict.RuledOutBy].name, verdict.Reason)
		if site.Kind == collect.Cond && strings.HasPrefix(verdict.Reason, "fails under every forced value") {
			r.noConstant = append(r.noConstant, site.ID)
		}
		return false, nil
	}
	for _, nd := range verdict.Needs {
		k := r.failingByID[nd.Test]
		rep.Needs = append(rep.Needs, k.name+"="+nd.Force.Label(site.Kind == collect.Guard))
		if nd.Split {
			rep.Fragments = append(rep.Fragments, r.fragmentReports(k, nd.Force, site.Kind == collect.Guard)...)
		}
	}
	r.logf("angelic: %s", strings.Join(rep.Needs, ", "))

	// The needs to specify: the first force of every test, then, if that
	// gives no candidate, the alternatives of the tests that have one.
	sets := [][]angelic.Need{verdict.Needs}
	if alt := alternative(verdict.Needs); alt != nil {
		sets = append(sets, alt)
	}
	for _, needs := range sets {
		done, err := r.specifyAndValidate(ctx, site, st, needs, rep)
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

// forcedRun is the run of failing test k with site forced as f. Forced
// in fragments, the hook prints the running constituent, for attributing
// further failures to fragments.
func (r *repairer) forcedRun(k testKey, site collect.Site, st style, f angelic.Force, mode collect.Mode) collect.Run {
	run := collect.Run{Package: k.pkg, Test: k.name, Mode: mode, Timeout: r.timeout(k),
		Force: map[int]bool{site.ID: f.Value}, PrintConstituents: !r.opts.NoPurify && !f.Whole()}
	if f.Eval > 0 {
		run.Force, run.FlipEval = nil, map[int]int{site.ID: f.Eval}
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
		if !f.Whole() && !res.Passed {
			out.Failing = r.failingFragments(k, res.Output)
		}
		if !f.Whole() {
			r.logf("angelic: %s with %s forced in %s: %s", k.name, angelic.Force{Value: f.Value, Return: f.Return}.Label(guard),
				describeFragments(r.fragmentReports(k, f, guard)), passFail(res))
		} else {
			r.vlogf("forced %s=%s: passed=%v timed out=%v (%s)", k.name, f.Label(guard), res.Passed, res.TimedOut, res.Duration.Round(time.Millisecond))
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

// specifyAndValidate records the examples of the site under needs,
// synthesizes candidates and validates them.
func (r *repairer) specifyAndValidate(ctx context.Context, site collect.Site, st style, needs []angelic.Need, rep *SiteReport) (bool, error) {
	r.enter(phaseSnapshot)
	spec, sum, why, err := r.snapshot(ctx, site, st, needs)
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

	r.enter(phaseSynthesis)
	opts := synth.Options{Backend: r.opts.Backend, MaxCandidates: r.opts.MaxCandidates, Timeout: synthTimeout}
	solved, err := synth.Solve(ctx, spec, opts)
	if err != nil && ctx.Err() != nil {
		return false, ctx.Err()
	}
	var cands []candidate
	var dropped []string
	for _, c := range solved {
		if readsAll(c.Term, keep) {
			cands = append(cands, candidate{src: c.Source, term: c.Term, method: "synthesis"})
		} else {
			dropped = append(dropped, c.Source)
		}
	}
	if site.Kind == collect.Cond && !r.opts.NoMutants {
		cands = withMutants(cands, r.agreeingMutants(site, spec, keep), site.Original)
	}
	cands = r.rejectAntiPatterns(site, spec, cands, rep)
	switch {
	case len(cands) > 0:
	case len(rep.Rejected) > 0:
		rep.Outcome = fmt.Sprintf("every candidate breaks an anti-pattern (%s)", strings.Join(rep.Rejected, " | "))
		return false, nil
	case err != nil:
		rep.Outcome = "synthesis: " + err.Error()
		return false, nil
	default:
		rep.Outcome = fmt.Sprintf("synthesis: no candidate reads all of the original's operands (%s)", strings.Join(dropped, " | "))
		return false, nil
	}
	r.logf("synthesis: %d examples (%d distinct), %d candidates: %s", rep.Examples, rep.Distinct, len(cands), describeCandidates(cands))
	r.ranked, r.spec = cands, spec
	return r.validate(ctx, site, st, cands, rep)
}

// agreeingMutants are the mutants of site's original condition that give
// every recorded state of spec its needed outcome (and read the inputs
// keep, as synthesized candidates must).
func (r *repairer) agreeingMutants(site collect.Site, spec *synth.Spec, keep []int) []candidate {
	var out []candidate
	for _, src := range mutants(site.Original) {
		t, err := synth.ParseTerm(spec, src)
		if err != nil || !readsAll(t, keep) || !agrees(spec, t) {
			continue
		}
		out = append(out, candidate{src: src, term: t, method: "mutation"})
	}
	return out
}

// agrees reports whether t gives every example of spec its Want.
func agrees(spec *synth.Spec, t *synth.Term) bool {
	for i := range spec.Examples {
		v, err := t.Eval(spec, &spec.Examples[i])
		if err != nil || v.Kind != synth.Bool || v.Bool != spec.Examples[i].Want {
			return false
		}
	}
	return true
}

// withMutants is one ranking of the synthesized candidates (in synth.Rank
// order) and the mutants (fewest changes first): merged by token edit
// distance to the original, a mutant first on a tie, so that a minimal
// edit of the original is validated before a synthesized condition
// further from it. A mutant that synthesis also found keeps its place
// among the synthesized.
func withMutants(synthesized, muts []candidate, original string) []candidate {
	muts = slices.DeleteFunc(muts, func(m candidate) bool {
		return slices.ContainsFunc(synthesized, func(c candidate) bool { return c.src == m.src })
	})
	out := make([]candidate, 0, len(synthesized)+len(muts))
	i, j := 0, 0
	for i < len(synthesized) || j < len(muts) {
		if j < len(muts) && (i == len(synthesized) || synth.EditDistance(muts[j].src, original) <= synth.EditDistance(synthesized[i].src, original)) {
			out = append(out, muts[j])
			j++
		} else {
			out = append(out, synthesized[i])
			i++
		}
	}
	return out
}

// rejectAntiPatterns drops the candidates that break an anti-pattern,
// noting each in rep.Rejected, and moves those that only share none of
// the original's variables (ruleUnrelated) to the end: a developer
// sometimes rewrites a condition whole, but a closer candidate comes first.
func (r *repairer) rejectAntiPatterns(site collect.Site, spec *synth.Spec, cands []candidate, rep *SiteReport) []candidate {
	var kept, last []candidate
	for _, c := range cands {
		why := antiPattern(site, spec, c)
		switch {
		case why == "":
			kept = append(kept, c)
		case strings.HasPrefix(why, ruleUnrelated+":"):
			c.unrelated = true
			last = append(last, c)
		default:
			rep.Rejected = append(rep.Rejected, c.src+": "+why)
			r.logf("rejected `%s`: %s", c.src, why)
		}
	}
	return append(kept, last...)
}

func describeCandidates(cands []candidate) string {
	srcs := make([]string, len(cands))
	for i, c := range cands {
		srcs[i] = c.src
		if c.method == "mutation" {
			srcs[i] += " (mutant)"
		}
	}
	return strings.Join(srcs, " | ")
}

// snapshot runs every test reaching the site in snapshot mode (failing
// tests with their angelic value) and builds the synthesis spec, with a
// summary of the examples. A nil spec comes with the reason; a spec whose
// states all need one outcome (kept only when there is an original
// condition) comes with that remark.
func (r *repairer) snapshot(ctx context.Context, site collect.Site, st style, needs []angelic.Need) (*synth.Spec, angelic.Summary, string, error) {
	var (
		runs []collect.Run
		keys []testKey
	)
	for _, nd := range needs {
		k := r.failingByID[nd.Test]
		runs = append(runs, r.forcedRun(k, site, st, nd.Force, collect.ModeSnapshot))
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
	r.logf("snapshot: running %s (%d failing with their angelic value)", plural(len(runs), "test"), nFailing)
	results, err := r.runAll(ctx, runs)
	r.res.Runs += len(runs)
	if err != nil {
		return nil, angelic.Summary{}, "", fmt.Errorf("recording states at site %d: %w", site.ID, err)
	}
	// A run that timed out may be stuck in an observed call: run it
	// again with the calls left out (missing values).
	if slices.ContainsFunc(site.Observed, func(o collect.Observed) bool { return o.Call }) {
		for i, res := range results {
			if !res.TimedOut {
				continue
			}
			again := runs[i]
			again.NoCalls = true
			r.logf("snapshot: %s timed out; running it again without the observed calls", keys[i].name)
			res, err := r.bin.Run(ctx, again)
			r.res.Runs++
			if err != nil {
				return nil, angelic.Summary{}, "", fmt.Errorf("recording states at site %d: %w", site.ID, err)
			}
			results[i] = res
		}
	}
	inputs, consts, keep := specInputs(site)
	spec := &synth.Spec{Inputs: inputs, Constants: consts}
	if site.Kind == collect.Cond {
		spec.Original = site.Original
	}
	// Failing tests' examples come first, so that the cap on examples
	// never drops them.
	var (
		all  []angelic.Example
		vals [][]synth.Value
	)
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
			v := make([]synth.Value, len(keep))
			for j, oi := range keep {
				v[j] = synthValue(e.Values[oi], site.Observed[oi].Kind)
			}
			want := e.Outcome
			if st.name == "return" {
				want = !want
			}
			all = append(all, angelic.Example{State: stateKey(v), Want: want, Origin: k.name})
			vals = append(vals, v)
		}
	}
	sum := angelic.Summarize(all)
	seen := map[string]bool{}
	for i, ex := range all {
		if seen[ex.State] || sum.IsDontCare(ex.State) || len(spec.Examples) >= maxExamples {
			continue
		}
		seen[ex.State] = true
		spec.Examples = append(spec.Examples, synth.Example{Values: vals[i], Want: ex.Want, Origin: ex.Origin})
	}
	if len(sum.DontCare) > 0 {
		r.logf("snapshot: %d states had both outcomes in passing runs and are left out (%s)", len(sum.DontCare), sum.Conflict)
	}
	if len(inputs) == 0 {
		return nil, sum, "no specification: nothing observable at the site", nil
	}
	why := sum.Trivial()
	if why != "" && !(sum.Constant() && spec.Original != "") {
		return nil, sum, fmt.Sprintf("no specification: %s (%d examples)", why, sum.Examples), nil
	}
	return spec, sum, why, nil
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
