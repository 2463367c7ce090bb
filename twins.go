package nopol

import (
	"context"
	"slices"
	"strings"

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
// site in rank order, through one schema per layer (the j-th twins of
// the sites: one build when each site has one twin; a schema per twin
// when a layer's cannot be built); the first that passes the
// suite, and again as a patched file, is the patch. It returns how many
// twins of how many sites it tried.
//
// With orphans, only the twins written with orphans (collect's
// orphanTwins) are validated: the early tier of that name, before the
// first, since what a deleted check left behind says what it tested.
func (r *repairer) twins(ctx context.Context, ranked []angelic.Suspicion, orphans bool) (n, k int, done bool, err error) {
	type target struct {
		s    angelic.Suspicion
		st   style
		exit collect.Exit
	}
	var targets []target
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
			if orphans && !strings.HasPrefix(exit.From, collect.OrphansFrom) {
				continue
			}
			tried := slices.ContainsFunc(r.res.Candidates, func(c CandidateReport) bool {
				return c.Site == site.ID && c.Method == "twin" && c.Condition == exit.Guard
			})
			if tried {
				continue
			}
			if why := antiPattern(site, nil, candidate{src: exit.Guard, method: "twin"}); why != "" {
				rep := r.siteReport(site, st, s.Score, "twin")
				rep.Rejected = []string{exit.Guard + ": " + why}
				rep.Outcome = "the twin guard breaks an anti-pattern: " + why
				r.res.Sites = append(r.res.Sites, rep)
				continue
			}
			found = true
			targets = append(targets, target{s, st, exit})
		}
		if found {
			k++
		}
	}
	if len(targets) == 0 {
		return 0, k, false, nil
	}
	// The twins of one site overlap in its source, so no schema holds two
	// of them: the j-th twin of every site goes to layer j, one schema
	// per layer, built when its first twin is validated (a lexer's
	// switches offer two twins each at ten sites: two builds, not twenty).
	var layers [][]collect.SchemaPart
	layer, offset := make([]int, len(targets)), make([]int, len(targets))
	perSite := map[int]int{}
	for i, t := range targets {
		j := perSite[t.s.Site]
		perSite[t.s.Site]++
		if j == len(layers) {
			layers = append(layers, nil)
		}
		layer[i], offset[i] = j, len(layers[j])
		layers[j] = append(layers[j], collect.SchemaPart{Site: r.prog.Sites[t.s.Site], Style: t.st.guard, Candidates: []string{t.exit.Guard}})
	}
	schemas := make([]suiteRunner, len(layers))
	defer func() {
		for _, s := range schemas {
			if s != nil {
				s.Close()
			}
		}
	}()
	for i, t := range targets {
		if err := ctx.Err(); err != nil {
			return n, k, false, err
		}
		if offset[i] == 0 { // its layer's first twin
			if schemas[layer[i]], err = r.sharedSchema(ctx, layers[layer[i]], "twins", "twin"); err != nil {
				return n, k, false, err
			}
		}
		n++
		site := r.prog.Sites[t.s.Site]
		c := candidate{src: t.exit.Guard, method: "twin"}
		rep := r.siteReport(site, t.st, t.s.Score, "twin")
		r.logf("twin %d: %s:%d %s `%s`: `if %s { %s }` from %s", n, rep.File, rep.Line, site.Func, oneLine(site.Original), t.exit.Guard, t.exit.Body, t.exit.From)
		r.ranked, r.spec = nil, nil // validated as written, not against recorded states
		done, err := r.validateShared(ctx, schemas[layer[i]], offset[i], site, t.st, []candidate{c}, "twin", &rep)
		r.logf("twin %d: %s", n, rep.Outcome)
		r.res.Sites = append(r.res.Sites, rep)
		if err != nil || done {
			return n, k, done, err
		}
	}
	return n, k, false, nil
}
