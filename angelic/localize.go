package angelic

import (
	"math"
	"sort"
)

// Spectrum is what one test run covered.
type Spectrum struct {
	// Test names the test, for messages.
	Test string
	// Passed reports whether the test passed in its coverage run.
	Passed bool
	// Reached lists the IDs of the sites the test reached, in any order.
	Reached []int
	// Outcomes are, for the conditions among Reached, the values they
	// took in the run ([0] false, [1] true); nil for the others.
	Outcomes map[int][2]bool
}

// Suspicion is a site's rank in the fault localisation.
type Suspicion struct {
	// Site is the site ID.
	Site int
	// Score is the Ochiai coefficient, in [0, 1].
	Score float64
	// Failed and Passed count the failing and passing tests reaching the site.
	Failed, Passed int
	// Branch is, for a condition scored by the tests where it took one
	// value (its branch, see Localize), that value: "true" or "false";
	// "" when scored by the tests reaching it.
	Branch string
	// Tier is the caller's tie-break (lower first) for equal scores.
	Tier int
}

// Ochiai is ef / sqrt(totalFailed * (ef + ep)), 0 when undefined.
func Ochiai(ef, ep, totalFailed int) float64 {
	if ef == 0 || totalFailed == 0 {
		return 0
	}
	return float64(ef) / math.Sqrt(float64(totalFailed)*float64(ef+ep))
}

// Localize ranks the sites reached by at least one failing test, most
// suspicious first; equal scores are ordered by tier(site) (lower first; nil
// means one tier) and then by site ID. A site reached twice by a test counts
// once.
//
// A condition (a site with Spectrum.Outcomes) scores the most of its
// Ochiai over the tests reaching it and over the tests where it took
// each value (predicate spectra, as in statistical debugging: Liblit et
// al., PLDI 2005). A condition that every test evaluates and only the
// failing one finds true is as suspicious as the branch it opens
// (gorilla/mux's `match.MatchErr == ErrMethodMismatch`, evaluated on
// every match, true in one failing and eight passing tests); without it
// the branch's statements rank above it, and the condition below the
// search's cut.
func Localize(spectra []Spectrum, tier func(site int) int) []Suspicion {
	totalFailed := 0
	counts := map[int]*Suspicion{}
	// took counts, per condition and value, the failing and passing
	// tests where it took that value.
	type tally struct{ failed, passed [2]int }
	took := map[int]*tally{}
	for _, sp := range spectra {
		if !sp.Passed {
			totalFailed++
		}
		for id, o := range sp.Outcomes {
			t := took[id]
			if t == nil {
				t = &tally{}
				took[id] = t
			}
			for v := range 2 {
				switch {
				case !o[v]:
				case sp.Passed:
					t.passed[v]++
				default:
					t.failed[v]++
				}
			}
		}
		seen := make(map[int]bool, len(sp.Reached))
		for _, id := range sp.Reached {
			if seen[id] {
				continue
			}
			seen[id] = true
			s := counts[id]
			if s == nil {
				s = &Suspicion{Site: id}
				counts[id] = s
			}
			if sp.Passed {
				s.Passed++
			} else {
				s.Failed++
			}
		}
	}
	var out []Suspicion
	for _, s := range counts {
		if s.Failed == 0 {
			continue
		}
		s.Score = Ochiai(s.Failed, s.Passed, totalFailed)
		if t := took[s.Site]; t != nil {
			for v, name := range []string{"false", "true"} {
				if b := Ochiai(t.failed[v], t.passed[v], totalFailed); b > s.Score {
					s.Score, s.Branch = b, name
				}
			}
		}
		if tier != nil {
			s.Tier = tier(s.Site)
		}
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		if a.Tier != b.Tier {
			return a.Tier < b.Tier
		}
		return a.Site < b.Site
	})
	return out
}
