package nopol

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nopol-go/nopol/angelic"
	"github.com/nopol-go/nopol/collect"
	"github.com/nopol-go/nopol/synth"
)

// TestRepairOneRanking checks that a mutant of the original that agrees
// with the recorded states is validated before a synthesized condition
// further from the original, at the same site, before any fallback.
func TestRepairOneRanking(t *testing.T) {
	f := newFake(t)
	f.solutions = []*synth.Term{synth.BinTerm(synth.OpLe, synth.InputTerm(0), synth.LitTerm(synth.IntValue(-1)))}
	res, progress := mustRepair(t, f)
	if got := tried(res, true); got != "n < 0:mutation:true" {
		t.Errorf("candidates: %s", got)
	}
	if res.Site.Method != "mutation" || len(res.Sites) != 1 || res.Diff != wantDiff {
		t.Errorf("method %s after %d sites, diff:\n%s", res.Site.Method, len(res.Sites), res.Diff)
	}
	if !strings.Contains(progress.String(), "n < 0 (mutant) | n <= -1") {
		t.Errorf("progress does not show the ranking:\n%s", progress.String())
	}
}

// TestRepairRejectsAntiPattern checks that a candidate breaking an
// anti-pattern is never validated, even when it would pass the suite.
func TestRepairRejectsAntiPattern(t *testing.T) {
	f := newFake(t)
	// n != 0 && n < 3 agrees with every state, and passes the suite; 3 is
	// a constant the code does not have, near TestPositive's input only.
	invented := synth.BinTerm(synth.OpAnd,
		synth.BinTerm(synth.OpNe, synth.InputTerm(0), synth.ConstTerm(0)),
		synth.BinTerm(synth.OpLt, synth.InputTerm(0), synth.LitTerm(synth.IntValue(3))))
	f.solutions = []*synth.Term{invented}
	f.good = "n != 0 && n < 3"
	var progress strings.Builder
	res, err := repair(context.Background(), Options{Dir: f.dir, Backend: "fake", Logf: logTo(&progress), NoMutants: true, NoPerEval: true}, f)
	if err != nil {
		t.Fatalf("repair: %v\n%s", err, progress.String())
	}
	if res.Patched {
		t.Fatalf("patched with %s", res.Condition)
	}
	if len(res.Candidates) != 0 {
		t.Errorf("validated %v", res.Candidates)
	}
	if got := strings.Join(res.Sites[0].Rejected, " | "); !strings.HasPrefix(got, "n != 0 && n < 3: invented-constant: n < 3 compares with 3") {
		t.Errorf("site 0 rejected %q", got)
	}
}

// mustRepair repairs the fake module with default options and fails the
// test without a patch; it returns the progress too.
func mustRepair(t *testing.T, f *fake) (*Result, *strings.Builder) {
	t.Helper()
	var progress strings.Builder
	res, err := repair(context.Background(), Options{Dir: f.dir, Backend: "fake", Logf: logTo(&progress)}, f)
	if err != nil || !res.Patched {
		t.Fatalf("no patch (%v):\n%s", err, progress.String())
	}
	return res, &progress
}

// tried lists the candidates validated, "cond:passed" or, with methods,
// "cond:method:passed".
func tried(res *Result, methods bool) string {
	var out []string
	for _, c := range res.Candidates {
		if methods {
			out = append(out, fmt.Sprintf("%s:%s:%v", c.Condition, c.Method, c.Passed))
		} else {
			out = append(out, fmt.Sprintf("%s:%v", c.Condition, c.Passed))
		}
	}
	return strings.Join(out, " | ")
}

// TestMismatchedTypes checks which synthesized comparisons would not
// compile for their operands' Go types.
// TestNamedConstants: a value compared with an operand of a defined type
// is written as the package's constant of that type, when there is one.
func TestNamedConstants(t *testing.T) {
	site := collect.Site{
		Observed: []collect.Observed{{Expr: "kind", Kind: collect.KindInt, Type: "check.Kind"}, {Expr: "n", Kind: collect.KindInt, Type: "int"}},
		Constants: []collect.Constant{{Expr: "0"}, {Expr: "ModulePath", Type: "check.Kind"}, {Expr: "FilePath", Type: "check.Kind"},
			{Expr: "Max", Type: "int"}},
	}
	spec := &synth.Spec{
		Inputs: []synth.Input{{Expr: "kind", Kind: synth.Int}, {Expr: "n", Kind: synth.Int}},
		Constants: []synth.Constant{{Expr: "0", Value: synth.IntValue(0)}, {Expr: "ModulePath", Value: synth.IntValue(0)},
			{Expr: "FilePath", Value: synth.IntValue(1)}, {Expr: "Max", Value: synth.IntValue(1)}},
	}
	for _, tc := range []struct{ cond, want string }{
		{"kind == 0", "kind == ModulePath"},
		{"0 != kind && n > 0", "ModulePath != kind && n > 0"},
		{"kind < 1", "kind < FilePath"},
		{"n == 0 || kind > 2", "n == 0 || kind > 2"}, // no constant of value 2
		{"n < 1", "n < 1"},                           // int is not a defined type
	} {
		term, err := synth.ParseTerm(spec, tc.cond)
		if err != nil {
			t.Fatalf("%s: %v", tc.cond, err)
		}
		if got := namedConstants(spec, operandTypes(site), term).Source(spec); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.cond, got, tc.want)
		}
		if src := term.Source(spec); src != tc.cond {
			t.Errorf("%s: the term was changed: %s", tc.cond, src)
		}
	}
}

func TestMismatchedTypes(t *testing.T) {
	site := collect.Site{
		Observed: []collect.Observed{
			{Expr: "v.Kind()", Kind: collect.KindInt, Type: "reflect.Kind"},
			{Expr: "n", Kind: collect.KindInt, Type: "int"},
			{Expr: "b", Kind: collect.KindInt, Type: "uint8", Char: true},
			{Expr: "m", Kind: collect.KindInt},
		},
		Constants: []collect.Constant{{Expr: "reflect.Interface", Type: "reflect.Kind"}, {Expr: "2"}},
	}
	spec := &synth.Spec{
		Inputs:    []synth.Input{{Expr: "v.Kind()", Kind: synth.Int}, {Expr: "n", Kind: synth.Int}, {Expr: "b", Kind: synth.Int, Char: true}, {Expr: "m", Kind: synth.Int}},
		Constants: []synth.Constant{{Expr: "reflect.Interface", Value: synth.IntValue(20)}, {Expr: "2", Value: synth.IntValue(2)}},
	}
	for _, tc := range []struct {
		cond string
		bad  bool
	}{
		{"v.Kind() != reflect.Interface", false},
		{"n == reflect.Interface", true},
		{"n > 2 && v.Kind() == 2", false},
		{"b < n", true},
		{"n+2 > v.Kind()", true},
		{"m < v.Kind()", false}, // m's type is not known
		{"n < 7 || !(b == 'a')", false},
	} {
		term, err := synth.ParseTerm(spec, tc.cond)
		if err != nil {
			t.Fatalf("%s: %v", tc.cond, err)
		}
		if why := mismatchedTypes(spec, operandTypes(site), term); (why != "") != tc.bad {
			t.Errorf("%s: mismatched %q, want mismatched %v", tc.cond, why, tc.bad)
		}
	}
}

// TestWithSibling: the sibling's guard is validated before the
// synthesized candidates, except those that drop one of its clauses.
func TestWithSibling(t *testing.T) {
	const guard = "v.Kind() != reflect.Interface && v.Type() != timeType"
	for _, tt := range []struct {
		synthesized []string
		want        string
	}{
		{[]string{"v.Kind() == reflect.Map", "d.strict"}, guard + " | v.Kind() == reflect.Map | d.strict"},
		{[]string{"v.Kind() == reflect.Map", "v.Kind() != reflect.Interface"}, "v.Kind() != reflect.Interface | " + guard + " | v.Kind() == reflect.Map"},
		{[]string{"v.Kind()!=reflect.Interface&&v.Type()!=timeType", "x"}, guard + " | x"},
		{nil, guard},
	} {
		var cands []candidate
		for _, s := range tt.synthesized {
			cands = append(cands, candidate{src: s, method: "synthesis"})
		}
		got := withSibling(cands, []candidate{{src: guard, method: "sibling"}})
		if s := strings.Join(sources(got), " | "); s != tt.want {
			t.Errorf("withSibling(%q) = %s, want %s", tt.synthesized, s, tt.want)
		}
	}
	if got := withSibling([]candidate{{src: "x"}}, nil); len(got) != 1 {
		t.Errorf("without a sibling: %v", got)
	}
}

// TestAgreeingMutantsOneValuedClause: a clause added to the original must
// vary over the recorded states; one with a single value everywhere
// stands for a constant, and the extension for a clause made constant.
func TestAgreeingMutantsOneValuedClause(t *testing.T) {
	spec := &synth.Spec{
		Original: "n < 0",
		Inputs:   []synth.Input{{Expr: "n", Kind: synth.Int}, {Expr: "isOdd(n)", Kind: synth.Bool}, {Expr: "isBig(n)", Kind: synth.Bool}},
		Examples: []synth.Example{
			{Values: []synth.Value{synth.IntValue(-2), synth.BoolValue(false), synth.BoolValue(false)}, Want: false},
			{Values: []synth.Value{synth.IntValue(3), synth.BoolValue(true), synth.BoolValue(false)}, Want: false},
			{Values: []synth.Value{synth.IntValue(5), synth.BoolValue(true), synth.MissingValue(synth.Bool)}, Want: false},
		},
	}
	r := &repairer{}
	var got []string
	for _, c := range r.agreeingMutants(collect.Site{Kind: collect.Cond, Original: "n < 0"}, spec, nil) {
		got = append(got, c.src)
		if strings.Contains(c.src, "isBig") {
			t.Errorf("candidate %q adds isBig(n), false at every state", c.src)
		}
	}
	if !slices.Contains(got, "n < 0 && isOdd(n)") {
		t.Errorf("candidates %q, want n < 0 && isOdd(n) among them", got)
	}
}

// TestFallbackMutants: the fallback leaves out the mutants already tried,
// and rejects those that break an anti-pattern read without states (a
// clause of a panicking branch's check dropped).
func TestFallbackMutants(t *testing.T) {
	site := collect.Site{ID: 4, Kind: collect.Cond, Original: "n <= 0 || p == nil", Then: &collect.Branch{Panics: true}}
	cands, rejected := fallbackMutants(site, func(src string) bool { return src == "n > 0 || p == nil" })
	var got []string
	for _, c := range cands {
		got = append(got, c.src)
	}
	if slices.Contains(got, "n > 0 || p == nil") || !slices.Contains(got, "n <= 0 && p == nil") {
		t.Errorf("mutants %q: want n <= 0 && p == nil, and not the one tried", got)
	}
	if want := "p == nil: guard-deleted: the branch panics and the candidate no longer tests n | n <= 0: guard-deleted: the branch panics and the candidate no longer tests p"; strings.Join(rejected, " | ") != want {
		t.Errorf("rejected %q, want %s", rejected, want)
	}
	// A parameter the function never reads, in place of an operand:
	// after the first-order mutants.
	site = collect.Site{Kind: collect.Cond, Original: "i != len(fields)-1", Unread: []string{"i != total-1"}}
	cands, _ = fallbackMutants(site, func(string) bool { return false })
	if len(cands) == 0 || cands[len(cands)-1].src != "i != total-1" {
		t.Errorf("mutants %v: want i != total-1 last", cands)
	}
}

// TestWithGuesses: a guess a failing test passed with comes first when it
// fits the recorded states, as written; one that does not, before the
// first candidate far from the original; one that breaks an anti-pattern
// or does not read keep, not at all; the others keep their order.
func TestWithGuesses(t *testing.T) {
	site := collect.Site{Kind: collect.Cond, Original: "n == 0"}
	spec := &synth.Spec{
		Original: "n == 0",
		Inputs:   []synth.Input{{Expr: "n", Kind: synth.Int}, {Expr: "k", Kind: synth.Int}},
		Examples: []synth.Example{
			{Values: []synth.Value{synth.IntValue(-1), synth.IntValue(2)}, Want: true},
			{Values: []synth.Value{synth.IntValue(3), synth.IntValue(2)}, Want: false},
			{Values: []synth.Value{synth.IntValue(5), synth.IntValue(4)}, Want: false},
		},
	}
	synthesized := []candidate{{src: "n <= 0", method: "synthesis"}, {src: "n <= 0 && k != 4 && k < n+9", method: "synthesis"}, {src: "n < 0", method: "synthesis"}}
	needs := func(guesses ...string) []angelic.Need {
		var out []angelic.Need
		for _, g := range guesses {
			out = append(out, angelic.Need{Test: "TestX", Force: angelic.Force{Guess: g}})
		}
		return out
	}
	for _, tt := range []struct {
		name  string
		needs []angelic.Need
		keep  []int
		want  string
	}{
		{"a fit first, as written", needs("n < 0"), nil, "n < 0 | n <= 0 | n <= 0 && k != 4 && k < n+9"},
		{"spaced otherwise, one candidate", needs("n<0", "n < 0"), nil, "n<0 | n <= 0 | n <= 0 && k != 4 && k < n+9"},
		{"not a fit: before the first far one", needs("n != k"), nil, "n <= 0 | n != k | n <= 0 && k != 4 && k < n+9 | n < 0"},
		{"an anti-pattern: left out, the order kept", needs("n != 3"), nil, "n <= 0 | n <= 0 && k != 4 && k < n+9 | n < 0"},
		{"no guess: the order kept", needs(""), nil, "n <= 0 | n <= 0 && k != 4 && k < n+9 | n < 0"},
		{"does not read keep", needs("n < 0"), []int{1}, "n <= 0 | n <= 0 && k != 4 && k < n+9 | n < 0"},
	} {
		r := &repairer{opts: Options{}}
		got := r.withGuesses(site, style{name: "cond"}, spec, tt.keep, tt.needs, slices.Clone(synthesized))
		if s := strings.Join(sources(got), " | "); s != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, s, tt.want)
		}
		if tt.keep == nil && got[0].src == tt.needs[0].Force.Guess && got[0].method != "guess" {
			t.Errorf("%s: the guess %q has method %q", tt.name, got[0].src, got[0].method)
		}
	}
}

// TestSpacedCandidates: synthesis's fits that differ in spacing only are
// one candidate (the first); a mutant written as the original is, that
// synthesis found spaced otherwise, keeps its own spelling.
func TestSpacedCandidates(t *testing.T) {
	if !hasForm([]candidate{{src: "s2[i-1] != s1[j-1]"}}, "s2[i - 1] != s1[j - 1]") {
		t.Error("hasForm: s2[i - 1] != s1[j - 1] is not s2[i-1] != s1[j-1]")
	}
	if hasForm([]candidate{{src: "s2[i-1] != s1[j-1]"}}, "s2[i-1] == s1[j-1]") {
		t.Error("hasForm: == is !=")
	}
	got := withMutants([]candidate{{src: "lastIdx >= len(lines) - 1", method: "synthesis"}}, []candidate{{src: "lastIdx >= len(lines)-1", method: "mutation"}}, "lastIdx > len(lines)-1")
	if s := strings.Join(sources(got), " | "); !strings.HasPrefix(s, "lastIdx >= len(lines)-1") {
		t.Errorf("withMutants: %s, want the mutant as written first", s)
	}
}

// TestFewerClauses checks that a synthesized conjunction is preceded by
// its clauses alone when they miss only states of failing tests, those
// that miss the fewest first, and not when they miss a passing test's
// state (semver's seeded Compare: `o < v && v >= p`, where `o < v` alone
// misses one evaluation of the failing TestParseRange).
func TestFewerClauses(t *testing.T) {
	ex := func(origin string, o, v, p int64, want bool) synth.Example {
		return synth.Example{Origin: origin, Want: want, Values: []synth.Value{synth.IntValue(o), synth.IntValue(v), synth.IntValue(p)}}
	}
	inputs := []synth.Input{{Expr: "o", Kind: synth.Int}, {Expr: "v", Kind: synth.Int}, {Expr: "p", Kind: synth.Int}}
	r := &repairer{failing: []testKey{{name: "TestFail"}}, needed: map[int]bool{}}
	site := collect.Site{ID: 1, Kind: collect.Guard}
	st := style{name: "return", strategy: collect.StrategyReuse}
	for _, tc := range []struct {
		name     string
		examples []synth.Example
		want     []string
	}{
		{"a failing test's state only", []synth.Example{
			ex("TestFail", 0, 1, 0, true), ex("TestFail", 0, 1, 8, false),
			ex("TestPass", 1, 0, 0, false), ex("TestPass", 2, 1, 0, false),
		}, []string{"o < v"}},
		{"the fewest missed first", []synth.Example{
			ex("TestFail", 0, 1, 0, true), ex("TestFail", 0, 1, 8, false), ex("TestFail", 0, 2, 9, false), ex("TestFail", 1, 1, 0, false),
			ex("TestPass", 2, 1, 5, false),
		}, []string{"v >= p", "o < v"}},
		{"a passing test's state", []synth.Example{
			ex("TestFail", 0, 1, 0, true), ex("TestPass", 0, 1, 8, false),
			ex("TestPass", 1, 0, 0, false),
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := &synth.Spec{Inputs: inputs, Examples: tc.examples}
			term, err := synth.ParseTerm(spec, "o < v && v >= p")
			if err != nil {
				t.Fatal(err)
			}
			got := r.fewerClauses(site, st, spec, []candidate{{src: "o < v && v >= p", term: term, method: "synthesis"}})
			var srcs []string
			for _, c := range got {
				srcs = append(srcs, c.src)
			}
			if !slices.Equal(srcs, tc.want) {
				t.Errorf("fewerClauses = %q, want %q", srcs, tc.want)
			}
		})
	}
}

// TestReadsAllLeaves checks that a mutant changing a clause inside an
// observed prefix of the original's chain still reads the original's
// operands (x/mod's ParseTilePath), and that a clause deleted does not.
func TestReadsAllLeaves(t *testing.T) {
	spec := &synth.Spec{Inputs: []synth.Input{
		{Expr: "p || h <= 1 || l < 0", Kind: synth.Bool},
		{Expr: "p || h <= 1", Kind: synth.Bool},
		{Expr: "p", Kind: synth.Bool},
		{Expr: "h <= 1", Kind: synth.Bool},
		{Expr: "h", Kind: synth.Int},
		{Expr: "l < 0", Kind: synth.Bool},
		{Expr: "l", Kind: synth.Int},
		{Expr: "h > 30", Kind: synth.Bool},
	}}
	keep := []int{0, 7} // the longest prefix and the last clause
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{"p || h <= 1 || l < 0 || h > 30", true},
		{"p || h < 1 || l < 0 || h > 30", true},
		{"(p || h <= 1 || l < 0) && h > 30", true},
		{"p || l < 0 || h > 30", false}, // h <= 1 deleted: h is read by h > 30 only
		{"p || h < 1 || h > 30", false}, // l no longer read
	} {
		term, err := synth.ParseTerm(spec, tc.src)
		if err != nil {
			t.Fatalf("ParseTerm(%q): %v", tc.src, err)
		}
		if got := readsAllLeaves(spec, term, keep); got != tc.want {
			t.Errorf("readsAllLeaves(%q) = %v, want %v", tc.src, got, tc.want)
		}
	}
}

// TestTermsOver checks that a candidate's term read over one spec is read
// again over another with other inputs (a bounds check recorded before
// the spec was restricted to the original's operands), nil where it
// cannot be, and that a candidate without a term keeps none.
func TestTermsOver(t *testing.T) {
	full := &synth.Spec{Inputs: []synth.Input{
		{Expr: "ok", Kind: synth.Bool}, {Expr: "s", Kind: synth.String}, {Expr: "len(s)", Kind: synth.Int}, {Expr: "n", Kind: synth.Int},
	}}
	projected := &synth.Spec{Inputs: []synth.Input{{Expr: "n", Kind: synth.Int}}}
	term, err := synth.ParseTerm(full, "n > 0")
	if err != nil {
		t.Fatal(err)
	}
	other, err := synth.ParseTerm(full, "len(s) > 0")
	if err != nil {
		t.Fatal(err)
	}
	got := termsOver(projected, []candidate{{src: "n > 0", term: term}, {src: "len(s) > 0", term: other}, {src: "x"}})
	if got[0].term == nil || got[0].term.Source(projected) != "n > 0" || inputsRead(got[0].term)[0] != 0 {
		t.Errorf("n > 0 over the projected spec: %v", got[0].term)
	}
	if got[1].term != nil || got[2].term != nil {
		t.Errorf("len(s) > 0 and x: terms %v, %v; want none", got[1].term, got[2].term)
	}
	if inputsRead(term)[0] != 3 {
		t.Errorf("the original candidate changed: reads %v", inputsRead(term))
	}
}

// TestWithMutantsNamesLost: at one token from the original, the mutant
// that keeps the original's predicate comes before a synthesized
// condition that swaps it for another, shorter though it is
// (BurntSushi/toml's real lexNumberOrDateStart); a synthesized condition
// that keeps every name still comes before a longer mutant.
func TestWithMutantsNamesLost(t *testing.T) {
	for _, tc := range []struct {
		syn, muts []string
		original  string
		want      string
	}{
		{[]string{"isControl(r)", "isNL(r)"}, []string{"!isDigit(r)"}, "isDigit(r)", "!isDigit(r) | isControl(r) | isNL(r)"},
		{[]string{"n < 0"}, []string{"n <= 0 || x"}, "n > 0", "n < 0 | n <= 0 || x"},
	} {
		var syn, muts []candidate
		for _, s := range tc.syn {
			syn = append(syn, candidate{src: s, method: "synthesis"})
		}
		for _, s := range tc.muts {
			muts = append(muts, candidate{src: s, method: "mutation"})
		}
		if got := strings.Join(sources(withMutants(syn, muts, tc.original)), " | "); got != tc.want {
			t.Errorf("withMutants(%q, %q) = %s, want %s", tc.syn, tc.muts, got, tc.want)
		}
	}
}

func TestNamesLost(t *testing.T) {
	for _, tc := range []struct {
		original, cand string
		want           int
	}{
		{"isDigit(r)", "isControl(r)", 1},
		{"isDigit(r)", "!isDigit(r)", 0},
		{"a.b > c && a.d", "a.b > 0", 2},
		{"x == x", "y == 1", 1},
	} {
		if got := namesLost(tc.original, tc.cand); got != tc.want {
			t.Errorf("namesLost(%q, %q) = %d, want %d", tc.original, tc.cand, got, tc.want)
		}
	}
}
