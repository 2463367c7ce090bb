package nopol

import (
	"context"
	"slices"

	"github.com/nopol-go/nopol/angelic"
	"github.com/nopol-go/nopol/collect"
)

// The twin tier: a twin guard (collect.StrategyTwin, a guard the file
// writes elsewhere after the same statement, or at the top of a loop with
// the same header or over values of the same type) is a whole patch,
// condition and exit, so it is validated as it is at the first
// maxTwinSites guard sites of the ranking that have one, whether or not
// the site is angelic. Its site is often run by most
// passing tests (the first statement of a loop over every entry), which
// ranks it low, and its exit is often needed at some evaluations only
// (the empty entries), which no constant angelic value says. Searched
// after the mutants of the original conditions (a smaller edit), before
// the other exits.

// maxTwinSites bounds the guard sites whose twins the tier validates.
const maxTwinSites = 10

// twins validates the twin guards of the guard sites of ranked, site by
// site in rank order; the first that passes the suite is the patch. It
// returns how many twins of how many sites it tried.
func (r *repairer) twins(ctx context.Context, ranked []angelic.Suspicion) (n, k int, done bool, err error) {
	for _, s := range ranked {
		if k >= maxTwinSites {
			break
		}
		site := r.prog.Sites[s.Site]
		if site.Kind != collect.Guard {
			continue
		}
		found := false
		for _, st := range stylesOf(site) {
			if st.strategy != collect.StrategyTwin || st.late || !r.strategyWanted(st) {
				continue
			}
			ei, _ := st.guard.Exit()
			exit := site.Exits[ei]
			tried := slices.ContainsFunc(r.res.Candidates, func(c CandidateReport) bool {
				return c.Site == site.ID && c.Method == "twin" && c.Condition == exit.Guard
			})
			if tried {
				continue
			}
			if err := ctx.Err(); err != nil {
				return n, k, false, err
			}
			found = true
			n++
			c := candidate{src: exit.Guard, method: "twin"}
			rep := r.siteReport(site, st, s.Score, "twin")
			if why := antiPattern(site, nil, c); why != "" {
				rep.Rejected = append(rep.Rejected, c.src+": "+why)
				rep.Outcome = "the twin guard breaks an anti-pattern: " + why
				r.res.Sites = append(r.res.Sites, rep)
				continue
			}
			r.logf("twin %d: %s:%d %s `%s`: `if %s { %s }` from %s", n, rep.File, rep.Line, site.Func, oneLine(site.Original), exit.Guard, exit.Body, exit.From)
			r.ranked, r.spec = nil, nil // validated as written, not against recorded states
			done, err := r.validateSchema(ctx, site, st, []candidate{c}, 0, "twin", &rep)
			r.logf("twin %d: %s", n, rep.Outcome)
			r.res.Sites = append(r.res.Sites, rep)
			if err != nil || done {
				return n, k + 1, done, err
			}
		}
		if found {
			k++
		}
	}
	return n, k, false, nil
}
