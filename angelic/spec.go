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
	// Examples is the number of examples, Distinct the number of
	// distinct states.
	Examples, Distinct int
	// True and False count the distinct states needing each outcome.
	True, False int
	// Conflict names two origins with the same state and different needs,
	// "" if none.
	Conflict string
}

// Summarize counts examples, distinct states and needed outcomes.
func Summarize(examples []Example) Summary {
	s := Summary{Examples: len(examples)}
	first := map[string]Example{}
	var keys []string
	for _, ex := range examples {
		prev, ok := first[ex.State]
		if !ok {
			first[ex.State] = ex
			keys = append(keys, ex.State)
			continue
		}
		if prev.Want != ex.Want && s.Conflict == "" {
			s.Conflict = fmt.Sprintf("%s needs %v and %s needs %v in the same state", prev.Origin, prev.Want, ex.Origin, ex.Want)
		}
	}
	sort.Strings(keys)
	s.Distinct = len(keys)
	for _, k := range keys {
		if first[k].Want {
			s.True++
		} else {
			s.False++
		}
	}
	return s
}

// Constant reports whether every distinct state needs the same outcome
// (and no state needs both).
func (s Summary) Constant() bool {
	return s.Conflict == "" && s.Distinct > 0 && (s.True == 0 || s.False == 0)
}

// Trivial says why the examples cannot specify a condition worth
// synthesizing, or "" when they can: fewer than two distinct states, or
// every state needing the same outcome (the "repair" would be a constant
// condition that only looks like one), or the same state needing both.
func (s Summary) Trivial() string {
	switch {
	case s.Conflict != "":
		return "contradictory examples: " + s.Conflict
	case s.Distinct < 2:
		return fmt.Sprintf("%d distinct observed state(s); at least 2 are needed", s.Distinct)
	case s.True == 0:
		return fmt.Sprintf("all %d distinct states need false: the fix would be a constant", s.Distinct)
	case s.False == 0:
		return fmt.Sprintf("all %d distinct states need true: the fix would be a constant", s.Distinct)
	}
	return ""
}
