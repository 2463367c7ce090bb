package angelic

import (
	"fmt"
	"sort"
)

// Example is one evaluation of the site in a run that passed: the observed
// state, as a canonical key, and the outcome it had (which is the outcome
// it needs, since the run passed).
type Example struct {
	// State identifies the observed values; equal states have equal keys.
	State string
	// Want is the outcome needed at this state.
	Want bool
	// Origin names the test (and constituent) the example comes from.
	Origin string
}

// Summary describes a site's examples.
type Summary struct {
	// Examples is the number of examples, Distinct the number of distinct
	// states that are not don't-cares.
	Examples, Distinct int
	// True and False count the distinct states needing each outcome.
	True, False int
	// DontCare lists the states that had both outcomes in passing runs,
	// sorted; Conflict describes the first such pair of examples.
	DontCare []string
	Conflict string
}

// Summarize counts examples, distinct states and needed outcomes. A state
// that had both outcomes in runs that passed is a don't-care: some test
// passed with each outcome there (the state does not observe what decides,
// or a passing test does not check the difference), so it specifies
// nothing; it is counted apart and should be left out of the examples.
// Validating candidates on the whole suite makes up for it.
func Summarize(examples []Example) Summary {
	s := Summary{Examples: len(examples)}
	first := map[string]Example{}
	both := map[string]bool{}
	var keys []string
	for _, ex := range examples {
		prev, ok := first[ex.State]
		if !ok {
			first[ex.State] = ex
			keys = append(keys, ex.State)
			continue
		}
		if prev.Want != ex.Want && !both[ex.State] {
			both[ex.State] = true
			s.DontCare = append(s.DontCare, ex.State)
			if s.Conflict == "" {
				s.Conflict = fmt.Sprintf("%s needs %v and %s needs %v in the same state", prev.Origin, prev.Want, ex.Origin, ex.Want)
			}
		}
	}
	sort.Strings(s.DontCare)
	for _, k := range keys {
		switch {
		case both[k]:
			continue
		case first[k].Want:
			s.True++
		default:
			s.False++
		}
		s.Distinct++
	}
	return s
}

// IsDontCare reports whether state is one of s's don't-cares.
func (s Summary) IsDontCare(state string) bool {
	i := sort.SearchStrings(s.DontCare, state)
	return i < len(s.DontCare) && s.DontCare[i] == state
}

// Constant reports whether every distinct state (don't-cares aside) needs
// the same outcome.
func (s Summary) Constant() bool {
	return s.Distinct > 0 && (s.True == 0 || s.False == 0)
}

// Trivial says why the examples cannot specify a condition worth
// synthesizing, or "" when they can: fewer than two distinct states, or
// every state needing the same outcome (the "repair" would be a constant
// condition that only looks like one).
func (s Summary) Trivial() string {
	dc := ""
	if len(s.DontCare) > 0 {
		dc = fmt.Sprintf(" (and %d don't-care states: %s)", len(s.DontCare), s.Conflict)
	}
	switch {
	case s.Distinct < 2:
		return fmt.Sprintf("%d distinct observed state(s)%s; at least 2 are needed", s.Distinct, dc)
	case s.True == 0:
		return fmt.Sprintf("all %d distinct states need false%s: the fix would be a constant", s.Distinct, dc)
	case s.False == 0:
		return fmt.Sprintf("all %d distinct states need true%s: the fix would be a constant", s.Distinct, dc)
	}
	return ""
}
