package nopol

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/nopol-go/nopol/angelic"
	"github.com/nopol-go/nopol/collect"
)

// The screen of the guard sites (predicate switching, Zhang, Gupta and
// Gupta, ICSE 2006, rendered for exits): before the later tiers search
// the guard sites' exits, each guard site of the late list, up to
// screenSites of them, has its first exit forced in the whole of each
// of the first screenTests failing tests. A site where a failing test
// then passes is one where leaving early is what that test needs: those
// sites, where more failing tests pass first, then in rank order, are
// searched in turn with the late list's own order (interleave).
//
// It is off by default (Options.Screen): on the training split it moved
// the developer's site, or function, forward in three real bugs, and
// the conditions synthesized there were wrong, with no correct patch
// gained (benchmarks/RESULTS.md).
//
// A missing guard's site is often run by most passing tests (the first
// statement of a loop over every field), so suspiciousness ranks it low,
// beyond the sites the later tiers reach (go-toml's encodeTable misses a
// `continue` at a site ranked 225th of 288).
//
// A test that passes leaving early at many sites says little about
// where (it expects an error, which any return of one gives, or an empty
// output): its passes are not counted (screenVague). go-toml's
// TestIssue1028 passes at 70 of 147 sites, and the first searched gave
// plausible but wrong patches (`if v.Kind() == reflect.Map { return
// d.unmarshalString(value, v) }`).
const (
	screenSites = 200
	screenTests = 2
	// screenShare is the share of the time limit that the screen's
	// runs may take, estimated from the failing tests' baseline times
	// (it cuts the number of sites screened where tests are slow).
	screenShare = 10
	// A failing test that passes at more than screenFew sites and more
	// than one in screenVague of the sites screened says little about
	// where: its passes move no site.
	screenFew   = 3
	screenVague = 10
)

// screened is a site's screen: the failing tests screened that passed
// with its exit forced, a bit per test (then, among the sites moved, how
// many of them count).
type screened struct {
	site   angelic.Suspicion
	passed int
}

// screenExit is the style the screen forces at a site: its first exit
// among the late styles (continue in a loop), or none.
func (r *repairer) screenExit(site collect.Site) (style, bool) {
	for _, st := range stylesOf(site) {
		if st.late && st.name == "return" && r.strategyWanted(st) {
			return st, true
		}
	}
	return style{}, false
}

// screenCap is how many sites the screen may force: screenSites, fewer
// when the failing tests screened are slow.
func (r *repairer) screenCap(tests []testKey) int {
	var per time.Duration
	for _, k := range tests {
		per += r.runTime(k) + 5*time.Millisecond // a process start
	}
	if per <= 0 {
		return screenSites
	}
	budget := r.opts.Timeout / screenShare
	return min(screenSites, int(budget/per))
}

// screen reorders the late list of guard sites (see screenSites) and
// logs the sites it moved. Its runs count as work outside the search's
// (not in the effort bound: they are bounded by screenSites).
func (r *repairer) screen(ctx context.Context, late []angelic.Suspicion) ([]angelic.Suspicion, error) {
	tests := r.failing[:min(len(r.failing), screenTests)]
	n := min(len(late), r.screenCap(tests))
	if n == 0 {
		return late, nil
	}
	start := time.Now()
	r.logf("screen: forcing the first exit of %s in %s", plural(n, "guard site"), plural(len(tests), "failing test"))
	out := make([]screened, n)
	var (
		mu       sync.Mutex
		firstErr error
		wg       sync.WaitGroup
	)
	next := make(chan int)
	for range max(1, r.opts.Parallel) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				passed, runs, units, err := r.screenSite(ctx, late[i], tests)
				mu.Lock()
				out[i] = screened{late[i], passed}
				r.res.Runs += runs
				r.work += units
				r.surplus += units
				if err != nil && firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
			}
		}()
	}
	for i := range n {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return late, firstErr
	}
	if err := ctx.Err(); err != nil {
		return late, err
	}
	moved, vague := screenMoves(out, len(tests))
	for t, passes := range vague {
		if passes > 0 {
			r.logf("screen: %s passes leaving early at %d of %d guard sites: too many to say where", tests[t].name, passes, n)
		}
	}
	slices.SortStableFunc(moved, func(a, b screened) int { return cmp.Compare(b.passed, a.passed) })
	var promoted []angelic.Suspicion
	for _, s := range moved {
		promoted = append(promoted, s.site)
		site := r.prog.Sites[s.site.Site]
		r.vlogf("screen: %s:%d %s `%s`: %d of %d failing tests pass leaving there", r.relPath(site.File), site.Line, site.Func, oneLine(site.Original), s.passed, len(tests))
	}
	r.logf("screen: %s of %d where a failing test passes leaving early, searched in turn with the others in rank order (%s)", plural(len(moved), "guard site"), n, time.Since(start).Round(time.Millisecond))
	return interleave(promoted, late), nil
}

// screenMoves are the sites of out where a failing test that is not
// vague passed, each with how many such tests passed, in out's order. A
// test is vague when it passed at more than screenFew sites and more
// than one in screenVague of out (it expects an error, which any return
// of one gives, or an empty output): vague[t] is then its count of
// passes, else 0.
func screenMoves(out []screened, tests int) (moved []screened, vague []int) {
	vague = make([]int, tests)
	for t := range tests {
		passes := 0
		for _, s := range out {
			if s.passed&(1<<t) != 0 {
				passes++
			}
		}
		if passes > max(screenFew, len(out)/screenVague) {
			vague[t] = passes
		}
	}
	for _, s := range out {
		count := 0
		for t := range tests {
			if s.passed&(1<<t) != 0 && vague[t] == 0 {
				count++
			}
		}
		if count > 0 {
			moved = append(moved, screened{s.site, count})
		}
	}
	return moved, vague
}

// interleave merges two rankings of the same sites, a first: a's first
// site, b's first not yet taken, a's second, and so on. The screen's
// sites come early without pushing the ones suspiciousness ranks first
// back more than twice as far: a test that expects an error passes when
// many sites leave with one (go-toml's TestIssue1028 at 70 of 147), and
// the screen forces only a site's first exit, not the one that may fix
// it (a sibling's error return).
func interleave(a, b []angelic.Suspicion) []angelic.Suspicion {
	out := make([]angelic.Suspicion, 0, len(b))
	taken := map[int]bool{}
	take := func(list []angelic.Suspicion, i *int) {
		for *i < len(list) {
			s := list[*i]
			*i++
			if !taken[s.Site] {
				taken[s.Site] = true
				out = append(out, s)
				return
			}
		}
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		take(a, &i)
		take(b, &j)
	}
	return out
}

// screenSite forces site s's screen exit in the whole of each test;
// passed has bit i set when tests[i] passed; runs counts its runs (none
// at a site without an exit), units their work.
func (r *repairer) screenSite(ctx context.Context, s angelic.Suspicion, tests []testKey) (passed, runs, units int, err error) {
	site := r.prog.Sites[s.Site]
	st, ok := r.screenExit(site)
	if !ok {
		return 0, 0, 0, nil
	}
	for i, k := range tests {
		res, retried, err := r.runForced(ctx, r.forcedRun(k, site, st, st.force, collect.ModeCover))
		runs++
		if retried {
			runs++
		}
		units += testWork(res.TimedOut)
		if err != nil {
			return passed, runs, units, fmt.Errorf("running %s with site %d forced: %w", k.name, site.ID, err)
		}
		if res.Passed && !res.TimedOut {
			passed |= 1 << i
		}
	}
	return passed, runs, units, nil
}
