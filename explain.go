package nopol

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nopol-go/nopol/collect"
	"github.com/nopol-go/nopol/synth"
)

// Explanation says why a patch is what it is: what the failing tests
// needed at the site, what the condition was checked against, what else
// was possible, and how far to trust it. It is deterministic: the same
// repair gives the same explanation (no times, no paths outside the module).
type Explanation struct {
	// Repaired are the failing tests the patch makes pass.
	Repaired []string `json:"repaired"`
	// Needs are the values the failing tests needed at the site
	// ("TestX=false"; per evaluation, "TestX=flip@eval3+5" for the
	// evaluations negated, "TestX=value@n.child < 0" for an observed
	// predicate's value at every evaluation, "leave@p == nil" at a
	// guard), and Fragments where they were forced when a test was split
	// ("TestX: x_test.go:12 (iteration 2)").
	Needs     []string `json:"needs"`
	Fragments []string `json:"fragments"`
	// States counts the evaluations recorded at the site in the passing
	// runs and the failing ones with their values, Distinct their distinct
	// states: the condition gives every one of them its needed outcome.
	// Both are 0 for a mutant of the fallback (validated by the suite
	// alone).
	States   int `json:"states"`
	Distinct int `json:"distinct"`
	// Origin says where the condition comes from: "a change of one
	// operator or clause of the original (mutation)", "synthesized from
	// the recorded states", ...
	Origin string `json:"origin"`
	// Alternatives are the other candidates of the site that fit every
	// recorded state, in rank order, not validated: the ranking put the
	// patch first.
	Alternatives []string `json:"alternatives"`
	// Rejected are the candidates of the site left out as anti-patterns,
	// with the rule and why.
	Rejected []string `json:"rejected"`
	// Differences are states near the recorded ones (one observed value
	// moved) where the patched condition and the original disagree and no
	// test has a state: behaviour changes no test checks (see
	// diffstates.go).
	Differences []string `json:"differences"`
	// Unchecked are the passing tests that passed with the other outcome
	// too at some evaluations where the failing tests needed it: their
	// recorded outcomes there were left out of the states, so what the
	// patch changes for them no test checks ("TestX: 2 evaluations").
	Unchecked []string `json:"unchecked"`
	// Confidence is "high", "medium" or "low"; Reasons say why, one
	// factor each.
	Confidence string   `json:"confidence"`
	Reasons    []string `json:"reasons"`
}

// Confidence levels of an Explanation.
const (
	ConfidenceHigh   = "high"
	ConfidenceMedium = "medium"
	ConfidenceLow    = "low"
)

// minStates is the number of distinct recorded states below which a
// synthesized condition rests on too little to be trusted.
const minStates = 3

// maxCloseTokens is the token edit distance up to which a condition is
// close to the original: a clause added (|| v > hi), an operand or an
// operator changed.
const maxCloseTokens = 4

// explain builds the explanation of the patch c at the site of rep, with
// the other candidates of the site in rank order.
func (r *repairer) explain(site collect.Site, st style, c candidate, rep *SiteReport, ranked []candidate, spec *synth.Spec) *Explanation {
	e := &Explanation{Needs: rep.Needs, States: rep.Examples, Distinct: rep.Distinct, Rejected: rep.Rejected, Unchecked: rep.Unchecked}
	var idle []string
	if spec != nil && c.term != nil {
		var orig *synth.Term
		if site.Kind == collect.Cond {
			orig, _ = synth.ParseTerm(spec, site.Original)
		}
		if orig != nil || site.Kind == collect.Guard {
			e.Differences = differences(spec, orig, c.term)
			idle = idleClauses(spec, orig, c.term)
		}
	}
	for _, k := range r.failing {
		e.Repaired = append(e.Repaired, k.name)
	}
	for _, f := range rep.Fragments {
		e.Fragments = append(e.Fragments, f.Test+": "+f.String()+mixedValue(rep.Fragments, f))
	}
	// The candidates ranked before the patch were validated and failed.
	// Those that fit the failing tests' states only (simplifications)
	// are not said to fit.
	if i := slices.IndexFunc(ranked, func(o candidate) bool { return o.src == c.src }); i >= 0 {
		for _, o := range ranked[i+1:] {
			if fitsFailingOnly(spec, o) {
				continue
			}
			e.Alternatives = append(e.Alternatives, o.src)
		}
	}
	var low, medium []string
	var high []string
	npefix := c.method == "npefix"
	// A twin written with orphans (collect's orphans.go).
	orphans := c.method == "twin" && strings.HasPrefix(siblingOf(site, st), collect.OrphansFrom)
	fallback := spec == nil && !npefix && c.method != "sibling" && c.method != "twin" && c.method != "bounds" && c.method != "nil-check" && c.method != "smell" // the fallback's mutants are not checked against recorded states
	switch {
	case c.method == "mutation" && isAlternate(site, c.src):
		e.Origin = "the original with an operand replaced by an expression of its type that the function writes and ties to it: a boolean local refined from the operand, or another method of the same receiver, called with the same arguments"
		medium = append(medium, "an operand replaced: the tests do not say whether the original operand was meant somewhere else")
		if c.term == nil {
			medium = append(medium, "checked by the test suite only, not against recorded states")
		}
	case npefix:
		e.Origin = fmt.Sprintf("NpeFix: the nil operand a failing test dereferenced is replaced where it is nil (strategy %s)", st.strategy)
		medium = append(medium, "a nil value replaced: the tests do not say whether the nil is a bug where it was made")
	case fallback:
		e.Origin = "a change of one operator or clause of the original, found by the mutation fallback (no angelic value fits: the condition must change value within a test)"
		high = append(high, "a one-operator change of the original condition")
		medium = append(medium, "checked by the test suite only, not against recorded states")
	case c.method == "mutation" && c.added != "":
		e.Origin = "the original with a clause added to one of its operands, an observed value that fits every recorded state with it"
		medium = append(medium, "a clause added to the original condition: the tests do not say whether another observed value would do")
	case c.method == "synthesis" && c.added != "":
		e.Origin = fmt.Sprintf("the original with a clause, %s, synthesized for one of its operands from the recorded states where the clause decides the outcome", c.added)
		medium = append(medium, "a clause added to the original condition: the tests do not say whether another clause would do")
	case c.leastChange != "":
		e.Origin = fmt.Sprintf("a change of one operator or literal of the original that changes its outcome at fewer of the failing tests' recorded states than `%s`, which fits them all: the suite passes without the other changes", c.leastChange)
		high = append(high, "a one-operator change of the original condition")
		medium = append(medium, "keeps the original's outcome at failing tests' states where the forced value differed: the tests do not say which outcome those need")
	case fitsFailingOnly(spec, c):
		e.Origin = "a change of one operator or clause of the original that fits the failing tests' recorded states; at the passing tests' states it does not fit, they recorded the original's outcome, which the suite does not need"
		high = append(high, "a one-operator change of the original condition")
		medium = append(medium, "differs from the outcome passing tests recorded (the original's) at some states")
	case c.method == "mutation":
		e.Origin = "a change of one operator or clause of the original that fits every recorded state"
		high = append(high, "a one-operator change of the original condition")
	case c.method == "smell":
		e.Origin = fmt.Sprintf("a change of one operator or literal of the original condition, which is wrong on its face (%s)", smellAt(site.Original, site.ElseAfter, valuesOf(site)))
		high = append(high, "a one-operator change of the original condition")
		medium = append(medium, "checked by the test suite only, not against recorded states")
	case c.method == "bounds" && slices.Contains(reusedBounds(site.Original), c.src):
		e.Origin = "the original condition with one operator changed so that its own length test comes before an index: a failing test panicked there with an index out of range"
		high = append(high, "a one-operator change of the original condition", "the check the runtime made when the failing test panicked, now in the condition")
	case c.method == "bounds":
		e.Origin = "the original condition with a bounds check before an index: a failing test panicked there with an index out of range"
		high = append(high, "the check the runtime made when the failing test panicked, now in the condition")
	case c.method == "nil-check":
		e.Origin = "a nil check where a failing test panicked with a nil dereference: the check the runtime made, joined to the condition or as a guard before the statement"
		medium = append(medium, "the nil is tolerated where it is dereferenced: the tests do not say whether it is a bug where it was made")
	case c.method == "sibling" && site.Kind == collect.Cond && slices.Contains(site.SameBody, c.src):
		e.Origin = "the condition of the other ifs of this function whose block is written as this one's"
		high = append(high, "the condition its copies test")
		medium = append(medium, "checked by the test suite only, not against recorded states")
	case c.method == "sibling" && site.Kind == collect.Cond:
		e.Origin = "the condition that the sibling functions, copies of this one with a name one word away, write at the same place"
		high = append(high, "the condition its copies write")
		medium = append(medium, "checked by the test suite only, not against recorded states")
	case c.method == "sibling":
		from := siblingOf(site, st)
		e.Origin = fmt.Sprintf("the guard of %s, a sibling function, its condition and exit as written there, with this function's name word in place of the sibling's", from)
		if ex, ok := exitOf(site, st.guard); ok && ex.Params != "" {
			e.Origin += " and its parameters read as this function's (" + ex.Params + ")"
		}
		medium = append(medium, fmt.Sprintf("a guard %s already has: the tests do not say whether this function needs all of it", from))
	case orphans:
		used := strings.TrimPrefix(siblingOf(site, st), collect.OrphansFrom)
		e.Origin = fmt.Sprintf("a guard of this function, its exit kept, with operands replaced by what nothing else in the package uses (%s): what a deleted check left behind", used)
		medium = append(medium, fmt.Sprintf("a guard written with %s, which nothing else uses: the tests do not say whether the deleted check stood here", used))
	case c.method == "twin":
		from := siblingOf(site, st)
		e.Origin = fmt.Sprintf("a guard %s writes in the same place (after the same statement, or first in a loop over the same values), its condition and exit as written there", from)
		medium = append(medium, fmt.Sprintf("a guard %s already has in the same place: the tests do not say whether this place needs all of it", from))
	case c.method == "guess" && r.guessed[site.ID][c.src].Combine != collect.CombineNone:
		e.Origin = "the original condition joined with an observed predicate (a clause added), as written: a failing test passed with its value forced at every evaluation of the site"
		medium = append(medium, "per-evaluation angelic values: the clause is a guess a failing test passed with")
	case c.method == "guess":
		e.Origin = "an observed predicate over the original's operands, as written: a failing test passed with its value forced at every evaluation of the site"
		medium = append(medium, "per-evaluation angelic values: the predicate is a guess a failing test passed with")
	case rep.Method == "per-evaluation" && rep.joined:
		e.Origin = "synthesized from recorded states with the values of the original condition joined with an observed predicate (a clause added) at every evaluation"
		low = append(low, "per-evaluation angelic values: the specification comes from a guess, the original condition with a clause added")
	case rep.Method == "per-evaluation" && rep.guessed:
		e.Origin = "synthesized from recorded states with the values negated at the evaluations where an observed predicate holds"
		low = append(low, "per-evaluation angelic values: the specification comes from a guess, the evaluations where an observed predicate holds")
	case rep.negatedInFragments():
		e.Origin = "synthesized from recorded states with the original condition negated at every evaluation in the failing fragments of the failing tests, as written in the others"
		medium = append(medium, "per-evaluation angelic values: the failing fragments need the original condition negated at each of their evaluations")
	case rep.Method == "per-evaluation" && rep.everyEval && rep.negated == 0:
		e.Origin = "synthesized from recorded states with the original condition negated at every evaluation"
		medium = append(medium, "per-evaluation angelic values: the failing tests need the original condition negated at each of their evaluations")
	case rep.Method == "per-evaluation" && rep.negated > 1:
		e.Origin = fmt.Sprintf("synthesized from recorded states with the values of %d evaluations negated, each after which a failing test failed", rep.negated)
		low = append(low, "per-evaluation angelic values: the specification comes from evaluations negated one failure at a time")
	case rep.Method == "per-evaluation":
		e.Origin = "synthesized from recorded states with the value of one evaluation negated"
		low = append(low, "per-evaluation angelic values: the specification comes from one negated evaluation")
	default:
		e.Origin = "synthesized from the recorded states"
	}
	switch st.name {
	case "guard":
		low = append(low, "a new guard around a statement: the tests do not say what else it should skip")
	case "return":
		if c.method == "sibling" || c.method == "twin" {
			break // said above
		}
		if st.late {
			low = append(low, fmt.Sprintf("a new guard that leaves with `%s` (strategy %s): the tests do not say where else it should leave", st.exit, st.strategy))
		} else {
			what := "returns zero values"
			switch {
			case strings.HasPrefix(st.exit, "continue"):
				what = "goes on to the loop's next iteration"
			case strings.HasPrefix(st.exit, "break"):
				what = "leaves the loop"
			}
			medium = append(medium, fmt.Sprintf("a new guard that %s (`%s`)", what, st.exit))
		}
	}
	if !fallback && !npefix && !orphans && c.method != "nil-check" && c.method != "smell" { // no states are recorded for those
		switch {
		case e.Distinct < minStates:
			low = append(low, fmt.Sprintf("%s only", plural(e.Distinct, "distinct recorded state")))
		case e.Distinct >= 10:
			high = append(high, fmt.Sprintf("fits %s", plural(e.Distinct, "distinct recorded state")))
		default:
			medium = append(medium, fmt.Sprintf("fits %s", plural(e.Distinct, "distinct recorded state")))
		}
	}
	for _, src := range idle {
		medium = append(medium, fmt.Sprintf("`%s` changes no recorded outcome: the tests do not say what it should do", src))
	}
	if c.written {
		high = append(high, "the file writes the changed comparison or connective elsewhere")
	}
	if c.unrelated {
		low = append(low, "shares none of the original condition's variables")
	}
	if r.tier == "deeper" {
		low = append(low, fmt.Sprintf("found at a site ranked after the first %d: the failing tests point at it weakly", r.opts.MaxSites))
	}
	if synthesizedCond(site, c) {
		if farFromOriginal(site, c) {
			medium = append(medium, "far from the original condition")
		} else {
			high = append(high, "close to the original condition")
		}
	}
	if len(e.Alternatives) > 0 && c.method != "mutation" {
		medium = append(medium, fmt.Sprintf("%s also fit the recorded states", plural(len(e.Alternatives), "other candidate")))
	}
	switch {
	case len(low) > 0:
		e.Confidence = ConfidenceLow
	case len(medium) > 0:
		e.Confidence = ConfidenceMedium
	default:
		e.Confidence = ConfidenceHigh
	}
	e.Reasons = append(append(append(e.Reasons, low...), medium...), high...)
	e.fill()
	return e
}

// siblingOf names the function whose return the exit of st borrows
// (collect.StrategySibling, collect.StrategyTwin).
func siblingOf(site collect.Site, st style) string {
	if e, ok := exitOf(site, st.guard); ok && e.From != "" {
		return e.From
	}
	return "a sibling"
}

// fill makes the nil lists of e empty (JSON [] never null).
func (e *Explanation) fill() {
	empty(&e.Repaired)
	empty(&e.Needs)
	empty(&e.Fragments)
	empty(&e.Alternatives)
	empty(&e.Rejected)
	empty(&e.Differences)
	empty(&e.Unchecked)
	empty(&e.Reasons)
}

// String renders e as indented text lines, as nopol fix prints it.
func (e *Explanation) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "confidence: %s (%s)\n", e.Confidence, strings.Join(e.Reasons, "; "))
	fmt.Fprintf(&b, "repairs: %s\n", strings.Join(e.Repaired, ", "))
	if len(e.Needs) > 0 {
		fmt.Fprintf(&b, "needed at the site: %s\n", strings.Join(e.Needs, ", "))
	}
	for _, f := range e.Fragments {
		fmt.Fprintf(&b, "  forced in %s\n", f)
	}
	fmt.Fprintf(&b, "origin: %s", e.Origin)
	if e.States > 0 {
		fmt.Fprintf(&b, " (%s, %d distinct)", plural(e.States, "state"), e.Distinct)
	}
	b.WriteString("\n")
	if len(e.Alternatives) > 0 {
		fmt.Fprintf(&b, "also fit, not validated: %s\n", strings.Join(quoted(e.Alternatives), ", "))
	}
	for _, d := range e.Differences {
		fmt.Fprintf(&b, "changes untested: %s\n", d)
	}
	if len(e.Unchecked) > 0 {
		fmt.Fprintf(&b, "pass either way where the failing tests need the change, not used as states: %s\n", strings.Join(e.Unchecked, ", "))
	}
	for _, r := range e.Rejected {
		fmt.Fprintf(&b, "rejected: %s\n", r)
	}
	return b.String()
}

func quoted(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = "`" + s + "`"
	}
	return out
}
