package nopol

import (
	"context"
	"slices"
	"strings"

	"github.com/nopol-go/nopol/collect"
)

// maxNilFrames bounds the frames of a nil-dereference panic whose
// statements get NpeFix's replacements: the innermost of the module's
// code and its caller (which may have passed the nil).
const maxNilFrames = 2

// nilDeref is the runtime's message of a nil dereference.
const nilDeref = "nil pointer dereference"

// nilFixes is the NpeFix tier (collect.NilFix): where a failing test's
// coverage run panicked with a nil dereference, the statements of the
// innermost frames of the module's code get `if x == nil { x = v }`
// before them, x an operand they dereference (or, in the caller's frame,
// pass to a call) and v an in-scope value of its type or a new instance,
// in collect's order; each is validated as a
// patched file on the whole suite, and the first that passes is the
// patch. The condition is not synthesized: NpeFix replaces a value only
// where it is nil. It returns how many replacements it tried.
func (r *repairer) nilFixes(ctx context.Context) (n int, done bool, err error) {
	if r.opts.Kinds&KindGuard == 0 {
		return 0, false, nil
	}
	if !slices.ContainsFunc(r.failing, func(k testKey) bool { return strings.Contains(r.cover[k].Output, nilDeref) }) {
		return 0, false, nil
	}
	type target struct {
		site collect.Site
		fix  collect.NilFix
	}
	var targets []target
	seen := map[int]bool{} // sites, by id
	for _, stack := range r.panicStacks() {
		for i, loc := range stack[:min(len(stack), maxNilFrames)] {
			for _, site := range r.prog.Sites {
				if site.Kind != collect.Guard || site.File != loc.File || site.Line != loc.Line || seen[site.ID] {
					continue
				}
				seen[site.ID] = true
				found := map[string]bool{}
				for _, fix := range site.NilFixes {
					// An operand passed to a call, in the
					// panicking frame, is not what it dereferenced.
					if (fix.Passed && i == 0) || !r.strategyWanted(style{strategy: fix.Strategy}) {
						continue
					}
					found[fix.Strategy] = true
					targets = append(targets, target{site, fix})
				}
				// NpeFix's Table 6.2: a strategy with nothing to try
				// at a panicking statement says why.
				for _, strategy := range []string{collect.StrategyNilVar, collect.StrategyNilNew} {
					if !found[strategy] && r.strategyWanted(style{strategy: strategy}) {
						r.res.Sites = append(r.res.Sites, r.nilReport(site, style{name: "replace", strategy: strategy}, nilNothing[strategy]))
					}
				}
			}
		}
	}
	if len(targets) == 0 {
		return 0, false, nil
	}
	r.enter(phaseValidation)
	r.logf("npefix: a failing test dereferences nil; trying %s", plural(len(targets), "replacement"))
	for i, t := range targets {
		if err := ctx.Err(); err != nil {
			return i, false, err
		}
		site := t.site
		site.Exits = []collect.Exit{{Body: t.fix.Body, Strategy: t.fix.Strategy}}
		st := style{name: "replace", guard: collect.GuardExit(0), strategy: t.fix.Strategy, exit: t.fix.Body}
		c := candidate{src: t.fix.Operand + " == nil", method: "npefix"}
		rep := r.nilReport(site, st, "")
		r.ranked, r.spec = nil, nil
		done, sr, err := r.tryPatch(ctx, site, st, c, "npefix "+t.fix.Strategy+" `"+t.fix.Body+"` if", &rep)
		if err != nil {
			return i + 1, false, err
		}
		if !done {
			rep.Outcome = nilOutcome(sr)
		}
		r.res.Sites = append(r.res.Sites, rep)
		if done {
			return i + 1, true, nil
		}
	}
	return len(targets), false, nil
}

// The outcomes of NpeFix's strategies at a panicking statement, as
// SiteReport.Outcome says them (NpeFix's Table 6.2), besides "patched".
const (
	nilNoVariable   = "no suitable variable"
	nilNoInstance   = "no instance"
	nilCannot       = "cannot (does not compile)"
	nilTestsFail    = "tests fail"
	nilPanicElsewhr = "panic elsewhere"
	nilTimeout      = "timeout"
)

// nilNothing is the outcome of a strategy without a replacement to try.
var nilNothing = map[string]string{collect.StrategyNilVar: nilNoVariable, collect.StrategyNilNew: nilNoInstance}

// nilOutcome names how a replacement that does not pass failed.
func nilOutcome(sr collect.SuiteResult) string {
	switch {
	case sr.BuildFailed:
		return nilCannot
	case sr.TimedOut:
		return nilTimeout
	case strings.Contains(sr.Output, nilDeref):
		return nilPanicElsewhr
	}
	return nilTestsFail
}

// nilReport is the report of an NpeFix strategy at a site.
func (r *repairer) nilReport(site collect.Site, st style, outcome string) SiteReport {
	rep := r.siteReport(site, st, 0, "npefix")
	rep.Outcome = outcome
	return rep
}

// siteReport starts the report of a search at site in style st, ranked
// with score, by method (SiteReport.Method).
func (r *repairer) siteReport(site collect.Site, st style, score float64, method string) SiteReport {
	return SiteReport{ID: site.ID, Kind: kindName(site.Kind), File: r.relPath(site.File), Line: site.Line, Col: site.Col,
		Func: site.Func, Original: site.Original, Score: score, Style: st.name, Strategy: st.strategy, Exit: st.exit, Method: method}
}
