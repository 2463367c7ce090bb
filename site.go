package nopol

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/nopol-go/nopol/angelic"
	"github.com/nopol-go/nopol/collect"
)

// style is one way of repairing a site.
type style struct {
	name  string // "cond", "guard" (wrapping), "return" (an exit before the statement), "replace" (NpeFix, npefix.go)
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
	// those, only a twin guard's exit (a guard the file writes elsewhere
	// after the same statement), `continue` and the zero values before a
	// statement that can be wrapped (unless they return a nil the function
	// never returns: collect.Exit.NewNil) are searched early: a skip is kept only where it
	// guards the statement against its own panic (conditional-deletion,
	// antipattern.go), and in a loop `continue` is the skip's stand-in.
	// `continue` is searched late again, with the other exits, where
	// per-evaluation values apply.
	var st []style
	if s.CanWrap {
		st = append(st, style{name: "guard", guard: collect.GuardWrap, strategy: collect.StrategySkip, force: angelic.Force{Value: false}})
	}
	for k, e := range s.Exits {
		if (s.CanWrap && e.Strategy == collect.StrategyContinue) || e.Strategy == collect.StrategyTwin {
			st = append(st, style{name: "return", guard: collect.GuardExit(k), strategy: e.Strategy, exit: e.Body,
				force: angelic.Force{Value: false, Return: true}})
		}
	}
	for k, e := range s.Exits {
		st = append(st, style{name: "return", guard: collect.GuardExit(k), strategy: e.Strategy, exit: e.Body,
			force: angelic.Force{Value: false, Return: true}, late: !s.CanWrap || e.Strategy != collect.StrategyZero || e.NewNil})
	}
	if s.CanWrap {
		// Skipping again late, where the statement may be skipped at one
		// evaluation only (per-evaluation values are for late styles).
		st = append(st, style{name: "guard", guard: collect.GuardWrap, strategy: collect.StrategySkip, force: angelic.Force{Value: false}, late: true})
	}
	return st
}

// stylesAt is stylesOf, with the zero values searched in the first tier
// at the entry of a runaway recursion (repairer.runaway), whatever the
// statement (a declaration cannot be wrapped, so they are otherwise
// late): a base case is what that failure needs. The other exits stay
// late: at such a site every run that does not stop the recursion lasts
// its whole time limit.
func (r *repairer) stylesAt(s collect.Site) []style {
	st := stylesOf(s)
	if !r.runaway[s.ID] {
		return st
	}
	for i, x := range st {
		if x.name == "return" && x.strategy == collect.StrategyZero {
			st[i].late = false
		}
	}
	return st
}

// site searches one ranked site in each of its styles; done reports a
// patch.
func (r *repairer) site(ctx context.Context, i, n int, s angelic.Suspicion, late bool) (done bool, err error) {
	site := r.prog.Sites[s.Site]
	for _, st := range r.stylesAt(site) {
		if st.late != late || !r.strategyWanted(st) {
			continue
		}
		if (late || r.own != nil) && !r.laterLeft() {
			break // a later tier, out of effort (Options.Effort)
		}
		rep := r.siteReport(site, st, s.Score, "synthesis")
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

// strategyWanted reports whether Options.Strategies allows st, and for a
// guard that panics, whether a failing test expects a panic
// (collect.Program.PanicTests): elsewhere it cannot make a failing test
// pass, and would only spend the search's effort.
func (r *repairer) strategyWanted(st style) bool {
	if st.strategy == collect.StrategyPanic || st.strategy == collect.StrategyPanicNew {
		if !slices.ContainsFunc(r.failing, func(k testKey) bool { return r.prog.PanicTests[k.pkg][k.name] }) {
			return false
		}
	}
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
	verdict, err := r.angelicSearch(ctx, site, st, false)
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
	done, err := r.specifyNeeds(ctx, site, st, verdict, rep)
	if err != nil || done || !r.leavesTooSoon(site, st, verdict) {
		return done, err
	}
	// The exit taken at every evaluation made a failing test pass, and
	// no condition fits: leaving at the first evaluation, the test never
	// reached the later ones, which may need the statement to run (a
	// list whose last element is the bad one). Where the exit is taken
	// then is for the per-evaluation search to say.
	r.logf("angelic: no condition leaves wherever the exit was forced; searching per evaluation")
	r.enter(phaseAngelic)
	again, err := r.angelicSearch(ctx, site, st, true)
	if err != nil || !again.Qualified {
		return false, err
	}
	rep.Needs, rep.Fragments = nil, nil
	return r.specifyNeeds(ctx, site, st, again, rep)
}

// leavesTooSoon reports whether the per-evaluation search may find what
// the constant exit at a guard did not: a late exit (per-evaluation
// values apply) where a failing test's need is that exit at every
// evaluation of the whole test, and the test, unforced, evaluates the
// site more than once (at one evaluation, leaving there is the constant).
func (r *repairer) leavesTooSoon(site collect.Site, st style, v angelic.Verdict) bool {
	if site.Kind != collect.Guard || !st.late || r.opts.NoPerEval || st.name != "return" {
		return false
	}
	return slices.ContainsFunc(v.Needs, func(nd angelic.Need) bool {
		c := r.cover[r.failingByID[nd.Test]].Reached[site.ID]
		return nd.Force.Whole() && !nd.Force.PerEval() && c[0]+c[1] > 1
	})
}

// specifyNeeds records the angelic values of verdict in rep, then
// specifies a condition from them and validates it; if that gives none,
// from the tests' alternative forces.
func (r *repairer) specifyNeeds(ctx context.Context, site collect.Site, st style, verdict angelic.Verdict, rep *SiteReport) (bool, error) {
	for _, nd := range verdict.Needs {
		k := r.failingByID[nd.Test]
		rep.Needs = append(rep.Needs, k.name+"="+nd.Force.Label(site.Kind == collect.Guard))
		rep.guessed = rep.guessed || nd.Force.Guess != ""
		rep.joined = rep.joined || nd.Force.Guess != "" && r.guessed[site.ID][nd.Force.Guess].Combine != collect.CombineNone
		if nd.Force.EveryEval() {
			rep.everyEval = true
			rep.everyEvalIn = rep.everyEvalIn || !nd.Force.Whole()
		} else {
			rep.negated = max(rep.negated, len(nd.Force.Evals))
		}
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
