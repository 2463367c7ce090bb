package nopol

import (
	"strings"
	"testing"

	"github.com/nopol-go/nopol/collect"
	"github.com/nopol-go/nopol/synth"
)

// TestSpeculative checks each rule that withholds a plausible patch, on a
// patch that breaks it and on a near one that does not.
func TestSpeculative(t *testing.T) {
	spec := &synth.Spec{Inputs: []synth.Input{
		{Expr: "c == nil", Kind: synth.Bool}, {Expr: "c.Name", Kind: synth.String}, {Expr: "len(c.Name)", Kind: synth.Int},
		{Expr: "key.IsLast()", Kind: synth.Bool}, {Expr: "value.Data == nil", Kind: synth.Bool},
	}}
	cand := func(src string) candidate {
		term, err := synth.ParseTerm(spec, src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		return candidate{src: src, term: term, method: "synthesis"}
	}
	cands := func(srcs ...string) []candidate {
		var out []candidate
		for _, s := range srcs {
			out = append(out, cand(s))
		}
		return out
	}
	cond := collect.Site{Kind: collect.Cond, Original: "c == nil"}
	condStyle := style{name: "cond"}
	errNew := style{name: "return", strategy: collect.StrategyErrNew, exit: `return fmt.Errorf("f: invalid c")`}
	zero := style{name: "return", strategy: collect.StrategyZero, exit: "return nil"}
	guard := collect.Site{Kind: collect.Guard, Original: "use(c)"}
	unrelated := cand("key.IsLast()")
	unrelated.unrelated = true
	mutant := cand(`c == nil || c.Name == "" && key.IsLast()`)
	mutant.method = "mutation"
	for _, tc := range []struct {
		name   string
		site   collect.Site
		st     style
		c      candidate
		ranked []candidate
		failed string
		rule   string // "" when the patch is printed
		// negatedIn: the specification negates the original in the
		// failing fragments only.
		negatedIn bool
	}{
		{"unrelated", cond, condStyle, unrelated, []candidate{unrelated}, "", specUnrelated, false},
		{"new error", guard, errNew, cand("c == nil"), cands("c == nil"), "", specErrorNew, false},
		{"zero values", guard, zero, cand("c == nil"), cands("c == nil"), "", "", false},
		{"close to the original", cond, condStyle, cand("c != nil"), cands("c != nil", "key.IsLast()"), "", "", false},
		{"far, alternatives over the same values", cond, condStyle, cand(`c == nil || c.Name == ""`),
			cands(`c == nil || c.Name == ""`, "c == nil || len(c.Name) == 0", "c == nil || len(c.Name) < 1"), "", "", false},
		{"far, an alternative over another value", cond, condStyle, cand(`c == nil || c.Name == "" && key.IsLast()`),
			cands(`c == nil || c.Name == "" && key.IsLast()`, `c == nil || c.Name == "" && value.Data == nil`), "", specFarAmbiguous, false},
		{"far, an alternative ranked before", cond, condStyle, cand(`c == nil || c.Name == "" && value.Data == nil`),
			cands(`c == nil || c.Name == "" && key.IsLast()`, `c == nil || c.Name == "" && value.Data == nil`), "", specFarAmbiguous, false},
		{"far, the other alternative failed the suite", cond, condStyle, cand(`c == nil || c.Name == "" && value.Data == nil`),
			cands(`c == nil || c.Name == "" && key.IsLast()`, `c == nil || c.Name == "" && value.Data == nil`), `c == nil || c.Name == "" && key.IsLast()`, "", false},
		{"an operand of the original deleted", collect.Site{Kind: collect.Cond, Original: `c.Name != "" && len(c.Name) > 0`}, condStyle, cand("len(c.Name) > 0"),
			cands("len(c.Name) > 0", "key.IsLast()"), "", "", false},
		{"far from the original's deletions", collect.Site{Kind: collect.Cond, Original: `c.Name != "" && len(c.Name) > 0`}, condStyle, cand("len(c.Name) > 1"),
			cands("len(c.Name) > 1", "key.IsLast()"), "", specFarAmbiguous, false},
		{"far, an alternative that reads less", cond, condStyle, cand(`c == nil || c.Name == "" && key.IsLast()`),
			cands(`c == nil || c.Name == "" && key.IsLast()`, `c == nil || c.Name == ""`), "", specFarAmbiguous, false},
		{"far mutant", cond, condStyle, mutant, append(cands(`c == nil || c.Name == "" && value.Data == nil`), mutant), "", "", false},
		{"far, negated in the failing fragments", cond, condStyle, cand(`c == nil || c.Name == ""`),
			cands(`c == nil || c.Name == ""`), "", specFarNegated, true},
		{"close, negated in the failing fragments", cond, condStyle, cand("c != nil"), cands("c != nil"), "", "", true},
		{"far mutant, negated in the failing fragments", cond, condStyle, mutant, []candidate{mutant}, "", "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			why := speculative(tc.site, tc.st, tc.c, tc.ranked, spec, 10, tc.negatedIn, func(src string) bool { return src == tc.failed })
			if tc.rule == "" && why != "" || !strings.HasPrefix(why, tc.rule+":") && tc.rule != "" {
				t.Errorf("speculative = %q, want rule %q", why, tc.rule)
			}
		})
	}
}

func TestLengthOf(t *testing.T) {
	for in, want := range map[string]string{"len(c.Name)": "c.Name", "cap(b[1:])": "b[1:]", "c.Len()": "c.Len()", "x": "x", "len(a, b)": "len(a, b)"} {
		if got := lengthOf(in); got != want {
			t.Errorf("lengthOf(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestUnderdetermined checks guard-underdetermined: a new guard from two
// distinct states with another fitting candidate is withheld; from three,
// alone, mutated or where the other failed, it is not.
func TestUnderdetermined(t *testing.T) {
	spec := &synth.Spec{Inputs: []synth.Input{{Expr: "len(val)", Kind: synth.Int}, {Expr: "val == \"\"", Kind: synth.Bool}}}
	cand := func(src, method string) candidate {
		term, err := synth.ParseTerm(spec, src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		return candidate{src: src, term: term, method: method}
	}
	zero := style{name: "return", strategy: collect.StrategyZero, exit: "return nil, nil", late: true}
	first := style{name: "return", strategy: collect.StrategyZero, exit: "return nil, nil"}
	loop := style{name: "return", strategy: collect.StrategyZero, exit: "continue", late: true}
	for _, tc := range []struct {
		name     string
		distinct int
		st       style
		method   string
		others   []string
		failed   string
		want     bool
	}{
		{"two states, another fits", 2, zero, "synthesis", []string{`val == ""`}, "", true},
		{"two states, alone", 2, zero, "synthesis", nil, "", false},
		{"two states, the other failed", 2, zero, "synthesis", []string{`val == ""`}, `val == ""`, false},
		{"three states, another fits", 3, zero, "synthesis", []string{`val == ""`}, "", false},
		{"a condition, not a new guard", 2, style{name: "cond"}, "synthesis", []string{`val == ""`}, "", false},
		{"a sibling's guard", 2, zero, "sibling", []string{`val == ""`}, "", false},
		{"the first tier's exit", 2, first, "synthesis", []string{`val == ""`}, "", false},
		{"a loop's next iteration", 2, loop, "synthesis", []string{`val == ""`}, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := cand("len(val) == 0", tc.method)
			ranked := []candidate{c}
			for _, o := range tc.others {
				ranked = append(ranked, cand(o, "synthesis"))
			}
			why := underdetermined(tc.st, c, ranked, tc.distinct, func(src string) bool { return src == tc.failed })
			if got := strings.HasPrefix(why, specUnderdetermined+":"); got != tc.want {
				t.Errorf("underdetermined = %q, want withheld %v", why, tc.want)
			}
		})
	}
}

// TestAmbiguousGuard checks guard-ambiguous: a synthesized new guard is
// withheld when three other candidates over other values fit the
// recorded states, and printed when fewer do, when they read its values
// (a value and its length are one), when the suite rejected one, when it
// is no new guard or was not synthesized.
func TestAmbiguousGuard(t *testing.T) {
	spec := &synth.Spec{Inputs: []synth.Input{
		{Expr: "name", Kind: synth.String}, {Expr: "len(name)", Kind: synth.Int},
		{Expr: "v", Kind: synth.Int}, {Expr: "factor", Kind: synth.Int}, {Expr: "done", Kind: synth.Bool},
		{Expr: "trim(name)", Kind: synth.String},
	}}
	cand := func(src, method string) candidate {
		term, err := synth.ParseTerm(spec, src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		return candidate{src: src, term: term, method: method}
	}
	guard := collect.Site{Kind: collect.Guard, Original: "return v * factor"}
	cond := collect.Site{Kind: collect.Cond, Original: `name == "x"`}
	three := []string{"v > 2", "factor > 3", "done"}
	for _, tc := range []struct {
		name   string
		site   collect.Site
		method string
		others []string
		failed string
		want   bool
	}{
		{"three others over other values", guard, "synthesis", three, "", true},
		{"three others, one over two values", guard, "synthesis", []string{"v > factor", "factor > 3", "done"}, "", true},
		{"two others", guard, "synthesis", three[:2], "", false},
		{"others over the same value", guard, "synthesis", []string{"len(name) == 0", "len(name) < 1", `name != "" == false`, "done"}, "", false},
		{"others that read the value too", guard, "synthesis", []string{`done && name == ""`, `v > 2 && name != "y"`, "len(name) < factor"}, "", false},
		{"others over a call on the value", guard, "synthesis", []string{`trim(name) == ""`, `trim(name) != "a"`, `trim(name) < "b"`}, "", false},
		{"one other rejected by the suite", guard, "synthesis", three, "factor > 3", false},
		{"a condition, not a new guard", cond, "synthesis", three, "", false},
		{"a sibling's guard", guard, "sibling", three, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := cand(`name == ""`, tc.method)
			ranked := []candidate{c}
			for _, o := range tc.others {
				ranked = append(ranked, cand(o, "synthesis"))
			}
			why := speculative(tc.site, style{name: "return", strategy: collect.StrategyZero, exit: "return 0"}, c, ranked, spec, 10, false, func(src string) bool { return src == tc.failed })
			if got := strings.HasPrefix(why, specAmbiguousGuard+":"); got != tc.want {
				t.Errorf("speculative = %q, want guard-ambiguous %v", why, tc.want)
			}
		})
	}
}
