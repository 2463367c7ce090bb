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
	// Took says, for the conditions among Reached, which outcomes the
	// test saw: [false seen, true seen]. Nil when unknown.
	Took map[int][2]bool
}

// Suspicion is a site's rank in the fault localisation.
type Suspicion struct {
	// Site is the site ID.
	Site int
	// Score is the Ochiai coefficient, in [0, 1].
	Score float64
	// Failed and Passed count the failing and passing tests reaching the
	// site, or, when Outcome is set, those seeing the condition take it.
	Failed, Passed int
	// Outcome is "true" or "false" when the score is that of the
	// condition's predicate (it evaluated to that value), "" when it is
	// the site's reach.
	Outcome string
	// Reach is the Ochiai coefficient of the site's reach alone: Score
	// when Outcome is "".
	Reach float64
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
// suspicious first; equal scores are ordered by tier(s) (lower first; nil
// means one tier; s has its score, counts and Outcome) and then by site ID. A site reached twice by a test counts
// once.
//
// A condition scores the best of its reach and its two predicates, "it
// was true" and "it was false" (Spectrum.Took; predicate-based
// localisation, as in Liblit et al.'s statistical debugging): a condition
// that every test evaluates but only the failing ones find true is as
// suspicious as the branch it wrongly takes, not less.
func Localize(spectra []Spectrum, tier func(s Suspicion) int) []Suspicion {
	totalFailed := 0
	counts := map[int]*Suspicion{}
	// took counts, per site and outcome (0 false, 1 true), the failing
	// and passing tests that saw it.
	took := map[int]*[2][2]int{}
	for _, sp := range spectra {
		if !sp.Passed {
			totalFailed++
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
			t, ok := sp.Took[id]
			if !ok {
				continue
			}
			if took[id] == nil {
				took[id] = &[2][2]int{}
			}
			for o, saw := range t {
				switch {
				case !saw:
				case sp.Passed:
					took[id][o][1]++
				default:
					took[id][o][0]++
				}
			}
		}
	}
	var out []Suspicion
	for _, s := range counts {
		if s.Failed == 0 {
			continue
		}
		s.Score = Ochiai(s.Failed, s.Passed, totalFailed)
		s.Reach = s.Score
		if t := took[s.Site]; t != nil {
			for o, c := range t {
				if sc := Ochiai(c[0], c[1], totalFailed); sc > s.Score {
					s.Score, s.Failed, s.Passed = sc, c[0], c[1]
					s.Outcome = [2]string{"false", "true"}[o]
				}
			}
		}
		if tier != nil {
			s.Tier = tier(*s)
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
